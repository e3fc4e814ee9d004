import Provisioning
import TestSupport
import Testing

@Suite("HMAC-SHA256 and per-tag password derivation")
struct DerivationTests {
    /// Expected bytes computed independently with Python's hmac module:
    /// python3 -c 'import hmac,hashlib; d=hmac.new(bytes.fromhex("000102030405060708090a0b0c0d0e0f"),
    ///   bytes.fromhex("04A2B3C4D5E680"), hashlib.sha256).digest(); print(d[:4].hex(), d[4:6].hex())'
    /// -> e240edc0 e524
    /// and with master b"batch-2025-secret", UID 04112233445566 -> 5c149061 11ea.
    @Test func knownDerivations() throws {
        let first = try TagPasswordDerivation(masterSecret: hex("000102030405060708090a0b0c0d0e0f"))
        let derived = try first.derive(uid: hex("04A2B3C4D5E680"))
        #expect(derived.password == hex("e240edc0"))
        #expect(derived.passwordAcknowledge == hex("e524"))
        let second = try TagPasswordDerivation(masterSecret: Array("batch-2025-secret".utf8))
        let other = try second.derive(uid: hex("04112233445566"))
        #expect(other.password == hex("5c149061"))
        #expect(other.passwordAcknowledge == hex("11ea"))
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
