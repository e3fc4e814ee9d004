import NFCSession
import SystemSupport

/// Where commands read standard input and the environment, and write output and messages.
///
/// Data goes to standard output, messages to standard error. Tests supply their own
/// implementation to run commands in process.
protocol CommandIO: AnyObject {
    /// All of standard input.
    func readStandardInput() throws(CommandLineError) -> [UInt8]
    /// Writes bytes to standard output.
    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError)
    /// Writes a message to standard error.
    func writeError(_ text: String)
    /// The value of environment variable `name`.
    func environment(_ name: String) -> String?
    /// Whether `stream` is a terminal (a person is there), not a pipe or a file.
    func isTerminal(_ stream: StandardStream) -> Bool
    /// One line typed on standard input, without its line break; nil at the end of input.
    func readLine() -> String?
    /// The input available on standard input now (at least one byte, waiting for it), nil at
    /// its end: for commands that answer lines as they come (`sdm verify -`).
    func readInputChunk() -> [UInt8]?
    /// One line typed on a terminal at standard input without showing it (a password); nil when
    /// standard input is not a terminal.
    func readSecretLine() -> String?
    /// pcscd's readers.
    var pcsc: PCSCDirectory { get }
    /// libnfc's devices.
    var libnfc: LibNFCDirectory { get }
    /// A wait that returns when the user interrupts a long-running command (Ctrl-C, SIGTERM),
    /// with the signal's number; nil when the waiting task was cancelled (the command ended
    /// first: from then on the signals end the process again).
    func interruption() -> @Sendable () async -> Int32?
}

/// The three standard streams, by their file descriptors.
enum StandardStream: Int32, Sendable {
    case input = 0
    case output = 1
    case error = 2
}

extension CommandIO {
    /// ``readLine()`` on a thread of its own: a person may take minutes to answer, and no
    /// thread of the cooperative pool is held meanwhile.
    func typedLine() async -> String? {
        let io = UncheckedIO(self)
        return await BlockingCall.run { io.value.readLine() }
    }

    /// ``readSecretLine()`` on a thread of its own (see ``typedLine()``).
    func typedSecretLine() async -> String? {
        let io = UncheckedIO(self)
        return await BlockingCall.run { io.value.readSecretLine() }
    }

    /// ``readInputChunk()`` on a thread of its own: the next line of a server's input may be
    /// hours away.
    func inputChunk() async -> [UInt8]? {
        let io = UncheckedIO(self)
        return await BlockingCall.run { io.value.readInputChunk() }
    }
}

/// A command's streams handed to the thread that reads a typed line, while the command waits
/// for it (so only one side uses them at a time).
private struct UncheckedIO: @unchecked Sendable {
    let value: any CommandIO
    init(_ value: any CommandIO) { self.value = value }
}

extension CommandIO {
    /// No terminal: the streams of a test or a script.
    func isTerminal(_ stream: StandardStream) -> Bool { false }

    /// Nothing to read interactively.
    func readLine() -> String? { nil }

    /// A line at a time, through ``readLine()``.
    func readInputChunk() -> [UInt8]? { readLine().map { Array($0.utf8) + [0x0A] } }

    /// No terminal to read a secret on.
    func readSecretLine() -> String? { nil }

    /// The real pcscd.
    var pcsc: PCSCDirectory { .system }

    /// libnfc itself.
    var libnfc: LibNFCDirectory { .system }

    /// No interruption: the wait lasts until its task is cancelled.
    func interruption() -> @Sendable () async -> Int32? {
        {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return nil
        }
    }

    /// Writes text to standard output as UTF-8.
    func writeOutput(_ text: String) throws(CommandLineError) {
        try writeOutput(Array(text.utf8))
    }
}

/// The process's own standard streams and environment.
final class StandardIO: CommandIO {
    /// Creates the standard streams; a write to a closed pipe then fails instead of ending the process.
    init() {
        signal(SIGPIPE, SIG_IGN)
    }

    func readStandardInput() throws(CommandLineError) -> [UInt8] {
        do {
            return try FileAccess.readAll(descriptor: 0, limit: FileAccess.inputLimit)
        } catch {
            throw CommandLineError(error.status, "cannot read standard input: \(error.message)")
        }
    }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {
        guard let failure = FileAccess.writeAll(bytes, descriptor: 1) else { return }
        throw CommandLineError(.ioError, "cannot write standard output: \(failure)")
    }

    func writeError(_ text: String) {
        _ = FileAccess.writeAll(Array(text.utf8), descriptor: 2)
    }

    func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The first SIGINT or SIGTERM; from the call on until the wait is cancelled, the first
    /// one no longer ends the process (a second one does, at once).
    func interruption() -> @Sendable () async -> Int32? {
        let waiter = SignalWaiter()
        return { await waiter.wait() }
    }

    func isTerminal(_ stream: StandardStream) -> Bool {
        isatty(stream.rawValue) == 1
    }

    /// Reads byte by byte up to the line break, so nothing after it is taken from the input.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let result = withUnsafeMutableBytes(of: &byte) { SystemCall.read(0, into: $0) }
            guard case .success(let count) = result, count > 0 else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Up to 64 KiB of what standard input holds now, one read(2).
    func readInputChunk() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let result = buffer.withUnsafeMutableBytes { SystemCall.read(0, into: $0) }
        guard case .success(let count) = result, count > 0 else { return nil }
        return Array(buffer.prefix(count))
    }

    /// Reads a line with echo off (``TerminalEcho``), then ends the line the person typed.
    func readSecretLine() -> String? {
        let line = TerminalEcho.withoutEcho(descriptor: 0) { readLine() }
        if line != nil { writeError("\n") }
        return line ?? nil
    }
}
