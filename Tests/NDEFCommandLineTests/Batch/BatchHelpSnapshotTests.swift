import TestSupport
import Testing

@testable import NDEFCommandLine

/// The help of `ndeftool batch`, as printed (swift-argument-parser's layout, as the other
/// commands' snapshots in HelpSnapshotTests and TagHelpSnapshotTests), compared with
/// `Fixtures/cli/help/batch.txt`.
@Suite struct BatchHelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    @Test func batch() async {
        GoldenFile.expect(await help(["batch", "--help"]), matches: "cli/help/batch.txt")
        GoldenFile.expect(await help(["help", "batch"]), matches: "cli/help/batch.txt")
        GoldenFile.expect(
            await help(["batch", "uri", "https://x.test/{counter}", "-h"]), matches: "cli/help/batch.txt")
    }

    @Test("The built binary prints the same help")
    func binary() async throws {
        let result = try await BinaryRunner.run(["batch", "--help"], environment: ["COLUMNS": ""])
        #expect(result.status == 0)
        GoldenFile.expect(result.outputText, matches: "cli/help/batch.txt")
    }

    /// Every line but the usage line fits 80 columns; the examples are commands of the tool.
    @Test func helpLinesFitTheScreen() {
        let batch = helpScreen("batch")
        for line in batch.split(separator: "\n") where !line.hasPrefix("USAGE: ") {
            #expect(line.count <= 80, "\(line)")
        }
        let examples = batch.split(separator: "\n").filter { $0.hasPrefix("  ndeftool ") }
        #expect(examples.count == 9)
        #expect(examples.allSatisfy { $0.hasPrefix("  ndeftool batch ") })
    }
}
