import Foundation
import TestSupport
import Testing

/// A simulated NTAG215 kept in a temporary tag file, so that its state carries from one run of
/// the built `ndeftool` to the next, as a real tag's does.
final class SimulatedTagFile {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory("cli")
    }

    /// The tag file (a Flipper .nfc dump, written by the simulated reader).
    var path: String { folder.path("tag.nfc") }

    /// The reader URL, with extra `&key=value` options (faults) when given.
    func reader(_ options: String = "") -> String {
        "sim:ntag215?file=\(path)" + options
    }

    /// Runs `ndeftool` with `arguments`, then `--reader` and `--wait 0` (the tag is there at
    /// once, or never); the environment has no NDEFTOOL_READER.
    func run(_ arguments: [String], faults: String = "", input: [UInt8] = []) async throws -> RunResult {
        try await BinaryRunner.run(
            arguments + ["--reader", reader(faults), "--wait", "0"], input: input,
            environment: ["NDEFTOOL_READER": "", "XDG_STATE_HOME": folder.path("state")])
    }

    /// The tag file's bytes (empty when it does not exist yet).
    func contents() -> Data {
        (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
    }

    /// Replaces page `page` in the tag file with `bytes` (hex pairs, as the file writes them).
    func setPage(_ page: Int, to bytes: String) throws {
        let text = String(decoding: contents(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("Page \(page): ") ? "Page \(page): \(bytes)" : String(line)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The JSON object `result` printed.
    static func object(_ result: RunResult) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(result.output))
        return try #require(value as? [String: Any], "not a JSON object: \(result.outputText)")
    }

    /// The lock code `lock --dry-run --json` gives for the tag as it is now.
    func lockCode() async throws -> String {
        let result = try await run(["lock", "--dry-run", "--json"])
        #expect(result.status == 0, "\(result.error)")
        return try #require(Self.object(result)["code"] as? String)
    }
}
