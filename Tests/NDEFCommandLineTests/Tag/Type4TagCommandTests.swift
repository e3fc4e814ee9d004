import Foundation
import TestSupport
import Testing

/// The tag commands on simulated NFC Forum Type 4 tags (`sim:type4`), run as the built
/// `ndeftool`: NDEF procedures of Type 4 Tag 3.0, 5.5.
@Suite(.timeLimit(.minutes(5))) struct Type4TagCommandTests {
    /// URI "https://example.com" then Text "Hello" (en), as in ``TagCommandTests/uriAndText``.
    static let uriAndText = TagCommandTests.uriAndText

    /// Mapping versions 2.0 (short NLEN) and 3.0 (Extended NDEF File Control TLV, 4-byte ENLEN,
    /// T4T 3.0 5.1.2), and small MLe and MLc that split the reads and updates (5.1).
    @Test(arguments: ["", "&version=3", "&mle=15&mlc=13", "&version=1"])
    func writeThenReadAndInfo(options: String) async throws {
        let tag = try SimulatedType4TagFile(options)
        let written = try await tag.run(["write", "uri", "https://example.com", "text", "Hello"])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.outputText.hasPrefix("Wrote tag 04:3C:6A:92:2F:61:80 (NFC Forum Type 4 Tag), verified:\n"))
        let hex = try await tag.run(["read", "--hex"])
        #expect(hex.status == 0, "\(hex.error)")
        #expect(hex.outputText == Self.uriAndText + "\n")
        #expect(try await tag.run(["read", "--raw"]).output == TestSupport.hex(Self.uriAndText))
        let json = try await tag.run(["read", "--json"])
        let records = try #require(SimulatedTagFile.object(json)["records"] as? [[String: Any]])
        #expect((records.first?["value"] as? [String: Any])?["uri"] as? String == "https://example.com")
        let text = try await tag.run(["read"])
        #expect(text.outputText.contains("  Text (en): \"Hello\"\n"))

        let info = try SimulatedTagFile.object(try await tag.run(["info", "--json"]))
        #expect(info["tagType"] as? String == "type4")
        #expect((info["chip"] as? [String: Any])?["name"] as? String == "NFC Forum Type 4 Tag")
        #expect(info["used"] as? Int == 28)
        #expect(info["records"] as? Int == 2)
        #expect(info["status"] as? String == "readWrite")
        let facts = try #require(info["type4"] as? [String: Any])
        let version = options.contains("version=3") ? "3.0" : options.contains("version=1") ? "1.0" : "2.0"
        #expect(facts["mappingVersion"] as? String == version)
        #expect(facts["writeAccess"] as? String == "00")
        #expect((info["lockCode"] as? String)?.count == 7)
    }

    @Test func infoAsText() async throws {
        let tag = try SimulatedType4TagFile("&mle=64&mlc=32")
        let result = try await tag.run(["info"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText.contains("chip: NFC Forum Type 4 Tag (ISO-DEP), NDEF mapping version 2.0\n"))
        #expect(result.outputText.contains("NDEF: read/write, capacity 254 bytes; 0 of 254 bytes used (0 records)\n"))
        #expect(result.outputText.contains("capability container (file E103): version 2.0, MLe 64, MLc 32\n"))
        #expect(result.outputText.contains("  NDEF file E104, 256 bytes, read granted (00), write granted (00)\n"))
    }

    /// T4T 3.0, 5.5.7: NLEN 0 first, the message in pieces of MLc (13 here), NLEN last; the
    /// APDUs are UPDATE BINARY (ISO/IEC 7816-4: CLA 00, INS D6, P1 P2 the offset, Lc, data).
    @Test func dryRunShowsTheAPDUPlan() async throws {
        let tag = try SimulatedType4TagFile("&mlc=13")
        #expect(try await tag.run(["write", "uri", "https://old.example"]).status == 0)
        let before = tag.contents()
        let plan = try await tag.run(["write", "uri", "https://example.com", "text", "Hello", "--dry-run"])
        #expect(plan.status == 0, "\(plan.error)")
        #expect(plan.outputText.contains(": 5 UPDATE BINARY commands (--dry-run: nothing was written)\n"))
        #expect(plan.outputText.contains("    APDU 00 D6 00 00 02 00 00\n"))
        #expect(plan.outputText.contains("    APDU 00 D6 00 02 0D 91 01 0C 55 04 65 78 61 6D 70 6C 65 2E\n"))
        #expect(plan.outputText.contains("    APDU 00 D6 00 00 02 00 1C\n"))
        #expect(tag.contents() == before)
        let json = try SimulatedTagFile.object(try await tag.run(["write", "text", "Hi", "--dry-run", "--json"]))
        let steps = try #require(json["plan"] as? [[String: Any]])
        #expect(steps.first?["file"] as? String == "E104")
        #expect(steps.first?["offset"] as? Int == 0)
        #expect(steps.first?["page"] == nil)
        // One UPDATE BINARY (11 bytes fit MLc 13): NLEN 0009, then D1 01 05 "T" 02 "en" "Hi".
        #expect(steps.first?["apdu"] as? String == "00d600000b0009d101055402656e4869")
    }

    @Test func messageTooLargeForTheFile() async throws {
        let tag = try SimulatedType4TagFile("&ndef-size=20")
        let result = try await tag.run(["write", "uri", "https://example.com/a-longer-address"])
        #expect(result.status == 73, "\(result.error)")
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
    }

    /// The tag leaves at the second UPDATE BINARY, after NLEN 0: the tag reads empty, and
    /// `--resume` completes the write.
    @Test func interruptedWriteThenResume() async throws {
        let tag = try SimulatedType4TagFile("&mlc=13")
        #expect(try await tag.run(["write", "uri", "https://old.example"]).status == 0)
        let message = ["uri", "https://example.com/a-longer-address", "text", "Hello there"]
        let torn = try await tag.run(["write"] + message, faults: "&remove-after=7")
        #expect(torn.status == 80)
        #expect(torn.error.contains("The tag may be half-written."))
        #expect(torn.error.contains("--wait 0 --resume"))
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
        let resumed = try await tag.run(["write"] + message + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(resumed.outputText.hasPrefix("Completed the write to tag "))
        #expect(try await tag.run(["read"]).outputText.contains("  Text (en): \"Hello there\"\n"))
    }

    @Test func readOnlyFileRefusesWrites() async throws {
        let tag = try SimulatedType4TagFile("&write-access=FF")
        let result = try await tag.run(["write", "text", "Hi"])
        #expect(result.status == 77)
        #expect(result.error.contains("(tag-not-writable)"))
        #expect(try await tag.run(["erase"]).status == 77)
        let info = try await tag.run(["info"])
        #expect(info.outputText.contains("NDEF: read-only"))
        #expect(info.outputText.contains("lock code: none: the tag is read-only"))
    }

    /// T4T 3.0, 5.5.8: the lock writes FFh at the write access byte of the CC (offset 0Eh).
    @Test func lockWhereTheCCIsWritable() async throws {
        let tag = try SimulatedType4TagFile("&cc-writable=1")
        #expect(try await tag.run(["write", "text", "Hi"]).status == 0)
        let dry = try await tag.run(["lock", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.outputText.contains("Lock plan: 1 UPDATE BINARY command, irreversible:\n"))
        #expect(dry.outputText.contains("  file E103 offset 14: FF  ("))
        #expect(dry.outputText.contains("    APDU 00 D6 00 0E 01 FF\n"))
        let code = try #require(
            SimulatedTagFile.object(try await tag.run(["lock", "--dry-run", "--json"]))["code"] as? String)
        #expect(try await tag.run(["lock"]).status == 79)
        #expect(try await tag.run(["lock", "--confirm", code == "000-000" ? "000-001" : "000-000"]).status == 79)
        // The code stands for the content: after a new write the old one locks nothing.
        #expect(try await tag.run(["write", "text", "Other"]).status == 0)
        #expect(try await tag.run(["lock", "--confirm", code]).status == 79)
        let fresh = try #require(
            SimulatedTagFile.object(try await tag.run(["lock", "--dry-run", "--json"]))["code"] as? String)
        let locked = try await tag.run(["lock", "--confirm", fresh])
        #expect(locked.status == 0, "\(locked.error)")
        #expect(locked.outputText.hasSuffix("Locked: the tag is read-only for good.\n"))
        // The CC file's write access byte (offset 0Eh) is FFh now.
        #expect(tag.contents().contains("cc 00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 FF\n"))
        #expect(try await tag.run(["write", "text", "Again"]).status == 77)
        #expect(try await tag.run(["read"]).outputText.contains("Text (en): \"Other\""))
    }

    @Test func lockRefusedWhereTheCCIsNotWritable() async throws {
        let tag = try SimulatedType4TagFile()
        #expect(try await tag.run(["write", "text", "Hi"]).status == 0)
        let code = try #require(
            SimulatedTagFile.object(try await tag.run(["lock", "--dry-run", "--json"]))["code"] as? String)
        let result = try await tag.run(["lock", "--confirm", code])
        #expect(result.status == 77)
        #expect(result.error.contains("the NDEF file stays writable"))
        #expect(try await tag.run(["write", "text", "Still"]).status == 0)
    }

    @Test func writeThenLock() async throws {
        let tag = try SimulatedType4TagFile("&cc-writable=1")
        let refused = try await tag.run(["write", "text", "Hi", "--lock"])
        #expect(refused.status == 79)
        #expect(refused.error.contains("the message was written and verified, but the tag was not locked: "))
        let code = try #require(
            SimulatedTagFile.object(try await tag.run(["lock", "--dry-run", "--json"]))["code"] as? String)
        let result = try await tag.run(["write", "text", "Hi", "--lock", "--confirm", code])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText.contains("Locked: the tag is read-only for good.\n"))
    }

    /// Erase and format leave NLEN 0 (T4T 3.0, 5.2: INITIALIZED); format keeps a message
    /// unless --force.
    @Test func eraseAndFormat() async throws {
        let tag = try SimulatedType4TagFile()
        #expect(try await tag.run(["write", "text", "Hi"]).status == 0)
        let refused = try await tag.run(["format"])
        #expect(refused.status == 64)
        #expect(refused.error.contains("holds a 9-byte message"))
        let plan = try await tag.run(["format", "--force", "--dry-run"])
        #expect(plan.status == 0)
        #expect(plan.outputText.contains("    APDU 00 D6 00 00 02 00 00\n"))
        let formatted = try await tag.run(["format", "--force"])
        #expect(formatted.status == 0, "\(formatted.error)")
        #expect(
            formatted.outputText.hasPrefix("Formatted tag 04:3C:6A:92:2F:61:80 (NFC Forum Type 4 Tag), verified.\n"))
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
        #expect(try await tag.run(["write", "text", "Hi"]).status == 0)
        let erased = try await tag.run(["erase", "--json"])
        #expect(erased.status == 0)
        #expect(try SimulatedTagFile.object(erased)["capacity"] as? Int == 254)
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
        let again = try await tag.run(["erase", "--dry-run"])
        #expect(again.outputText.contains(": 0 UPDATE BINARY commands"))
    }
}
