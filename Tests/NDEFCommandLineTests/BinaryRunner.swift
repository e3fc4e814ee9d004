import Foundation
import TestSupport
import Testing

/// Runs the built `ndeftool` executable, as a user would.
enum BinaryRunner {
    /// The executable: next to this test bundle in the build's products folder (where
    /// `swift build` and `swift test` put it), else in `.build/debug` of the package.
    static let executable: URL? = PackagePaths.builtExecutable("ndeftool")

    /// Runs `ndeftool` (or `program`) with `arguments`, `input` on standard input, in `directory`,
    /// and waits for it without holding a thread (at most `timeout`: then it is killed and the
    /// test fails). The environment is the test process's without `LIBNFC_LOG_LEVEL` (libnfc's
    /// `nfc_init` in this process sets it), with `environment` on top.
    static func run(
        _ arguments: [String],
        input: [UInt8] = [],
        environment: [String: String] = [:],
        directory: URL? = nil,
        program: URL? = nil,
        timeout: Duration = .seconds(180),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RunResult {
        let executable = try #require(
            program ?? executable, "ndeftool was not built next to the tests", sourceLocation: sourceLocation)
        let process = try ChildProcess(
            executable, arguments, environment: environment, directory: directory, input: .bytes(input))
        let result = await process.finish(timeout: timeout, sourceLocation: sourceLocation)
        return RunResult(status: result.status, output: result.output, error: result.error)
    }
}
