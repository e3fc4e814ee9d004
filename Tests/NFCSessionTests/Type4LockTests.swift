import Foundation
import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Locking Type 4 tags behind a confirmation")
struct Type4LockTests {
    /// Opens `url`, writes `message` (unless nil) through the session, and forgets the commands.
    func lockableTag(
        _ url: String = "sim:type4?cc-writable=1&mle=59&mlc=52", message: NFCNDEFMessage? = uriMessage(length: 40)
    ) async throws -> (SimulatedReader, NFCTagReaderSession, NFCISO7816Tag) {
        let reader = try await openReader(url)
        let (session, tag) = try await openType4Tag(reader)
        if let message { try await tag.writeNDEF(message) }
        reader.clearLog()
        return (reader, session, tag)
    }

    /// prepareLock reads CC and NDEF file (no UPDATE BINARY); writeLock reads them again, SELECTs
    /// the CC file, writes FF at offset 0E (T4T 3.0 5.1.2: the NDEF File Control TLV's write
    /// access byte) and reads the CC file back.
    @Test("T4T 3.0 5.5.8: lock of a version 2.0 tag: UPDATE BINARY 00 D6 00 0E 01 FF on E103, CC read back")
    func lockVersion2() async throws {
        let message = uriMessage(length: 40)
        let (reader, _, tag) = try await lockableTag()
        let confirmation = try await tag.prepareLock()
        let reads = [
            hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"), hex("00 A4 00 0C 02 E1 03"), hex("00 B0 00 00 0F"),
            hex("00 A4 00 0C 02 E1 04"), hex("00 B0 00 00 02"), hex("00 B0 00 02 28"),
        ]
        #expect(reader.apdus == reads)
        #expect(reader.updateCount == 0)
        #expect(confirmation.uid == SimulatedType4Tag.defaultUID)
        #expect(confirmation.contentDigest.count == 32)
        #expect(confirmation.messageLength == 40)
        #expect(!confirmation.setsBlockLockBits && !confirmation.locksConfiguration)
        #expect(confirmation.plan.steps.map(\.address) == [0x0E])
        #expect(confirmation.plan.steps.map(\.file) == [0xE103])
        #expect(confirmation.description.hasSuffix("(1 UPDATE BINARY, 40-byte message): code \(confirmation.code)"))
        reader.clearLog()
        try await tag.writeLock(confirmation)
        #expect(
            reader.apdus
                == reads + [hex("00 A4 00 0C 02 E1 03"), hex("00 D6 00 0E 01 FF"), hex("00 B0 00 00 0F")])
        #expect(reader.type4Tag?.currentCapabilityContainer?.ndefFile.writeAccess == Type4AccessCondition.none)
        #expect(try await tag.ndefStatus().status == .readOnly)
        #expect(try await tag.readNDEF() == message)
        #expect(await caught { try await tag.writeNDEF(uriMessage(length: 10)) }?.code == .tagNotWritable)
        #expect(await caught { _ = try await tag.prepareLock() }?.code == .tagNotWritable)
    }

    @Test("T4T 3.0 5.1.2: a version 3.0 tag (Extended NDEF File Control TLV) is locked at CC offset 10, CCLEN 17")
    func lockVersion3() async throws {
        let (reader, _, tag) = try await lockableTag("sim:type4?cc-writable=1&version=3&ndef-size=1000")
        try await tag.writeLock(code: try await tag.prepareLock().code)
        let updates = reader.apdus.filter { $0[1] == 0xD6 }
        #expect(updates == [hex("00 D6 00 10 01 FF")])
        #expect(reader.apdus.last == hex("00 B0 00 00 11"))
        #expect(try await tag.ndefStatus() == NDEFTagStatus(status: .readOnly, capacity: 996))
    }

    @Test(
        "A tag that refuses the UPDATE BINARY of its CC file (6982, sim:type4 as delivered): tagNotWritable, nothing written"
    )
    func refused() async throws {
        let (reader, _, tag) = try await lockableTag("sim:type4")
        let confirmation = try await tag.prepareLock()
        let error = try #require(await caught { try await tag.writeLock(confirmation) })
        #expect(error.code == .tagNotWritable)
        #expect(!error.mayBeHalfWritten)
        #expect(error.reason.contains("6982"))
        #expect(error.reason.contains("many Type 4 tags refuse it"))
        #expect(reader.updateCount == 1)
        #expect(try await tag.ndefStatus().status == .readWrite)
        // Another refusal the tag may answer, through nak-status.
        let (other, _, otherTag) = try await lockableTag("sim:type4?cc-writable=1&nak-write=2&nak-status=6A82")
        #expect(
            await caught { try await otherTag.writeLock(code: try await otherTag.prepareLock().code) }?.code
                == .tagNotWritable)
        #expect(other.type4Tag?.currentCapabilityContainer?.ndefFile.writeAccess == .granted)
    }

    @Test("ISO/IEC 7816-4: 6581 (memory failure) is tagUpdateFailure, half-written")
    func memoryFailure() async throws {
        let (_, _, tag) = try await lockableTag("sim:type4?cc-writable=1&nak-write=2")
        let error = try #require(await caught { try await tag.writeLock(code: try await tag.prepareLock().code) })
        #expect(error.code == .tagUpdateFailure)
        #expect(error.mayBeHalfWritten)
    }

    @Test("An UPDATE BINARY answered 9000 but not stored is caught by the CC read-back: tagUpdateFailure")
    func notStored() async throws {
        // The message write is write 1; the lock's UPDATE BINARY is write 2.
        let (reader, _, tag) = try await lockableTag("sim:type4?cc-writable=1&lose-write=2")
        let error = try #require(await caught { try await tag.writeLock(code: try await tag.prepareLock().code) })
        #expect(error.code == .tagUpdateFailure)
        #expect(error.mayBeHalfWritten)
        #expect(error.reason.contains("write access 00, not FF"), "\(error.reason)")
        #expect(reader.log.contains { $0.fate == .writeNotStored })
        // Locking again works: the tag is unchanged, so the same code still matches.
        try await tag.writeLock(code: try await tag.prepareLock().code)
        #expect(try await tag.ndefStatus().status == .readOnly)
    }

    @Test("An empty NDEF file (NLEN 0) can be locked; its confirmation says a 0-byte message")
    func emptyFile() async throws {
        let (_, _, tag) = try await lockableTag(message: nil)
        let confirmation = try await tag.prepareLock()
        #expect(confirmation.messageLength == 0)
        try await tag.writeLock(confirmation)
        #expect(try await tag.ndefStatus().status == .readOnly)
    }

    @Test("Another tag's confirmation: confirmationMismatch before any APDU")
    func otherTag() async throws {
        let (reader, _, tag) = try await lockableTag()
        var confirmation = try await tag.prepareLock()
        confirmation.uid = hex("04 00 00 00 00 00 01")
        reader.clearLog()
        #expect(await caught { try await tag.writeLock(confirmation) }?.code == .confirmationMismatch)
        #expect(reader.log.isEmpty)
    }

    @Test("Content changed since the confirmation, a wrong or malformed code: confirmationMismatch, no UPDATE BINARY")
    func mismatches() async throws {
        let (reader, _, tag) = try await lockableTag()
        let confirmation = try await tag.prepareLock()
        #expect(try await tag.prepareLock() == confirmation)
        try await tag.writeNDEF(uriMessage(length: 40, seed: 9))
        reader.clearLog()
        #expect(await caught { try await tag.writeLock(confirmation) }?.code == .confirmationMismatch)
        let current = try await tag.prepareLock()
        #expect(current.contentDigest != confirmation.contentDigest)
        let digits = current.code.filter(\.isNumber)
        let wrong = String(digits.dropLast()) + (digits.last == "0" ? "1" : "0")
        for code in [wrong, "12345", "abc-def", ""] {
            #expect(await caught { try await tag.writeLock(code: code) }?.code == .confirmationMismatch)
        }
        #expect(reader.updateCount == 0)
        try await tag.writeLock(code: " " + digits + " ")
        #expect(try await tag.ndefStatus().status == .readOnly)
    }

    @Test("A read-only NDEF file (write access FF) is already locked: tagNotWritable, no UPDATE BINARY")
    func alreadyReadOnly() async throws {
        let reader = try await openReader("sim:type4?write-access=FF")
        let (_, tag) = try await openType4Tag(reader)
        #expect(await caught { _ = try await tag.prepareLock() }?.code == .tagNotWritable)
        #expect(await caught { try await tag.writeLock(code: "000-000") }?.code == .tagNotWritable)
        #expect(reader.updateCount == 0)
    }

    @Test("The Type 4 confirmation is JSON with hex UID and digest and decodes equal")
    func codable() async throws {
        let (_, _, tag) = try await lockableTag()
        let confirmation = try await tag.prepareLock()
        let data = try JSONEncoder().encode(confirmation)
        #expect(try JSONDecoder().decode(NFCLockConfirmation.self, from: data) == confirmation)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""uid":"043c6a922f6180""#))
    }
}
