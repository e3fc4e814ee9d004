import NFCWireFormat
import TagSimulator

extension ContactlessReaderEmulator {
    /// The largest READ BINARY: one Type 2 READ, 4 pages (ACR122U API 2.04, 5.3: "Maximum 16
    /// bytes").
    static let maximumReadLength = 16

    /// GET DATA (PC/SC Part 3 v2.02, 3.2.2.1.3): P1 00 the UID of the activated card, P1 01
    /// the historical bytes of its ATS, as PC/SC Part 3 specifies (ACS manuals call the answer
    /// "ATS"; an ISO-DEP tag only: `6A 81` for a Type 2 tag, as an ACR122U answers for cards
    /// without ATS). Le 00 returns all; a shorter Le `6C XX`, a longer one the data and `62 82`
    /// (ACR1281U and ACR1255U manuals; the ACR122U lists only `63 00` and `6A 81`).
    func getData(_ command: CommandAPDU, _ field: SimulatedField) -> [UInt8] {
        guard command.p2 == 0x00, !command.hasCommandData else { return StatusWord.functionNotSupported.bytes }
        guard let tag = activeTag(field) else { return StatusWord.failed.bytes }
        let value: [UInt8]
        switch (command.p1, tag) {
        case (0x00, _): value = tag.uid
        case (0x01, .type4(let tag)): value = Self.historicalBytes(ofATS: tag.ats)
        default: return StatusWord.functionNotSupported.bytes
        }
        guard let wanted = command.expectedLength, !command.asksForAllAvailable else {
            return value + StatusWord.success.bytes
        }
        if wanted < value.count { return StatusWord.exactLength(value.count).bytes }
        if wanted > value.count { return value + StatusWord.endOfData.bytes }
        return value + StatusWord.success.bytes
    }

    /// READ BINARY (PC/SC Part 3 v2.02, 3.2.2.1.8) of a Type 2 tag: one READ (30h) of the page
    /// P2 (P1 00), the first Le bytes of its 16 (Le 1 to 16; `63 00` otherwise, or when the
    /// tag answers a NAK, nothing, or a corrupted frame). `6A 81` for an ISO-DEP tag.
    mutating func readBinary(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        guard let tag = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        guard case .type2 = tag else { return .response(StatusWord.functionNotSupported.bytes) }
        guard command.p1 == 0x00, !command.hasCommandData, let wanted = command.expectedLength,
            !command.asksForAllAvailable,
            wanted <= Self.maximumReadLength
        else { return .response(StatusWord.failed.bytes) }
        switch Self.exchangeFrame([0x30, command.p2], &field) {
        case .tagLeft: return .tagLeft
        case .reply(.answer(.data(let bytes))) where bytes.count >= wanted:
            return .response(Array(bytes.prefix(wanted)) + StatusWord.success.bytes)
        case .reply: return .response(StatusWord.failed.bytes)
        }
    }

    /// UPDATE BINARY (PC/SC Part 3 v2.02, 3.2.2.1.9) of a Type 2 tag: a WRITE (A2h) of the 4
    /// data bytes to page P2 (P1 00; ACR122U API 2.04, 5.4: 4 bytes for MIFARE Ultralight).
    /// `90 00` on the tag's ACK, `63 00` otherwise. `6A 81` for an ISO-DEP tag.
    mutating func updateBinary(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        guard let tag = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        guard case .type2 = tag else { return .response(StatusWord.functionNotSupported.bytes) }
        guard command.p1 == 0x00, command.data.count == 4, command.expectedLength == nil else {
            return .response(StatusWord.failed.bytes)
        }
        switch Self.exchangeFrame([0xA2, command.p2] + command.data, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.answer(.ack)): return .response(StatusWord.success.bytes)
        case .reply: return .response(StatusWord.failed.bytes)
        }
    }

    /// LOAD KEYS (PC/SC Part 3 v2.02, 3.2.2.1.4) into volatile slot 00 or 01 (the ACR122U's
    /// two): `90 00`; other slots or key structures `63 00`. Keys serve MIFARE Classic only.
    func loadKey(_ command: CommandAPDU) -> [UInt8] {
        guard command.p1 == 0x00, command.p2 <= 0x01, command.data.count == 6 else { return StatusWord.failed.bytes }
        return StatusWord.success.bytes
    }

    /// GENERAL AUTHENTICATE (`86`) and the obsolete AUTHENTICATE (`88`): MIFARE Classic
    /// Crypto1, which no simulated tag has (`63 00`, as a reader answers for an Ultralight;
    /// `6A 81` for an ISO-DEP tag).
    func generalAuthenticate(_ field: SimulatedField) -> [UInt8] {
        if case .type4? = activeTag(field) { return StatusWord.functionNotSupported.bytes }
        return StatusWord.failed.bytes
    }
}
