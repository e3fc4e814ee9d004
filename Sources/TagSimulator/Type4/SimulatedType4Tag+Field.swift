import NFCWireFormat
import TagMemory

extension SimulatedType4Tag {
    /// A frame the tag does not expect in READY or ACTIVE (a REQA or WUPA of a new poll, a
    /// SELECT for another UID): the tag goes back to its waiting state, IDLE, or HALT if it was
    /// woken from HALT (ISO/IEC 14443-3, 6.3), and forgets its selection. Nothing is answered
    /// or counted.
    mutating func returnToWaitingState() {
        guard state == .active || state == .ready else { return }
        state = wasHalted ? .halt : .idle
        clearSelection()
    }

    /// The number of data bytes `apdu` carries when it is an UPDATE BINARY (`D6`, or `D7` on a
    /// version 3.0 tag: the bytes inside its discretionary data object) the tag can parse; nil
    /// for every other APDU. Whether the tag would accept the write is not checked.
    func updateDataCount(of apdu: [UInt8]) -> Int? {
        guard SimulatedType4Command(apdu: apdu) == .updateBinary, let parsed = CommandAPDU(apdu),
            !parsed.isExtended || configuration.acceptsExtendedLength
        else { return nil }
        do {
            return try updateRequest(parsed).data.count
        } catch {
            return nil
        }
    }

    /// Receives `apdu` and answers `status` (SW1 SW2) without carrying it out, as a tag whose
    /// EEPROM fails (fault injection): the APDU is counted, the selection stays.
    mutating func refuse(_ apdu: [UInt8], status: UInt16) -> [UInt8] {
        record(apdu)
        return [UInt8(truncatingIfNeeded: status >> 8), UInt8(truncatingIfNeeded: status)]
    }

    /// Receives `apdu` and answers `9000` without storing anything, as an EEPROM that fails
    /// silently (fault injection): the APDU is counted, the selection stays.
    mutating func acknowledgeWithoutStoring(_ apdu: [UInt8]) -> [UInt8] {
        record(apdu)
        return Type4StatusWord.success.bytes
    }
}
