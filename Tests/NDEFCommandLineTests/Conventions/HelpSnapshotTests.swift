import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The help screen `Fixtures/cli/help/<name>.txt`: what a help command must print. A missing
/// file fails the test that asked and gives "".
func helpScreen(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let path = PackagePaths.fixture("cli/help/\(name).txt")
    guard let data = FileManager.default.contents(atPath: path) else {
        Issue.record("no help screen \(path)", sourceLocation: sourceLocation)
        return ""
    }
    return String(decoding: data, as: UTF8.self)
}

/// The help of ndeftool itself, as printed (swift-argument-parser's layout), compared with the
/// screens in `Fixtures/cli/help/` (`NDEFTOOL_UPDATE_GOLDEN=1` writes them anew).
@Suite struct HelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    /// The top-level help (`Fixtures/cli/help/top-level.txt`), for the tests of the built binary.
    static var topLevel: String { helpScreen("top-level") }

    /// The help of encode (`Fixtures/cli/help/encode.txt`), for the tests of the built binary.
    static var encode: String { helpScreen("encode") }

    @Test func topLevel() async {
        GoldenFile.expect(await help(["--help"]), matches: "cli/help/top-level.txt")
        GoldenFile.expect(await help(["-h"]), matches: "cli/help/top-level.txt")
        GoldenFile.expect(await help(["help"]), matches: "cli/help/top-level.txt")
        GoldenFile.expect(await help([]), matches: "cli/help/top-level.txt")
    }

    @Test func encode() async {
        GoldenFile.expect(await help(["encode", "--help"]), matches: "cli/help/encode.txt")
        GoldenFile.expect(await help(["help", "encode"]), matches: "cli/help/encode.txt")
        GoldenFile.expect(await help(["encode", "text", "hi", "-h"]), matches: "cli/help/encode.txt")
    }

    @Test func decode() async {
        GoldenFile.expect(await help(["decode", "-h"]), matches: "cli/help/decode.txt")
        GoldenFile.expect(await help(["help", "decode"]), matches: "cli/help/decode.txt")
    }

    @Test func inspect() async {
        GoldenFile.expect(await help(["inspect", "--help"]), matches: "cli/help/inspect.txt")
        GoldenFile.expect(await help(["help", "inspect"]), matches: "cli/help/inspect.txt")
    }

    @Test func version() async {
        #expect(await help(["--version"]) == "0.1.0\n")
        #expect(await help(["encode", "--version"]) == "0.1.0\n")
        #expect(NDEFToolVersion.current == "0.1.0")
    }

    /// Every line but the usage line fits 80 columns.
    @Test func helpLinesFitTheScreen() {
        for name in ["top-level", "decode", "inspect"] {
            for line in helpScreen(name).split(separator: "\n") where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "\(name): \(line)")
            }
        }
    }
}
