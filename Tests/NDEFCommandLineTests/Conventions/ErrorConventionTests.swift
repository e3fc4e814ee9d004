import LibNFCReader
import NDEF
import NFCCrypto
import NFCSession
import NTAG424
import PCSCReader
import Provisioning
import ProvisioningDatabase
import RecordSpecifications
import SimulatorBridges
import TagMemory
import Testing

/// Every public error type of the package adopts `NDEFToolError`, and every code set follows
/// one convention: kebab-case identifiers, derived `allCases` without duplicates, identifiers
/// that read back as their code, unknown ones kept.
@Suite("Errors: one protocol, kebab-case codes, derived allCases")
struct ErrorConventionTests {
    /// The code sets of the package, by name.
    static let codeSets: [(name: String, identifiers: [String], parse: @Sendable (String) -> (String, Bool))] = [
        entry(NDEFError.self), entry(TagMemoryError.self), entry(NFCReaderError.self), entry(NTAG424Error.self),
        entry(CryptoError.self), entry(ProvisioningError.self), entry(DatabaseError.self), entry(RecordSpecError.self),
        entry(SimulatorBridgeError.self),
    ]

    /// The name, identifiers and parser of `type`'s codes; compiles only for an `NDEFToolError`.
    static func entry<E: NDEFToolError>(_ type: E.Type) -> (String, [String], @Sendable (String) -> (String, Bool)) {
        (
            "\(type)", E.Code.allCases.map(\.rawValue),
            { text in (E.Code(rawValue: text).rawValue, E.Code(rawValue: text).isKnown) }
        )
    }

    @Test("Identifiers are kebab-case, unique, read back as themselves; an unknown one is kept, not known")
    func conventions() {
        for set in Self.codeSets {
            #expect(!set.identifiers.isEmpty, "\(set.name)")
            #expect(Set(set.identifiers).count == set.identifiers.count, "\(set.name) has a duplicate identifier")
            for identifier in set.identifiers {
                let isKebab =
                    !identifier.isEmpty && identifier.first != "-" && identifier.last != "-"
                    && identifier.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                #expect(isKebab, "\(set.name): \(identifier)")
                #expect(set.parse(identifier) == (identifier, true), "\(set.name): \(identifier)")
            }
            #expect(set.parse("a-code-from-a-newer-version") == ("a-code-from-a-newer-version", false))
        }
    }

    @Test("The reader backends' errors carry the session code of their C status through the protocol")
    func backendErrors() {
        let pcsc: any NDEFToolError = PCSCError(status: .noService, operation: "SCardEstablishContext")
        #expect(pcsc.code.rawValue == "reader-unavailable" && pcsc.reason.contains("SCardEstablishContext"))
        let libnfc: any NDEFToolError = LibNFCError(
            status: .rfTransmission, operation: "nfc_initiator_transceive_bytes")
        #expect(libnfc.code.rawValue == LibNFCStatusCode.rfTransmission.readerErrorCode.rawValue)
        #expect(libnfc.reason.contains("nfc_initiator_transceive_bytes"))
        let halfWritten: any NDEFToolError = NFCReaderError(.tagConnectionLost, "gone", mayBeHalfWritten: true)
        #expect(halfWritten.mayBeHalfWritten)
        let located: any NDEFToolError = NDEFError(.truncated, at: 7, "short")
        #expect(located.byteOffset == 7 && !located.mayBeHalfWritten)
        let specification = RecordSpecError(.invalidSpecification, "record 1 (uri): empty", underlying: located)
        #expect((specification as any NDEFToolError).underlyingError is NDEFError)
        #expect((specification as any NDEFToolError).reason == "record 1 (uri): empty")
    }
}
