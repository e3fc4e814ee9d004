import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `info` and `inspect` end with the page map; on a terminal it is in colour (lock state yellow,
/// the message's pages cyan, secrets dim) unless NO_COLOR is set; `--json` has no map.
@Suite struct PageMapCommandTests {
    @Test("info draws the page map, in colour on a terminal and plain with NO_COLOR or to a pipe")
    func infoPageMap() async throws {
        let folder = try TemporaryDirectory("cli")
        let tag = folder.path("tag.nfc")
        try FileManager.default.copyItem(atPath: PackagePaths.fixture("examples/tag.nfc"), toPath: tag)
        let arguments = ["info", "--reader", "sim:ntag215?file=\(tag)"]
        let plain = await runInProcess(arguments)
        #expect(plain.status == 0)
        #expect(plain.outputText.contains("\npage map (secrets shown as **):\n"))
        #expect(plain.outputText.contains("        0   04 51 7C A1  .Q|.   UID            locked\n"))
        #expect(!plain.outputText.contains("\u{1B}["))

        let terminal = TerminalTestIO()
        #expect(await NDEFCommandLine.run(arguments, io: terminal) == .success)
        #expect(terminal.outputText.contains("UID            \u{1B}[33mlocked\u{1B}[0m\n"))
        #expect(terminal.outputText.contains("\u{1B}[36mNDEF TLV      \u{1B}[0m"))
        let noColor = TerminalTestIO(variables: ["NO_COLOR": "1"])
        #expect(await NDEFCommandLine.run(arguments, io: noColor) == .success)
        #expect(noColor.outputText == plain.outputText)

        let json = await runInProcess(arguments + ["--json"])
        #expect(!json.outputText.contains("page map") && !json.outputText.contains("pageMap"))
    }
}
