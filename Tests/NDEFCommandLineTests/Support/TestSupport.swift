import Foundation
import Synchronization
import Testing

@testable import NDEFCommandLine

/// Standard streams in memory, to run commands in process. Every property is guarded by one
/// lock, so a test may look at the output while the command runs.
final class TestIO: CommandIO, @unchecked Sendable {
    private struct Streams {
        var input: [UInt8]
        var output: [UInt8] = []
        var error = ""
        var variables: [String: String]
        var failsWriting = false
        var pcsc = PCSCDirectory.unavailable
        var libnfc = LibNFCDirectory.none
    }

    private let streams: Mutex<Streams>

    init(input: [UInt8] = [], variables: [String: String] = [:]) {
        streams = Mutex(Streams(input: input, variables: variables))
    }

    var input: [UInt8] {
        get { streams.withLock { $0.input } }
        set { streams.withLock { $0.input = newValue } }
    }
    var output: [UInt8] {
        get { streams.withLock { $0.output } }
        set { streams.withLock { $0.output = newValue } }
    }
    var error: String {
        get { streams.withLock { $0.error } }
        set { streams.withLock { $0.error = newValue } }
    }
    var variables: [String: String] {
        get { streams.withLock { $0.variables } }
        set { streams.withLock { $0.variables = newValue } }
    }
    var failsWriting: Bool {
        get { streams.withLock { $0.failsWriting } }
        set { streams.withLock { $0.failsWriting = newValue } }
    }

    var outputText: String { String(decoding: output, as: UTF8.self) }

    func readStandardInput() throws(CommandLineError) -> [UInt8] { input }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {
        let fails = streams.withLock { streams in
            if !streams.failsWriting { streams.output += bytes }
            return streams.failsWriting
        }
        if fails { throw CommandLineError(.ioError, "cannot write standard output: Broken pipe") }
    }

    func writeError(_ text: String) { streams.withLock { $0.error += text } }

    func environment(_ name: String) -> String? { variables[name] }

    /// No PC/SC calls from the test process (a suite of another target points pcsc-lite at a
    /// daemon of its own): pcscd's readers as the test says, by default none.
    var pcsc: PCSCDirectory {
        get { streams.withLock { $0.pcsc } }
        set { streams.withLock { $0.pcsc = newValue } }
    }

    /// No libnfc calls from the test process: libnfc's devices as the test says, by default none.
    var libnfc: LibNFCDirectory {
        get { streams.withLock { $0.libnfc } }
        set { streams.withLock { $0.libnfc = newValue } }
    }
}

/// The result of running a command line.
struct RunResult {
    var status: Int32
    var output: [UInt8]
    var error: String

    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `arguments` in process.
func runInProcess(_ arguments: [String], input: [UInt8] = [], variables: [String: String] = [:]) async -> RunResult {
    let io = TestIO(input: input, variables: variables)
    let status = await NDEFCommandLine.run(arguments, io: io)
    return RunResult(status: status.rawValue, output: io.output, error: io.error)
}
