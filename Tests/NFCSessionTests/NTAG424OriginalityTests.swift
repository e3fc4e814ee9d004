import NFCSession
import SimulatedReader
import TagMemory
import TestSupport
import Testing

/// Read_Sig of an NTAG 424 DNA checked against NXP's secp224r1 key (NT4H2421Gx 10.10.1; AN12196
/// 7.2 gives the key and a signature of UID 04518DFAA96180).
@Suite struct NTAG424OriginalityTests {
    static let uid = "04518DFAA96180"
    static let signature =
        "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"

    static func check(_ url: String) async throws -> OriginalitySignatureCheck {
        try await NTAG424SetupTests.onTag(url) { try await $0.checkOriginality() }
    }

    @Test("AN12196's signature of 04518DFAA96180 verifies with NXP's NTAG 424 DNA key; one bit changed does not")
    func nxpKey() async throws {
        let genuine = try await Self.check("sim:ntag424?uid=\(Self.uid)&signature=\(Self.signature)")
        #expect(genuine.status == .valid && genuine.keyName == "NXP NTAG 424 DNA key")
        var changed = Array(Self.signature)
        changed[10] = changed[10] == "0" ? "1" : "0"
        let forged = try await Self.check("sim:ntag424?uid=\(Self.uid)&signature=\(String(changed))")
        #expect(forged.status == .notValid)
        let otherTag = try await Self.check("sim:ntag424?uid=04518DFAA96181&signature=\(Self.signature)")
        #expect(otherTag.status == .notValid, "a signature copied to another UID")
        let factory = try await Self.check("sim:ntag424?uid=\(Self.uid)")
        #expect(factory.status == .allZero)
    }

    @Test("NXP's NTAG21x key does not verify an NTAG 424 DNA signature (another curve)")
    func otherKeys() async throws {
        let check = try await NTAG424SetupTests.onTag("sim:ntag424?uid=\(Self.uid)&signature=\(Self.signature)") {
            try await $0.checkOriginality(keys: NFCOriginalityKey.nxpKeys)
        }
        #expect(check.status == .notValid)
    }
}
