import NFCWireFormat
import TagMemory

extension SimulatedType4Tag {
    /// The file identifier of the master file, `3F00` (ISO/IEC 7816-4, 7.1.1).
    static let masterFileIdentifier: [UInt8] = [0x3F, 0x00]

    /// SELECT (INS A4h): P1 `04` selects the NDEF Tag Application by name (T4T 3.0, 5.4.2),
    /// P1 `00` a file by identifier (5.4.3); P2 `00` (FCI asked, none is returned, as on an
    /// NTAG 424 DNA, NT4H2421Gx 10.9.1) or `0C` (no response data). Any other P1 or P2 answers
    /// `6A86`.
    mutating func selectCommand(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) -> Type4Response {
        guard apdu.p2 == 0x00 || apdu.p2 == 0x0C else { throw SimulatedType4Refusal(.incorrectParameters) }
        switch apdu.p1 {
        case 0x04: try selectApplication(apdu)
        case 0x00: try selectFile(apdu)
        default: throw SimulatedType4Refusal(.incorrectParameters)
        }
        return Type4Response(status: .success)
    }

    /// SELECT by name: `9000` for the tag's NDEF Tag Application identifier (`D2760000850101`,
    /// or `D2760000850100` on a version 1.0 tag), which deselects any file; `6A82` for any
    /// other name, keeping the selection (NT4H2421Gx 10.9.1); `6700` without a name.
    private mutating func selectApplication(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) {
        guard apdu.hasCommandData else { throw SimulatedType4Refusal(.wrongLength) }
        guard apdu.data.elementsEqual(configuration.applicationIdentifier) else {
            throw SimulatedType4Refusal(.fileNotFound)
        }
        isApplicationSelected = true
        selectedFile = nil
    }

    /// SELECT by file identifier: the CC file `E103` or the NDEF file, once the application is
    /// selected (`6A82` before, and for any other identifier, keeping the selection); no data
    /// or `3F00` selects the master file, which leaves the application (ISO/IEC 7816-4, 7.1.1;
    /// NT4H2421Gx 10.9.1); data of another length answers `6A87`.
    private mutating func selectFile(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) {
        if apdu.data.isEmpty || apdu.data.elementsEqual(Self.masterFileIdentifier) {
            isApplicationSelected = false
            selectedFile = nil
            return
        }
        guard apdu.data.count == 2, let high = apdu.data.first, let low = apdu.data.last else {
            throw SimulatedType4Refusal(.other(0x6A87))
        }
        let identifier = UInt16(high) << 8 | UInt16(low)
        guard isApplicationSelected,
            identifier == Type4CapabilityContainer.fileIdentifier || identifier == configuration.ndefFileIdentifier
        else { throw SimulatedType4Refusal(.fileNotFound) }
        selectedFile = identifier
    }
}
