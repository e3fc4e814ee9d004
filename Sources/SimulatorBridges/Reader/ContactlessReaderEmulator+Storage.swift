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

    /// READ BINARY (PC/SC Part 3 v2.02, 3.2.2.1.8) of a Type 2 tag or a MIFARE Classic card:
    /// one READ (30h) of the page or block P2 (P1 00), the first Le bytes of its 16 (Le 1 to
    /// 16; `63 00` otherwise, or when the tag answers a NAK, nothing, or a corrupted frame).
    /// A Classic card answers only in a sector GENERAL AUTHENTICATE opened. `6A 81` for an
    /// ISO-DEP tag.
    mutating func readBinary(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        guard let tag = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        if case .type4 = tag { return .response(StatusWord.functionNotSupported.bytes) }
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

    /// UPDATE BINARY (PC/SC Part 3 v2.02, 3.2.2.1.9): for a Type 2 tag a WRITE (A2h) of the 4
    /// data bytes to page P2 (P1 00; ACR122U API 2.04, 5.4: 4 bytes for MIFARE Ultralight);
    /// for a MIFARE Classic card a WRITE (A0h) of the 16 data bytes to block P2 (16 bytes for
    /// MIFARE 1K/4K). `90 00` on the tag's ACK, `63 00` otherwise. `6A 81` for an ISO-DEP tag.
    mutating func updateBinary(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        guard let tag = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        let frame: [UInt8]
        switch tag {
        case .type4: return .response(StatusWord.functionNotSupported.bytes)
        case .type2: frame = [0xA2, command.p2] + command.data
        case .classic: frame = MifareClassicCommand.writeFrame(block: command.p2, data: command.data)
        }
        let length = tag.classicTag == nil ? 4 : 16
        guard command.p1 == 0x00, command.data.count == length, command.expectedLength == nil else {
            return .response(StatusWord.failed.bytes)
        }
        switch Self.exchangeFrame(frame, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.answer(.ack)): return .response(StatusWord.success.bytes)
        case .reply: return .response(StatusWord.failed.bytes)
        }
    }

    /// LOAD KEYS (PC/SC Part 3 v2.02, 3.2.2.1.4) into volatile slot 00 or 01 (the ACR122U's
    /// two; P1 00, "key structure: card key, plain transmission, volatile memory"): `90 00`;
    /// other slots or key structures `63 00`. Keys serve MIFARE Classic only.
    mutating func loadKey(_ command: CommandAPDU) -> [UInt8] {
        guard command.p1 == 0x00, command.p2 <= 0x01, command.data.count == 6 else { return StatusWord.failed.bytes }
        keySlots[command.p2] = Array(command.data)
        return StatusWord.success.bytes
    }

    /// GENERAL AUTHENTICATE (PC/SC Part 3 v2.02, 3.2.2.1.6): data `01 00 block keyType slot`
    /// (version 01, block number MSB and LSB, key type 60h key A or 61h key B, a key slot LOAD
    /// KEYS filled). The reader runs the MIFARE Classic authentication with the UID's last
    /// four bytes: `90 00` when the card accepts it, `63 00` otherwise (and for an empty
    /// slot); `6A 81` for an ISO-DEP tag.
    mutating func generalAuthenticate(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        let data = Array(command.data)
        guard data.count == 5, data[0] == 0x01, data[1] == 0x00 else { return .response(StatusWord.failed.bytes) }
        return authenticate(block: data[2], keyType: data[3], slot: data[4], &field)
    }

    /// The obsolete AUTHENTICATE `FF 88 00 block keyType slot` (ACR122U API 2.04, 5.2), which
    /// is no valid ISO APDU (its "Lc" is the key type).
    mutating func obsoleteAuthenticate(_ apdu: [UInt8], _ field: inout SimulatedField) -> Outcome {
        guard apdu.count == 6, apdu[2] == 0x00 else { return .response(StatusWord.failed.bytes) }
        return authenticate(block: apdu[3], keyType: apdu[4], slot: apdu[5], &field)
    }

    /// Authenticates `block` of the activated Classic card with the key of `slot`.
    private mutating func authenticate(
        block: UInt8, keyType: UInt8, slot: UInt8, _ field: inout SimulatedField
    ) -> Outcome {
        guard let tag = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        if case .type4 = tag { return .response(StatusWord.functionNotSupported.bytes) }
        guard tag.classicTag != nil, keyType == 0x60 || keyType == 0x61, let key = keySlots[slot] else {
            return .response(StatusWord.failed.bytes)
        }
        let frame = MifareClassicCommand.authenticationFrame(
            keyB: keyType == 0x61, block: block, key: key, uid: tag.uid)
        switch Self.exchangeFrame(frame, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.answer(.ack)): return .response(StatusWord.success.bytes)
        case .reply: return .response(StatusWord.failed.bytes)
        }
    }
}
