import Foundation
import TestSupport
import Testing

/// `ndeftool dump` against a simulated NTAG215: each dump format read back by `ndeftool inspect`
/// and by the simulator (`sim:ntag215?file=...`).
@Suite(.timeLimit(.minutes(5))) struct DumpCommandTests {
    /// Each format, chosen by the extension; `inspect` finds the message written, and the GET_VERSION
    /// answer of an NTAG215 (NTAG213/215/216 table 28) where the format keeps it.
    @Test(arguments: ["tag.nfc", "tag.bin", "tag.json", "tag.txt", "tag.mfd"])
    func dumpThenInspect(file: String) async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com", "text", "Hello"]).status == 0)
        let path = tag.folder.path(file)
        let dumped = try await tag.run(["dump", "-o", path])
        #expect(dumped.status == 0, "\(dumped.error)")
        #expect(dumped.outputText.hasPrefix("Saved tag 04:"))
        #expect(dumped.outputText.contains("(NTAG215): 135 pages to \(path)"))
        let inspected = try await BinaryRunner.run(["inspect", path])
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(inspected.outputText.contains("  URI: https://example.com\n"))
        #expect(inspected.outputText.contains("  Text (en): \"Hello\"\n"))
        #expect(inspected.outputText.contains("NTAG215"))
        // One ATQA order everywhere a person reads it: info's, inspect's, nfc-list's (00 44).
        let info = try await tag.run(["info"])
        #expect(info.outputText.contains("(ATQA 00 44, SAK 00)"), "\(info.outputText)")
        if file == "tag.nfc" {
            #expect(inspected.outputText.contains("  ATQA 00 44, SAK 00"), "\(inspected.outputText)")
        }
        if file == "tag.nfc" {
            // Flipper files since version 3 keep it most significant byte first.
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\nATQA: 00 44\n"))
        }
    }

    @Test("--format takes inspect's names too (proxmark-binary for proxmark-bin)")
    func formatNamesOfInspect() async throws {
        let tag = try SimulatedTagFile()
        let path = tag.folder.path("dump.data")
        #expect(try await tag.run(["dump", "-o", path, "--format", "proxmark-binary"]).status == 0)
        let inspected = try await BinaryRunner.run(["inspect", path, "--format", "proxmark-binary"])
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(inspected.outputText.contains("proxmark3 binary dump"))
    }

    @Test("inspect --format takes dump's names too (proxmark-bin for proxmark-binary)")
    func inspectTakesTheNamesOfDump() async throws {
        let tag = try SimulatedTagFile()
        let path = tag.folder.path("dump.data")
        #expect(try await tag.run(["dump", "-o", path, "--format", "proxmark-bin"]).status == 0)
        let inspected = await runInProcess(["inspect", path, "--format", "proxmark-bin"])
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(inspected.outputText.hasPrefix("dump: proxmark3 binary dump, 135 pages"))
        #expect(await runInProcess(["inspect", path, "--format", "proxmark-bim"]).status == 64)
    }

    @Test("dump -o - --json is a usage error before any reader is opened: the dump fills standard output")
    func jsonWithStandardOutput() async {
        // pcscd is not there in process (TestIO): a reader opened would end with 69.
        let result = await runInProcess(["dump", "-o", "-", "--json", "--reader", "pcsc:0", "--wait", "0"])
        #expect(result.status == 64)
        // No dump bytes: only the JSON failure that --json asks for.
        #expect(result.outputText.hasPrefix(#"{"error":{"code":"usage","exitStatus":64,"#), "\(result.outputText)")
        #expect(
            result.error.hasPrefix(
                "Error: With -o - the dump itself goes to standard output, so --json has nowhere to go: give a file "
                    + "with -o, or leave out --json\n"))
    }

    @Test func aFlipperDumpIsASimulatedTag() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "text", "Round trip"]).status == 0)
        let path = tag.folder.path("copy.nfc")
        #expect(try await tag.run(["dump", "-o", path]).status == 0)
        let read = try await BinaryRunner.run(
            ["read", "--reader", "sim:ntag215?file=\(path)", "--wait", "0"], environment: ["NDEFTOOL_READER": ""])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.contains("  Text (en): \"Round trip\"\n"))
    }

    @Test func hexToStandardOutputAndJSON() async throws {
        let tag = try SimulatedTagFile()
        let text = try await tag.run(["dump", "-o", "-"])
        #expect(text.status == 0)
        // Page 3 of an NTAG215 as delivered: the CC E1 10 3E 00 (NTAG213/215/216 8.5.6).
        #expect(text.outputText.contains("\n03: E1 10 3E 00\n"))
        let path = tag.folder.path("dump.any")
        let json = try SimulatedTagFile.object(
            try await tag.run(["dump", "-o", path, "--format", "proxmark-json", "--json"]))
        #expect(json["pages"] as? Int == 135)
        #expect(json["format"] as? String == "proxmark-json")
        #expect((json["chip"] as? [String: Any])?["name"] as? String == "NTAG215")
    }

    @Test func usageErrors() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["dump"]).status == 64)
        #expect(try await tag.run(["dump", "-o", tag.folder.path("tag.xyz")]).status == 64)
        #expect(try await tag.run(["dump", "-o", "-", "--format", "proxmark-bin"]).status == 64)
        #expect(try await tag.run(["dump", "-o", "-", "--format", "nope"]).status == 64)
        #expect(try await tag.run(["dump", "-o", tag.folder.path("missing/tag.nfc")]).status == 74)
    }

    @Test func type4IsNotSupportedYet() async throws {
        let tag = try SimulatedType4TagFile()
        let result = try await tag.run(["dump", "-o", tag.folder.path("t4.nfc")])
        #expect(result.status == 69)
        #expect(result.error.contains("dumps of tags other than Type 2 are not supported yet"))
    }
}
