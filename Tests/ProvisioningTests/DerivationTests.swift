import Provisioning
import TestSupport
import Testing

@Suite("HMAC-SHA256 and per-tag password derivation")
struct DerivationTests {
    /// RFC 4231 section 4.2-4.5, test cases 1-4 (HMAC-SHA-256 lines).
    @Test(arguments: [
        (
            String(repeating: "0b", count: 20), "4869205468657265",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
    ])
    func rfc4231(key: String, data: String, mac: String) throws {
        #expect(try ProvisioningDigest.hmacSHA256(key: hex(key), message: hex(data)) == hex(mac))
    }

    /// FIPS 180-4 example "abc".
    @Test func sha256() throws {
        #expect(
            try ProvisioningDigest.sha256(Array("abc".utf8))
                == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }

    /// Expected bytes computed independently with Python's hmac module:
    /// python3 -c 'import hmac,hashlib; d=hmac.new(bytes.fromhex("000102030405060708090a0b0c0d0e0f"),
    ///   bytes.fromhex("04A2B3C4D5E680"), hashlib.sha256).digest(); print(d[:4].hex(), d[4:6].hex())'
    /// -> e240edc0 e524
    /// and with master b"batch-2025-secret", UID 04112233445566 -> 5c149061 11ea.
    @Test func knownDerivations() throws {
        let first = try TagPasswordDerivation(masterSecret: hex("000102030405060708090a0b0c0d0e0f"))
        let derived = try first.derive(uid: hex("04A2B3C4D5E680"))
        #expect(derived.password == hex("e240edc0"))
        #expect(derived.pack == hex("e524"))
        let second = try TagPasswordDerivation(masterSecret: Array("batch-2025-secret".utf8))
        let other = try second.derive(uid: hex("04112233445566"))
        #expect(other.password == hex("5c149061"))
        #expect(other.pack == hex("11ea"))
    }

    /// The journal's check value of a master secret: HMAC-SHA256(master, "ndeftool job secret
    /// check"), first 8 bytes (computed independently with Python's hmac module).
    @Test func secretCheck() throws {
        let derivation = try TagPasswordDerivation(masterSecret: Array("batch-2025-secret".utf8))
        #expect(try derivation.secretCheck() == "29c5b138d726d94e")
        let other = try TagPasswordDerivation(masterSecret: Array("batch-2025-secreT".utf8))
        #expect(try other.secretCheck() != derivation.secretCheck())
        let plan = ProvisioningPasswordPlan(derivation: derivation)
        #expect(plan.journalOptions[ProvisioningPasswordPlan.secretCheckOption] == "29c5b138d726d94e")
    }

    @Test func secretsAreNeverShown() throws {
        let derivation = try TagPasswordDerivation(masterSecret: Array("batch-2025-secret".utf8))
        let derived = try derivation.derive(uid: hex("04112233445566"))
        #expect("\(derived)" == "**")
        #expect(!"\(derivation)".contains("batch"))
        #expect(!String(reflecting: derivation).contains("batch"))
    }

    @Test func emptyInputsAreRefused() throws {
        #expect(throws: ProvisioningError(.crypto, "")) { try TagPasswordDerivation(masterSecret: []) }
        let derivation = try TagPasswordDerivation(masterSecret: [1])
        #expect(throws: ProvisioningError(.crypto, "")) { try derivation.derive(uid: []) }
    }
}
