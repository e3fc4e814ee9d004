import Foundation
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

    /// Runs tool `name` with `arguments` against the PN532 at `connstring`, at most
    /// `seconds` long; standard output and standard error together.
    static func run(_ name: String, _ arguments: [String] = [], connstring: String, seconds: Int = 30) throws -> Run {
        let tool = try Background(name, arguments, connstring: connstring)
        guard tool.waitForExit(milliseconds: seconds * 1000) else {
            tool.process.terminate()
            throw Failure(description: "\(name) did not finish within \(seconds) s:\n\(tool.output)")
        }
        return Run(status: tool.process.terminationStatus, output: tool.output, duration: tool.duration)
    }

    /// A tool running in the background, its output collected as it comes.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var data = Data()
        private let started = ContinuousClock.now
        private var ended: ContinuousClock.Instant?
        /// Whether the output reached its end.
        private var isDrained = false

        /// Starts tool `name` with `arguments` against the PN532 at `connstring`.
        init(_ name: String, _ arguments: [String], connstring: String) throws {
            guard let executable = LibnfcTools.path(of: name) else {
                throw Failure(
                    description: """
                        \(name) is not installed: install libnfc-bin and libnfc-examples \
                        (NDEFTOOL_REQUIRE_LIBNFC=1 requires them)
                        """)
            }
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["LIBNFC_DEVICE"] = connstring
            environment["LIBNFC_AUTO_SCAN"] = "false"
            environment["LIBNFC_INTRUSIVE_SCAN"] = "false"
            environment["LIBNFC_LOG_LEVEL"] = "1"
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.standardInput = FileHandle.nullDevice
            process.terminationHandler = { [self] _ in lock.withLock { ended = .now } }
            try process.run()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    lock.withLock {
                        data.append(chunk)
                        if chunk.isEmpty { isDrained = true }
                    }
                    if chunk.isEmpty { return }
                }
            }
        }

        deinit {
            if process.isRunning { process.terminate() }
        }

        /// What the tool printed so far.
        var output: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

        /// From start to exit (or to now).
        var duration: Duration { (lock.withLock { ended } ?? .now) - started }

        /// Waits until the output contains `text`; false after `milliseconds`.
        func waitFor(_ text: String, milliseconds: Int) -> Bool {
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
            while !output.contains(text) {
                guard ContinuousClock.now < deadline else { return false }
                usleep(2_000)
            }
            return true
        }

        /// Waits for the tool to exit and its output to be read to the end; false after
        /// `milliseconds`.
        func waitForExit(milliseconds: Int) -> Bool {
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
            while process.isRunning || !lock.withLock({ isDrained }) {
                guard ContinuousClock.now < deadline else { return false }
                usleep(1_000)
            }
            process.waitUntilExit()
            return true
        }
    }
}
