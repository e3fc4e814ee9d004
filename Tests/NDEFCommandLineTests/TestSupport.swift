import Foundation
import Testing

@testable import NDEFCommandLine

/// Standard streams in memory, to run commands in process.
final class TestIO: CommandIO {
    var input: [UInt8]
    var output: [UInt8] = []
    var error = ""
    var variables: [String: String]
    var failsWriting = false

    init(input: [UInt8] = [], variables: [String: String] = [:]) {
        self.input = input
        self.variables = variables
    }

    var outputText: String { String(decoding: output, as: UTF8.self) }

    func readStandardInput() throws(CommandLineError) -> [UInt8] { input }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {
        if failsWriting { throw CommandLineError(.ioError, "cannot write standard output: Broken pipe") }
        output += bytes
    }

    func writeError(_ text: String) { error += text }

    func environment(_ name: String) -> String? { variables[name] }

    /// No PC/SC calls from the test process (a suite of another target points pcsc-lite at a
    /// daemon of its own): pcscd's readers as the test says, by default none.
    var pcsc = PCSCDirectory.unavailable

    /// No libnfc calls from the test process: libnfc's devices as the test says, by default none.
    var libnfc = LibNFCDirectory.none
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
