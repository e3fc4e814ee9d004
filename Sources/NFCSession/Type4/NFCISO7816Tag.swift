/// An ISO-DEP tag (ISO/IEC 14443-4), as CoreNFC's `NFCISO7816Tag`: NFC Forum Type 4 tags and other
/// smart cards, driven by command APDUs (ISO/IEC 7816-4 5.1).
///
/// NDEF operations on Type 4 tags (NFC Forum Type 4 Tag 3.0, 5.4: SELECT the NDEF application, the
/// CC file, READ BINARY and UPDATE BINARY with TagMemory's Type 4 plans) are not offered yet:
/// ``sendCommand(apdu:)`` exchanges APDUs.
public actor NFCISO7816Tag {
    /// The UID.
    public nonisolated let identifier: [UInt8]
    /// What polling found: UID, ATQA, SAK, ATS.
    public nonisolated let targetInfo: NFCTargetInfo

    /// The reader the tag is in.
    let reader: any NFCReaderDevice
    /// The session's validity.
    let lifetime: SessionLifetime

    init(reader: any NFCReaderDevice, target: NFCTargetInfo, lifetime: SessionLifetime) {
        self.reader = reader
        self.targetInfo = target
        self.identifier = target.uid
        self.lifetime = lifetime
    }

    /// The historical bytes of the ATS (ISO/IEC 14443-4 5.2.7): what follows the format byte T0
    /// and the interface bytes TA, TB, TC it announces; empty without an ATS.
    public nonisolated var historicalBytes: [UInt8] {
        guard let ats = targetInfo.ats, ats.count >= 2 else { return [] }
        let format = ats[1]
        var start = 2
        for bit in [UInt8(0x10), 0x20, 0x40] where format & bit != 0 { start += 1 }
        let end = min(ats.count, Int(ats[0]))
        return start < end ? Array(ats[start..<end]) : []
    }

    /// Sends one command APDU and returns the response data and status word (ISO/IEC 7816-4 5.1).
    ///
    /// - Throws: ``NFCReaderError/Code/cancelled`` after the session was invalidated;
    ///   ``NFCReaderError/Code/tagConnectionLost`` for a missing or short answer; the reader's
    ///   errors.
    public func sendCommand(apdu: [UInt8]) async throws(NFCReaderError) -> (data: [UInt8], sw1: UInt8, sw2: UInt8) {
        guard !lifetime.isInvalidated else {
            throw NFCReaderError(.cancelled, "the session was invalidated: the tag can no longer be used")
        }
        let response = try await reader.sendAPDU(apdu)
        guard response.count >= 2 else {
            throw NFCReaderError(.tagConnectionLost, "the answer is shorter than the status word")
        }
        return (Array(response.dropLast(2)), response[response.count - 2], response[response.count - 1])
    }
}
