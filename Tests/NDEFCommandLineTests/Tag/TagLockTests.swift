import Foundation
import Testing

/// `ndeftool lock` and `write --lock` against a simulated NTAG215: irreversible, so refused
/// without the code of the tag as it is (NFC Forum Type 2 Tag 1.1, 6.4.4 for the lock itself).
@Suite(.timeLimit(.minutes(5))) struct TagLockTests {
    @Test func refusedWithoutConfirmationWhenNotInteractive() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let code = try await tag.lockCode()
        let result = try await tag.run(["lock"])
        #expect(result.status == 79)
        #expect(result.outputText.contains("Lock code: \(code)\n"))
        #expect(result.outputText.contains("  URI: https://example.com\n"))
        #expect(result.error.contains("no terminal to ask on"))
        #expect(result.error.contains("ndeftool lock --reader '\(tag.reader())' --wait 0 --confirm \(code)"))
        #expect(tag.contents() == before)
    }

    @Test func refusedWithAWrongCode() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let code = try await tag.lockCode()
        let wrong = code == "000-000" ? "000-001" : "000-000"
        let result = try await tag.run(["lock", "--confirm", wrong])
        #expect(result.status == 79)
        #expect(result.error.contains("(confirmation-mismatch)"))
        #expect(tag.contents() == before)
        let malformed = try await tag.run(["lock", "--confirm", "12345"])
        #expect(malformed.status == 64)
        #expect(tag.contents() == before)
    }

    @Test func aCodeForOtherContentLocksNothing() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        #expect(try await tag.run(["write", "uri", "https://example.org"]).status == 0)
        let before = tag.contents()
        #expect(try await tag.run(["lock", "--confirm", code]).status == 79)
        #expect(tag.contents() == before)
    }

    @Test func lockWithTheDryRunCodeThenWritesAreRefused() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let dryRun = try await tag.run(["lock", "--dry-run", "--json"])
        let plan = try #require(SimulatedTagFile.object(dryRun)["plan"] as? [[String: Any]])
        // NTAG215: CC write access Fh first (page 3), then the dynamic lock page 130 and page 2.
        #expect(plan.map { $0["page"] as? Int } == [3, 130, 2])
        #expect(plan.first?["data"] as? String == "e1103e0f")
        let code = try await tag.lockCode()
        let locked = try await tag.run(["lock", "--confirm", code, "--json"])
        #expect(locked.status == 0, "\(locked.error)")
        #expect(try SimulatedTagFile.object(locked)["locked"] as? Bool == true)

        let write = try await tag.run(["write", "uri", "https://example.org"])
        #expect(write.status == 77)
        #expect(write.error.contains("(tag-not-writable)"))
        #expect(try await tag.run(["erase"]).status == 77)
        #expect(try await tag.run(["format", "--force"]).status == 77)
        #expect(try await tag.run(["lock", "--dry-run"]).status == 77)
        let info = try SimulatedTagFile.object(try await tag.run(["info", "--json"]))
        #expect(info["status"] as? String == "readOnly")
        #expect(info["lockCode"] is NSNull)
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")
    }

    /// The tag leaves after the CC write (the 8th command: GET_VERSION, four reads for the
    /// confirmation check, CC, dynamic lock page): read-only by its CC, lock bits incomplete.
    @Test func interruptedLockIsCompletedWithTheNewCode() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        let interrupted = try await tag.run(["lock", "--confirm", code], faults: "&remove-after=8")
        #expect(interrupted.status == 80)
        #expect(interrupted.error.contains("ndeftool lock --reader '\(tag.reader())' --wait 0\n"))
        let info = try SimulatedTagFile.object(try await tag.run(["info", "--json"]))
        #expect(info["status"] as? String == "readOnly")
        let rest = try #require(info["lockCode"] as? String)
        #expect(rest != code)
        #expect(try await tag.run(["lock", "--confirm", rest]).status == 0)
        #expect(try SimulatedTagFile.object(try await tag.run(["info", "--json"]))["lockCode"] is NSNull)
    }

    /// The tag acknowledges the CC write but does not store it (`lose-write=1`): the read-back
    /// before the next step sees the CC unchanged and writes it once more, so no lock bit is set
    /// under a CC that still says writable (T2T 1.1 6.4.4; NTAG213/215/216 8.5.6).
    @Test func aLostLockWriteIsSeenBeforeTheNextStep() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        let locked = try await tag.run(["lock", "--confirm", code, "-v"], faults: "&lose-write=1")
        #expect(locked.status == 0, "\(locked.error)")
        let writes = locked.error.split(separator: "\n").filter { $0.contains("  WRITE") }
        #expect(writes.first?.contains("A2 03 E1 10 3E 0F") == true, "\(writes)")
        #expect(writes.count == 4 && writes[1] == writes[0], "the CC written twice, then the lock bytes: \(writes)")
        let info = try SimulatedTagFile.object(try await tag.run(["info", "--json"]))
        #expect(info["status"] as? String == "readOnly")
        #expect(info["lockCode"] is NSNull)
    }

    @Test func writeThenLockNeedsTheCodeToo() async throws {
        let tag = try SimulatedTagFile()
        let refused = try await tag.run(["write", "uri", "https://example.com", "--lock"])
        #expect(refused.status == 79)
        #expect(refused.error.contains("the message was written and verified"))
        #expect(refused.error.contains("ndeftool lock --reader"))
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")

        // Writing the same message again gives the same content, so the same code.
        let code = try await tag.lockCode()
        let locked = try await tag.run(["write", "uri", "https://example.com", "--lock", "--confirm", code])
        #expect(locked.status == 0, "\(locked.error)")
        #expect(locked.outputText.hasSuffix("Locked: the tag is read-only for good.\n"))
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 77)
    }

    @Test func lockOptionsThatDoNotGoTogether() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["lock", "--dry-run", "--confirm", "123-456"]).status == 64)
        #expect(try await tag.run(["write", "uri", "https://example.com", "--confirm", "123-456"]).status == 64)
        #expect(try await tag.run(["write", "uri", "https://example.com", "--lock", "--dry-run"]).status == 64)
        #expect(tag.contents().isEmpty)
    }
}
