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

        /// Whether the run failed in a way a late answer explains: it exited with an error, or
        /// libnfc logged a timeout ("Timeout!", "Command timed out") or a failed read
        /// (nfc-mfultralight's "unable to read block").
        var failedLikeALateAnswer: Bool {
            let text = output.lowercased()
            return status != 0 || text.contains("timeout") || text.contains("timed out")
                || text.contains("unable to read")
        }

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
    ///
    /// libnfc's `pn532_uart` driver gives the PN532 a fixed time to answer each frame (hundreds
    /// of milliseconds, made for a chip); the served PN532 answers every frame, but on a busy
    /// machine its thread may be scheduled later than that. The tools the tests run only read,
    /// so a run that libnfc ended with a timeout is run again, three runs at most: the verdict
    /// is about what the tool reads, never about how soon the machine scheduled the simulator.
    static func run(
        _ name: String, _ arguments: [String] = [], connstring: String, timeout: Duration = .seconds(120)
    ) async throws -> Run {
        var run = try await Background(name, arguments, connstring: connstring).finish(timeout: timeout)
        for _ in 1..<3 where run.failedLikeALateAnswer {
            print("\(name) failed as a late answer makes it fail; run again:\n\(run.output)")
            run = try await Background(name, arguments, connstring: connstring).finish(timeout: timeout)
        }
        return run
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

        /// Waits until the output contains `text`, at most `timeout` (or until the tool ended);
        /// whether it did.
        func waitFor(_ text: String, within timeout: Duration = .seconds(60)) async -> Bool {
            let process = self.process
            _ = await process.waitForOutput(within: timeout) { output, _ in
                output.contains(text) || !process.isRunning
            }
            return process.outputText().contains(text)
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
