import TestSupport
import Testing

@testable import NDEFCommandLine

/// The help of the tag commands, as printed (swift-argument-parser's layout, the shared tag
/// options under their own heading), compared with `Fixtures/cli/help/<command>.txt`.
@Suite struct TagHelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    static let commands = ["info", "read", "write", "lock", "format", "erase"]

    @Test(arguments: commands)
    func helpOfEachCommand(name: String) async {
        GoldenFile.expect(await help([name, "--help"]), matches: "cli/help/\(name).txt")
        GoldenFile.expect(await help(["help", name]), matches: "cli/help/\(name).txt")
    }

    /// Every line but the usage line fits 80 columns.
    @Test func helpLinesFitTheScreen() {
        for name in Self.commands {
            for line in helpScreen(name).split(separator: "\n") where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "\(name): \(line)")
            }
        }
    }
}
