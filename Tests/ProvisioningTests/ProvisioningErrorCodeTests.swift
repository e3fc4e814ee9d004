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
        #expect(ProvisioningError.Code(rawValue: "") == nil)
    }
}
