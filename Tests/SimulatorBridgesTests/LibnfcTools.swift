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
        guard let executable = path(of: name) else {
            throw Failure(
                description: """
                    \(name) is not installed: install libnfc-bin and libnfc-examples \
                    (NDEFTOOL_REQUIRE_LIBNFC=1 requires them)
                    """)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = connstring
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_INTRUSIVE_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        let collected = Collector(output.fileHandleForReading)
        let deadline = started.advanced(by: .seconds(seconds))
        while process.isRunning, ContinuousClock.now < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(description: "\(name) did not finish within \(seconds) s:\n\(collected.text())")
        }
        let duration = ContinuousClock.now - started
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: collected.text(), duration: duration)
    }

    /// Reads a pipe to its end on a thread of its own, so that a chatty tool never blocks.
    private final class Collector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        /// Everything read, once the pipe closed.
        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
