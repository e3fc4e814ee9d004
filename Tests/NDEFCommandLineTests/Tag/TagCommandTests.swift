import Foundation
import TestSupport
import Testing

/// The tag commands run as the built `ndeftool` against a simulated NTAG215 kept in a file
/// (`sim:ntag215?file=...`), so each run sees what the previous one left on the tag.
@Suite(.timeLimit(.minutes(5))) struct TagCommandTests {
    /// URI record "https://example.com" then Text record "Hello" (en), encoded by hand from
    /// NFC Forum NDEF 1.0 3.2 (91h: MB SR TNF 1; 51h: ME SR TNF 1), URI RTD 1.0 3.2.2 (04h:
    /// "https://") and Text RTD 1.0 3.2.1 (02h: UTF-8, language length 2).
    static let uriAndText = "91010c55046578616d706c652e636f6d" + "5101085402656e48656c6c6f"

    @Test func writeThenReadAsTextHexAndJSON() async throws {
        let tag = try SimulatedTagFile()
        let written = try await tag.run(["write", "uri", "https://example.com", "text", "Hello"])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.outputText.hasPrefix("Wrote tag 04:"))
        #expect(written.outputText.contains("  URI: https://example.com\n"))
        #expect(written.outputText.hasSuffix("28 of 492 bytes used\n"))

        let text = try await tag.run(["read"])
        #expect(text.status == 0, "\(text.error)")
        #expect(
            text.outputText == """
                NDEF message: 2 records, 28 bytes
                record 0: well-known (TNF 1), type "U", payload 12 bytes
                  URI: https://example.com
                record 1: well-known (TNF 1), type "T", payload 8 bytes
                  Text (en): "Hello"

                """)
        let hex = try await tag.run(["read", "--hex"])
        #expect(hex.outputText == Self.uriAndText + "\n")
        let raw = try await tag.run(["read", "--raw"])
        #expect(raw.output == TestSupport.hex(Self.uriAndText))

        let json = try await tag.run(["read", "--json"])
        #expect(json.status == 0)
        let records = try #require(SimulatedTagFile.object(json)["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect((records.first?["value"] as? [String: Any])?["uri"] as? String == "https://example.com")
        #expect((records.last?["value"] as? [String: Any])?["text"] as? String == "Hello")
    }

    @Test func readAnEmptyTag() async throws {
        let tag = try SimulatedTagFile()
        let text = try await tag.run(["read"])
        #expect(text.status == 0)
        #expect(text.outputText == "NDEF message: empty (the tag holds an empty NDEF message)\n")
        let json = try await tag.run(["read", "--json"])
        #expect(json.status == 0)
        #expect((try SimulatedTagFile.object(json)["records"] as? [Any])?.isEmpty == true)
        #expect(json.error.contains("empty NDEF message"))
        let raw = try await tag.run(["read", "--raw", "-q"])
        #expect(raw.status == 0)
        #expect(raw.output.isEmpty)
        #expect(raw.error.isEmpty)
    }

    @Test func readToAFile() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com", "text", "Hello"]).status == 0)
        let path = tag.folder.path("message.ndef")
        let result = try await tag.run(["read", "--raw", "-o", path])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == TestSupport.hex(Self.uriAndText))
    }

    @Test func infoJSONFields() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com", "text", "Hello"]).status == 0)
        let result = try await tag.run(["info", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let info = try SimulatedTagFile.object(result)
        // The chip as inspect --json gives it: one object.
        let chip = try #require(info["chip"] as? [String: Any])
        #expect(chip["name"] as? String == "NTAG215")
        #expect(chip["typeCode"] as? String == "NT2H1511")
        #expect(chip["identifiedBy"] as? String == "getVersion")
        // NTAG213/215/216 datasheet table 28: NTAG215 answers GET_VERSION 00 04 04 02 01 00 11 03.
        #expect(chip["getVersion"] as? String == "0004040201001103")
        #expect(chip["pages"] as? Int == 135)
        #expect(chip["userMemory"] as? Int == 504)
        #expect(info["status"] as? String == "readWrite")
        #expect(info["capacity"] as? Int == 492)
        #expect(info["used"] as? Int == 28)
        #expect(info["records"] as? Int == 2)
        #expect((info["uid"] as? String)?.count == 14)
        #expect(info["sak"] as? String == "00")
        #expect(info["atqa"] as? String == "0044")
        let signature = try #require(info["signature"] as? [String: Any])
        #expect((signature["hex"] as? String)?.count == 64)
        #expect(signature["status"] as? String == "allZero" && signature["verified"] as? Bool == false)
        #expect(info["nfcCounterState"] as? String == "disabled")
        let code = try #require(info["lockCode"] as? String)
        #expect(code.wholeMatch(of: /\d{3}-\d{3}/) != nil)
        #expect(code == (try await tag.lockCode()))
        let password = try #require(info["password"] as? [String: Any])
        #expect(password["protection"] as? String == "off")
        #expect(password["mechanism"] as? String == "password")
        let cc = try #require(info["capabilityContainer"] as? [String: Any])
        #expect(cc["bytes"] as? String == "e1103e00")
        let locks = try #require(info["locks"] as? [String: Any])
        #expect(locks["staticBytes"] as? String == "0000")
        #expect(locks["dynamicBytes"] as? String == "000000")
    }

    @Test func infoAsText() async throws {
        let tag = try SimulatedTagFile()
        let result = try await tag.run(["info"])
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.contains("chip: NTAG215 (NT2H1511), identified by GET_VERSION 00 04 04 02 01 00 11 03"))
        #expect(lines.contains("memory: 135 pages, 504 bytes of user memory"))
        #expect(lines.contains("NDEF: read/write, capacity 492 bytes; 0 of 492 bytes used (0 records)"))
        #expect(lines.contains("capability container: E1 10 3E 00 (page 3)"))
        #expect(lines.contains("NFC counter: off (NFC_CNT_EN 0)"))
        #expect(lines.contains { $0.hasPrefix("lock code: ") })
    }

    @Test func tooLongMessageWritesNothing() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let result = try await tag.run(["write", "text", String(repeating: "x", count: 600)])
        #expect(result.status == 73)
        #expect(result.error.contains("(tag-size-too-small)"))
        #expect(result.error.contains("492"))
        #expect(result.output.isEmpty)
        #expect(tag.contents() == before)
    }

    /// `--dry-run` lists exactly the page writes the write then sends (the early length-0 write
    /// of the length page included), counted by `-v` on the same factory NTAG215.
    @Test func dryRunListsTheWritesTheWriteSends() async throws {
        let tag = try SimulatedTagFile()
        let records = ["uri", "https://example.com", "text", "hello"]
        let dryRun = try await tag.run(["write"] + records + ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.error)")
        let planned = dryRun.outputText.split(separator: "\n").filter { $0.hasPrefix("  page ") }.count
        let write = try await tag.run(["write", "-v"] + records)
        #expect(write.status == 0, "\(write.error)")
        #expect(planned == 9)
        #expect(write.error.contains(" \(planned) WRITE"), "\(write.error)")
    }

    @Test func dryRunsWriteNothing() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let write = try await tag.run(["write", "text", "Hello", "--dry-run"])
        #expect(write.status == 0, "\(write.error)")
        #expect(write.outputText.contains("(--dry-run: nothing was written)"))
        // The plan of T2T 1.1 6.4.3: the length page with length 0 first, the final length last.
        #expect(write.outputText.contains("  page 4: 03 00 D1 01  (NDEF TLV length 0 first"))
        #expect(write.outputText.contains("  page 4: 03 0C D1 01  (NDEF TLV length 12 last"))
        let json = try await tag.run(["write", "text", "Hello", "--dry-run", "--json"])
        let plan = try #require(SimulatedTagFile.object(json)["plan"] as? [[String: Any]])
        #expect(plan.first?["data"] as? String == "0300d101")
        #expect(plan.last?["data"] as? String == "030cd101")
        for command in [["erase", "--dry-run"], ["format", "--dry-run", "--force"], ["lock", "--dry-run"]] {
            let result = try await tag.run(command)
            #expect(result.status == 0, "\(command): \(result.error)")
        }
        #expect(tag.contents() == before)
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")
    }

    @Test func eraseThenFormatABlankTag() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let erased = try await tag.run(["erase"])
        #expect(erased.status == 0, "\(erased.error)")
        #expect(erased.outputText.hasSuffix("NDEF: read/write, empty message; 0 of 492 bytes used\n"))
        #expect(try await tag.run(["read", "--json"]).outputText.contains("\"records\" : ["))

        // A wiped tag: no CC (T2T 1.1, 6.1: magic number E1h missing), nothing in the data area.
        try tag.setPage(3, to: "00 00 00 00")
        try tag.setPage(4, to: "00 00 00 00")
        for command in [["read"], ["write", "uri", "https://example.com"], ["erase"], ["lock", "--dry-run"]] {
            let result = try await tag.run(command)
            #expect(result.status == 76, "\(command)")
            #expect(result.error.contains("'ndeftool format'"), "\(command)")
        }
        let formatted = try await tag.run(["format"])
        #expect(formatted.status == 0, "\(formatted.error)")
        #expect(formatted.outputText.hasSuffix("NDEF: read/write, empty message; 0 of 492 bytes used\n"))
        let info = try SimulatedTagFile.object(try await tag.run(["info", "--json"]))
        let cc = try #require(info["capabilityContainer"] as? [String: Any])
        // NTAG213/215/216 8.5.6: the NTAG215 CC is E1 10 3E 00.
        #expect(cc["bytes"] as? String == "e1103e00")
        #expect(try await tag.run(["read"]).outputText.contains("empty NDEF message"))
    }

    @Test func formatRefusesATagWithAMessage() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let refused = try await tag.run(["format"])
        #expect(refused.status == 64)
        #expect(refused.error.contains("--force"))
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")
        let forced = try await tag.run(["format", "--force", "--json"])
        #expect(forced.status == 0)
        #expect(try SimulatedTagFile.object(forced)["status"] as? String == "readWrite")
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
    }

    @Test func writeFromHexJSONAndBinary() async throws {
        let tag = try SimulatedTagFile()
        let hexFile = try tag.folder.file("message.txt", text: "# URI and text\n" + Self.uriAndText + "\n")
        #expect(try await tag.run(["write", "--from", hexFile]).status == 0)
        #expect(try await tag.run(["read", "--hex"]).outputText == Self.uriAndText + "\n")

        let json = #"{"records":[{"tnf":1,"type":"T","value":{"text":"hi","language":"en"}}]}"#
        let fromJSON = try await tag.run(["write", "--from", "-"], input: Array(json.utf8))
        #expect(fromJSON.status == 0, "\(fromJSON.error)")
        #expect(try await tag.run(["read", "--hex"]).outputText == "d101055402656e6869\n")

        let binary = try tag.folder.file("message.ndef", hex("d1010c55046578616d706c652e636f6d"))
        #expect(try await tag.run(["write", "--from", binary]).status == 0)
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")

        let both = try await tag.run(["write", "uri", "https://example.com", "--from", binary])
        #expect(both.status == 64)
        let empty = try await tag.run(["write", "--from", "-"], input: Array(#"{"records":[]}"#.utf8))
        #expect(empty.status == 64)
        #expect(empty.error.contains("ndeftool erase"))
    }

    @Test func quietAndVerbose() async throws {
        let tag = try SimulatedTagFile()
        let quiet = try await tag.run(["write", "uri", "https://example.com", "-q"])
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty)
        let verbose = try await tag.run(["read", "-v"])
        #expect(verbose.status == 0)
        #expect(verbose.error.contains("  > 60  GET_VERSION\n"))
        #expect(verbose.error.contains("  < 8 bytes: 00 04 04 02 01 00 11 03\n"))
        #expect(verbose.error.contains(" tag commands: "))
        // Not a terminal: no "Hold a tag" or "Done" prompts.
        #expect(!verbose.error.contains("Hold a tag"))
        #expect(!verbose.error.contains("Done"))
    }
}
