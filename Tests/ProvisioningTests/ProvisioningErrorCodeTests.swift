import NDEF
import Provisioning
import Testing

/// Provisioning's error codes are an open set with stable identifiers.
@Suite struct ProvisioningErrorCodeTests {
    @Test("A switch with default; identifiers round-trip")
    func extensible() {
        let advice: String =
            switch ProvisioningError.Code.journalInUse {
            case .journalInUse: "another run has the journal"
            default: "other"
            }
        #expect(advice == "another run has the journal")
        #expect(ProvisioningError.Code.allCases.allSatisfy { ProvisioningError.Code(rawValue: $0.rawValue) == $0 })
        #expect(ProvisioningError.Code.journalInUse.rawValue == "journal-in-use")
    }

    @Test("A code of a newer version keeps its identifier; the former camelCase spelling reads as the code")
    func unknownAndFormerSpellings() throws {
        let newer = ProvisioningError.Code(rawValue: "station-on-fire")
        #expect(newer.rawValue == "station-on-fire" && !newer.isKnown)
        #expect(ProvisioningError.Code(rawValue: "journalMismatch") == .journalMismatch)
        #expect(ProvisioningError.Code(rawValue: "invalidUTF8") == .invalidUTF8)
        #expect(ProvisioningError.Code.invalidUTF8.rawValue == "invalid-utf8")
        #expect(ProvisioningError.Code(rawValue: "") != .malformedPlan)
    }
}
