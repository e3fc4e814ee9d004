import Foundation
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// A PC/SC client in another process (`Scripts/lib/pcsc-client.pl`, over Debian's libpcsc-perl)
/// talking to the real pcscd, driven line by line; every answer has a time limit.
///
/// The client reads its commands from a FIFO in a folder of its own and writes its answers to
/// the output file of its ``TestSupport/ChildProcess``; an answer is awaited by polling that
/// file with `Task.sleep`, so a test that waits for one (pcscd seeing a card go, say) holds no
/// thread.
final class PCSCClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether the tests may use a pcscd with the vpcd readers: `Scripts/test` starts one and
    /// sets `NDEFTOOL_PCSCD=1`.
    static let isAvailable = ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1"

    /// Why the PC/SC tests are skipped, said loudly in the test output.
    static let skipNote: Comment = """
        SKIPPED: no pcscd for the PC/SC tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root, \
        which starts a private pcscd with the vpcd readers and sets NDEFTOOL_PCSCD=1.
        """

    /// The first vpcd reader of Debian's configuration (port 35963).
    static let firstReader = "Virtual PCD 00 00"
    /// The second (port 35964).
    static let secondReader = "Virtual PCD 00 01"

    /// The client script.
    static let script = PackagePaths.root.appendingPathComponent("Scripts/lib/pcsc-client.pl").path

    private let folder: TemporaryDirectory
    /// The write end of the command FIFO (opened read-write, so that opening it never waits for
    /// the reader, and the client sees the end of its input only when this closes).
    private let commands: Int32
    private let process: ChildProcess
    /// How many answer lines were taken.
    private let answered = Mutex(0)

    /// Starts the client. Its environment has no `PCSCLITE_CSOCK_NAME` that other suites in the
    /// same test process may set for a private pcscd of their own: the client talks to the
    /// pcscd of the test run, where the vpcd card connects.
    init() throws {
        folder = try TemporaryDirectory("pcsc-client")
        let fifo = folder.path("commands")
        guard mkfifo(fifo, 0o600) == 0 else { throw Failure(description: "mkfifo \(fifo): errno \(errno)") }
        commands = open(fifo, O_RDWR | O_CLOEXEC)
        guard commands >= 0 else { throw Failure(description: "open \(fifo): errno \(errno)") }
        do {
            process = try ChildProcess(
                path: "/usr/bin/perl", [Self.script], environment: ["PCSCLITE_CSOCK_NAME": nil], input: .file(fifo))
        } catch {
            SystemCall.close(commands)
            throw error
        }
    }

    deinit {
        SystemCall.close(commands)
    }

    /// Sends one command line and returns the answer line; throws when none comes within
    /// `timeout` or the client ended.
    @discardableResult
    func call(_ line: String, within timeout: Duration = .seconds(60)) async throws -> String {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { (try? SystemCall.write(commands, from: $0).get()) ?? -1 }
        guard written == bytes.count else { throw Failure(description: "cannot send \(line): errno \(errno)") }
        let index = answered.withLock { $0 }
        var answer: String?
        var ended = false
        _ = await eventually(within: timeout, every: .milliseconds(1)) {
            ended = !process.isRunning
            let lines = process.outputText().split(separator: "\n", omittingEmptySubsequences: false)
            // The last element is the line being written (empty once it ended with a newline).
            if lines.count - 1 > index {
                answer = String(lines[index])
                return true
            }
            return ended
        }
        guard let answer else {
            let reason = ended ? "the PC/SC client ended" : "the PC/SC client did not answer within \(timeout)"
            throw Failure(description: "\(line): \(reason): \(process.errorText())")
        }
        answered.withLock { $0 = index + 1 }
        return answer
    }

    /// The response APDU (hex) to `apdu`; throws when the transmission failed.
    func transmit(_ apdu: String) async throws -> String {
        let answer = try await call("transmit " + apdu)
        guard answer.hasPrefix("ok") else { throw Failure(description: "transmit \(apdu): \(answer)") }
        return String(answer.dropFirst(2)).trimmingCharacters(in: .whitespaces)
    }

    /// Whether pcscd reports to the client, within `milliseconds`, that the reader has a card
    /// (`present`) or none (`absent`).
    func sees(_ state: String, reader: String = firstReader, milliseconds: Int = 120_000) async throws -> Bool {
        try await call(
            "wait \(state) \(reader) \(milliseconds)", within: .milliseconds(milliseconds) + .seconds(60)
        ).hasPrefix("ok")
    }

    /// The count of card events (arrivals and removals) pcscd reports for `reader` while it
    /// holds a card (the upper 16 bits of the event state, as pcsc-lite keeps it); nil while it
    /// holds none.
    func cardEventCount(reader: String = firstReader) async throws -> Int? {
        let answer = try await call("wait present \(reader) 0")
        guard answer.hasPrefix("ok "), let state = UInt64(answer.dropFirst(3), radix: 16) else { return nil }
        return Int(state >> 16)
    }

    /// Ends the client: `quit`, and SIGKILL should it not end within 10 s.
    func close() async {
        guard process.isRunning else { return }
        _ = "quit\n".utf8CString.withUnsafeBytes {
            SystemCall.write(commands, from: UnsafeRawBufferPointer(rebasing: $0.dropLast()))
        }
        if !(await process.exit(within: .seconds(10))) { process.send(SIGKILL) }
        _ = await process.exit()
    }
}
