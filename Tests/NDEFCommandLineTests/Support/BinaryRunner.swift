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
    /// `nfc_init` in this process sets it), with `environment` on top. Without `XDG_STATE_HOME`
    /// in `environment`, the run gets a state folder of its own, removed afterwards: nothing a
    /// command keeps (records of password changes) reaches the user's folders or another test.
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
        var environment = environment
        let state = environment["XDG_STATE_HOME"] == nil ? try TemporaryDirectory("state") : nil
        if let state { environment["XDG_STATE_HOME"] = state.url.path }
        let process = try ChildProcess(
            executable, arguments, environment: environment, directory: directory, input: .bytes(input))
        let result = await process.finish(timeout: timeout, sourceLocation: sourceLocation)
        withExtendedLifetime(state) {}
        return RunResult(status: result.status, output: result.output, error: result.error)
    }
}
