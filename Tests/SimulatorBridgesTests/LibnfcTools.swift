import Foundation
import TestSupport
import Testing

/// libnfc's command-line tools (Debian packages libnfc-bin and libnfc-examples), run as
/// subprocesses against a simulated PN532 with `LIBNFC_DEVICE=pn532_uart:<link>`.
///
/// With `NDEFTOOL_REQUIRE_LIBNFC=1` (Scripts/test sets it and installs the packages) missing
/// tools fail the tests; without it the tests are skipped and say why.
enum LibnfcTools {
    /// The tools the tests run.
    static let names = ["nfc-list", "nfc-mfultralight"]

    /// Whether the environment demands the tools.
    static let isRequired = ProcessInfo.processInfo.environment["NDEFTOOL_REQUIRE_LIBNFC"] == "1"

    /// The tools that are not on PATH.
    static let missing: [String] = names.filter { path(of: $0) == nil }

    /// Whether the tests run: the tools are there, or they are required (and then fail).
    static let isEnabled = missing.isEmpty || isRequired

    /// Why the tests are skipped, said loudly in the test output.
    static let skipNote: Comment = """
        SKIPPED: libnfc's tools (\(missing.joined(separator: ", "))) are not installed \
        (apt-get install libnfc-bin libnfc-examples; Scripts/test installs them and sets \
        NDEFTOOL_REQUIRE_LIBNFC=1, which turns this skip into a failure).
        """

    /// The full path of executable `name` on PATH.
    static func path(of name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What a run printed and how long it took.
    struct Run {
        var status: Int32
        var output: String
        var duration: Duration

        /// The output with runs of spaces and tabs made one space, for matching libnfc's
        /// hex columns (`04  51  7c`).
        var squeezed: String {
            output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            }.joined(separator: "\n")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs tool `name` with `arguments` against the PN532 at `connstring`, at most `timeout`
    /// long (then it is killed and the test fails); standard output and standard error together.
    static func run(
        _ name: String, _ arguments: [String] = [], connstring: String, timeout: Duration = .seconds(120)
    ) async throws -> Run {
        let tool = try Background(name, arguments, connstring: connstring)
        return await tool.finish(timeout: timeout)
    }

    /// A tool running in the background (a ``TestSupport/ChildProcess``), its output collected as
    /// it comes.
    final class Background: Sendable {
        let process: ChildProcess
        private let started = ContinuousClock.now

        /// Starts tool `name` with `arguments` against the PN532 at `connstring`.
        init(_ name: String, _ arguments: [String], connstring: String) throws {
            guard let executable = LibnfcTools.path(of: name) else {
                throw Failure(
                    description: """
                        \(name) is not installed: install libnfc-bin and libnfc-examples \
                        (NDEFTOOL_REQUIRE_LIBNFC=1 requires them)
                        """)
            }
            // Standard error in the same file as standard output, as a terminal shows them.
            process = try ChildProcess(
                path: "/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", executable] + arguments,
                environment: [
                    "LIBNFC_DEVICE": connstring, "LIBNFC_AUTO_SCAN": "false", "LIBNFC_INTRUSIVE_SCAN": "false",
                    "LIBNFC_LOG_LEVEL": "1",
                ])
        }

        /// What the tool printed so far.
        var output: String { process.outputText() }

        /// Waits until the output contains `text`, at most `timeout`; whether it did.
        func waitFor(_ text: String, within timeout: Duration = .seconds(60)) async -> Bool {
            await process.waitForOutput(within: timeout) { output, _ in output.contains(text) }
        }

        /// Waits for the tool to exit, at most `timeout` (then it is killed and the test fails);
        /// its status, everything it printed and the time from start to exit.
        func finish(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async -> Run {
            let result = await process.finish(timeout: timeout, sourceLocation: sourceLocation)
            let duration = ContinuousClock.now - started
            return Run(status: result.shellStatus, output: result.outputText + result.error, duration: duration)
        }
    }
}
