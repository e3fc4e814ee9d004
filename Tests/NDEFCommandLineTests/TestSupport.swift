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

/// Temporary files for one test, removed when it ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ndeftool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to a file named `name` and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `text` to a file named `name` and returns its path.
    func file(_ name: String, text: String) throws -> String { try file(name, Array(text.utf8)) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Bytes from hex text (test data only).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
}

/// The top folder of the package, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
