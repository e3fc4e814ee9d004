import Foundation
import TestSupport
import Testing

/// A simulated Type 4 tag kept in a temporary state file (`sim:type4?file=...`), so that its
/// state carries from one run of the built `ndeftool` to the next.
final class SimulatedType4TagFile {
    let folder: TemporaryDirectory
    /// The Type 4 options of the URL (`&version=3&mlc=13`), given on every run.
    let options: String

    init(_ options: String = "") throws {
        folder = try TemporaryDirectory("cli")
        self.options = options
    }

    /// The tag file (the simulator's Type 4 state text).
    var path: String { folder.path("t4.txt") }

    /// The reader URL, with the tag's options and extra `&key=value` faults.
    func reader(_ faults: String = "") -> String {
        "sim:type4?file=\(path)" + options + faults
    }

    /// Runs `ndeftool` with `arguments`, then `--reader` and `--wait 0`.
    func run(_ arguments: [String], faults: String = "", input: [UInt8] = []) async throws -> RunResult {
        try await BinaryRunner.run(
            arguments + ["--reader", reader(faults), "--wait", "0"], input: input,
            environment: ["NDEFTOOL_READER": ""])
    }

    /// The tag file's text (empty when it does not exist yet).
    func contents() -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
