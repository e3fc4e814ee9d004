import Foundation
import NDEF
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import NFCSession

@Suite("Locking Type 2 tags behind a confirmation")
struct LockTests {
    /// prepareLock reads (no write); writeLock re-reads, then CC, dynamic lock bits, static lock bits
    /// (T2T 1.1 6.4.4; NTAG213/215/216 8.5.6, 8.5.3, 8.5.2), then reads back pages 2-3 and 130.
    @Test("T2T 1.1 6.4.4: NTAG215 lock: CC 0F first, dynamic then static lock bits, each read back; read-only")
    func lockNTAG215() async throws {
        let message = uriMessage(length: 40)
        let reader = makeReader([tagHolding(message, chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let confirmation = try await tag.prepareLock()
        #expect(reader.count(of: .write) == 0)
        #expect(reader.log.map(\.frame) == [[0x3A, 0x00, 0x1F], [0x3A, 0x82, 0x84]])
        #expect(confirmation.uid == SimulatedType2Tag.defaultUID)
        #expect(confirmation.contentDigest.count == 32)
        #expect(NFCLockConfirmation.normalizedCode(confirmation.code) == confirmation.code)
        #expect(confirmation.messageLength == 40)
        #expect(confirmation.plan.steps.map(\.address) == [3, 0x82, 2])
        reader.clearLog()
        try await tag.writeLock(confirmation)
        #expect(
            reader.log.map(\.frame) == [
                [0x3A, 0x00, 0x1F], [0x3A, 0x82, 0x84],
                [0xA2, 0x03, 0xE1, 0x10, 0x3E, 0x0F], [0x3A, 0x03, 0x03],
                [0xA2, 0x82, 0xFF, 0x00, 0x0F, 0x00], [0x3A, 0x82, 0x82],
                [0xA2, 0x02] + SimulatedType2Tag(chip: .ntag215).bytes[8..<10] + [0xFF, 0xFF], [0x3A, 0x02, 0x02],
            ])
        let locked = stored(reader.type2Tag)
        #expect(locked.ndefStatus.status == .readOnly)
        #expect(locked.message == message)
        #expect(try await tag.ndefStatus().status == .readOnly)
        #expect(await caught { try await tag.writeNDEF(uriMessage(length: 10)) }?.code == .tagNotWritable)
    }

    @Test("A lock write acknowledged but not stored is seen by its read-back and written once more")
    func silentFailure() async throws {
        for (write, page) in [(1, 0x03), (2, 0x82), (3, 0x02)] {
            let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag215)])
            let (_, tag) = try await openTag(reader)
            let confirmation = try await tag.prepareLock()
            reader.clearLog()
            reader.arm(.init(loseWrite: write))
            try await tag.writeLock(confirmation)
            let writes = reader.log.filter { $0.kind == .write }.map(\.frame)
            #expect(writes.count == 4 && writes.filter { $0[1] == page }.count == 2, "write \(write): \(writes)")
            #expect(stored(reader.type2Tag).ndefStatus.status == .readOnly)
        }
    }

    @Test("A lock step that does not take twice stops the lock before any later, irreversible step")
    func stepThatNeverTakes() async throws {
        for (write, page, later) in [(1, 3, [0x82, 0x02]), (2, 0x82, [0x02])] {
            let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag215)])
            let (_, tag) = try await openTag(reader)
            let confirmation = try await tag.prepareLock()
            reader.clearLog()
            // The write is lost, and the one that repeats it refused.
            reader.arm(.init(nakWrite: write + 1, loseWrite: write))
            let error = try #require(await caught { try await tag.writeLock(confirmation) })
            #expect(error.code == .tagUpdateFailure && error.mayBeHalfWritten)
            #expect(error.reason.contains("again: page \(page) did not take"), "\(error.reason)")
            let pages = reader.log.filter { $0.kind == .write }.map { Int($0.frame[1]) }
            #expect(!pages.contains { later.contains($0) }, "a later lock step was sent: \(pages)")
        }
    }

    @Test("The same tag and content give the same code; another message gives another code")
    func codeIsStable() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        let first = try await tag.prepareLock()
        let second = try await tag.prepareLock()
        #expect(first == second)
        try await tag.writeNDEF(uriMessage(length: 41))
        let third = try await tag.prepareLock()
        #expect(third.contentDigest != first.contentDigest)
        let cfg = try await tag.prepareLock(options: Type2LockOptions(locksConfiguration: true))
        #expect(cfg.contentDigest != third.contentDigest)
        #expect(cfg.plan.steps.last?.address == 0x2A)
    }

    @Test("A confirmation for another tag: confirmationMismatch before any command")
    func otherTag() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        var confirmation = try await tag.prepareLock()
        confirmation.uid = hex("04 00 00 00 00 00 01")
        reader.clearLog()
        #expect(await caught { try await tag.writeLock(confirmation) }?.code == .confirmationMismatch)
        #expect(reader.log.isEmpty)
    }

    @Test("Content changed since the confirmation: confirmationMismatch, no WRITE")
    func changedContent() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        let confirmation = try await tag.prepareLock()
        try await tag.writeNDEF(uriMessage(length: 40, seed: 9))
        reader.clearLog()
        #expect(await caught { try await tag.writeLock(confirmation) }?.code == .confirmationMismatch)
        #expect(reader.count(of: .write) == 0)
        #expect(stored(reader.type2Tag).ndefStatus.status == .readWrite)
    }

    @Test("A wrong or malformed code: confirmationMismatch, no WRITE; the right code locks")
    func codes() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag216)])
        let (_, tag) = try await openTag(reader)
        let confirmation = try await tag.prepareLock()
        let digits = confirmation.code.filter(\.isNumber)
        let wrong = String(digits.dropLast()) + (digits.last == "0" ? "1" : "0")
        reader.clearLog()
        for code in [wrong, "12345", "abc-def", ""] {
            #expect(await caught { try await tag.writeLock(code: code) }?.code == .confirmationMismatch)
        }
        #expect(reader.count(of: .write) == 0)
        try await tag.writeLock(code: " " + digits + " ")
        #expect(stored(reader.type2Tag).ndefStatus.status == .readOnly)
    }

    @Test("An already locked tag: tagNotWritable, no WRITE")
    func alreadyLocked() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeLock(try await tag.prepareLock())
        reader.clearLog()
        #expect(await caught { _ = try await tag.prepareLock() }?.code == .tagNotWritable)
        #expect(await caught { try await tag.writeLock(code: "000-000") }?.code == .tagNotWritable)
        #expect(reader.count(of: .write) == 0)
    }

    @Test("NTAG213/215/216 8.5.7: CFGLCK is set last when asked; CFG1 reads back with bit 6")
    func configurationLock() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 20), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        let confirmation = try await tag.prepareLock(options: Type2LockOptions(locksConfiguration: true))
        try await tag.writeLock(confirmation)
        #expect(stored(reader.type2Tag).configuration?.isConfigurationLocked == true)
        #expect(try await tag.passwordStatus().isConfigurationLocked == true)
    }

    @Test("The confirmation is JSON with hex UID and digest, and decodes to an equal value")
    func codable() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 40), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        let confirmation = try await tag.prepareLock()
        let json = try JSONEncoder().encode(confirmation)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"uid\":\"04517ca24b3580\""))
        #expect(try JSONDecoder().decode(NFCLockConfirmation.self, from: json) == confirmation)
    }

    @Test("The code is six digits from SHA-256: FIPS 180-4 digest of the documented input")
    func codeDerivation() throws {
        // SHA-256("abc") starts ba 78 16 bf: 0xBA7816BF = 3128432319, mod 1e6 = 432319.
        let digest = hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(NFCLockConfirmation.code(for: digest) == "432-319")
        #expect(NFCLockConfirmation.code(for: [0, 0, 0x03, 0xE7] + digest.dropFirst(4)) == "000-999")
        #expect(NFCLockConfirmation.normalizedCode("432 319") == "432-319")
        #expect(NFCLockConfirmation.normalizedCode("４３２３１９") == nil)
    }
}
