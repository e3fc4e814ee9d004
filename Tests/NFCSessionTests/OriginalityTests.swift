import Foundation
import NFCCrypto
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Originality signatures (NTAG213/215/216 10.8, MF0ULX1 8.8.9; AN11350): real signatures of
/// genuine chips from published dumps, tampered ones, unsigned chips, and simulated tags signed
/// with a key of the test's own.
@Suite struct OriginalityTests {
    /// The real dumps of Fixtures/originality and the key that signed each.
    static let realDumps: [(file: String, key: String)] = [
        ("unleashed_Ntag213_locked.nfc", "NXP NTAG21x key"), ("unleashed_Ntag215.nfc", "NXP NTAG21x key"),
        ("unleashed_Ntag216.nfc", "NXP NTAG21x key"), ("unleashed_Ultralight_11.nfc", "NXP Ultralight EV1 key"),
        ("UberGuidoZ_Talking_sasquach.nfc", "NXP NTAG21x key"), ("UberGuidoZ_Empty_NTAG216.nfc", "NXP NTAG21x key"),
    ]

    /// The UID and signature of a fixture dump.
    static func uidAndSignature(_ file: String) throws -> ([UInt8], [UInt8]) {
        let url = PackagePaths.fixtures.appendingPathComponent("originality/\(file)")
        let dump = try TagDump(decoding: [UInt8](try Data(contentsOf: url)), fileName: file)
        return (try #require(dump.uid), try #require(dump.signature))
    }

    @Test("NXP's published keys load on secp128r1")
    func keysLoad() throws {
        #expect(NFCOriginalityKey.nxpKeys.map(\.name) == ["NXP NTAG21x key", "NXP Ultralight EV1 key"])
        #expect(NFCOriginalityKey.nxpNTAG21x?.key.curveName == "secp128r1")
    }

    @Test(
        "Signatures read from real NTAG213/215/216 and Ultralight EV1 tags verify with NXP's key", arguments: realDumps)
    func realSignatures(_ dump: (file: String, key: String)) throws {
        let (uid, signature) = try Self.uidAndSignature(dump.file)
        let check = try NFCOriginalityKey.check(signature: signature, uid: uid)
        #expect(check.status == .valid && check.keyName == dump.key, "\(dump.file): \(check)")
        #expect(check.summary == "valid (\(dump.key))")
        // One changed byte anywhere (in r, in s, or in the UID) and it is not valid.
        for index in [0, 15, 16, 31] {
            var tampered = signature
            tampered[index] ^= 0x01
            #expect(try NFCOriginalityKey.check(signature: tampered, uid: uid).status == .notValid, "byte \(index)")
        }
        var otherUID = uid
        otherUID[6] ^= 0x80
        #expect(try NFCOriginalityKey.check(signature: signature, uid: otherUID).status == .notValid)
    }

    @Test("An all-zero signature is reported as unsigned, never as valid; a short one is not valid")
    func unsigned() throws {
        let uid: [UInt8] = [0x04, 0x51, 0x7C, 0xA2, 0x4B, 0x35, 0x80]
        let zero = try NFCOriginalityKey.check(signature: [UInt8](repeating: 0, count: 32), uid: uid)
        #expect(zero.status == .allZero && !zero.isValid && zero.keyName == nil)
        #expect(zero.summary.hasPrefix("NOT VALID: all zeros"))
        #expect(try NFCOriginalityKey.check(signature: [1, 2, 3], uid: uid).status == .notValid)
    }

    @Test("A simulated tag signed with a test key verifies with that key only; by default it answers zeros")
    func simulatedSigning() async throws {
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        let key = try ECDSAPrivateKey(generatingOn: "secp128r1")
        let keyFile = try folder.file("test-key.pem", text: key.pemRepresentation)
        let testKey = NFCOriginalityKey(name: "test key", key: try key.publicKey)

        let signed = try await SimulatedReader(url: "sim:ntag215?signing-key=\(keyFile)")
        let session = NFCTagReaderSession(reader: signed)
        guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
            Issue.record("no Type 2 tag")
            return
        }
        #expect(try await tag.checkOriginality().status == .notValid)
        let withKey = try await tag.checkOriginality(keys: NFCOriginalityKey.nxpKeys + [testKey])
        #expect(withKey.status == .valid && withKey.keyName == "test key")
        await session.invalidate()
        await signed.close()

        let plain = try await SimulatedReader(url: "sim:ntag215")
        let plainSession = NFCTagReaderSession(reader: plain)
        guard let plainTag = try await plainSession.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
            Issue.record("no Type 2 tag")
            return
        }
        #expect(try await plainTag.checkOriginality(keys: [testKey]).status == .allZero)
        await plainSession.invalidate()
        await plain.close()
    }

    @Test("signature=HEX gives a simulated tag a real chip's signature: it verifies for that UID")
    func givenSignature() async throws {
        let (uid, signature) = try Self.uidAndSignature("unleashed_Ntag215.nfc")
        let url = "sim:ntag215?uid=\(hexText(uid))&signature=\(hexText(signature))"
        let reader = try await SimulatedReader(url: url)
        let session = NFCTagReaderSession(reader: reader)
        guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
            Issue.record("no Type 2 tag")
            return
        }
        let check = try await tag.checkOriginality()
        #expect(check.status == .valid && check.keyName == "NXP NTAG21x key")
        await session.invalidate()
        await reader.close()
    }

    @Test("signature and signing-key are refused together, and for Type 4 tags; a bad signature is refused")
    func urlRefusals() async throws {
        for url in [
            "sim:ntag215?signature=00&signing-key=/x", "sim:type4?signature=" + String(repeating: "00", count: 32),
            "sim:ntag215?signature=0011", "sim:ntag215?signing-key=/nonexistent/key.pem",
        ] {
            await #expect(throws: NFCReaderError.self, "\(url)") { _ = try await SimulatedReader(url: url) }
        }
    }
}
