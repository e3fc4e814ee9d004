import NFCWireFormat
import TagSimulator

/// The NXP PN532 behind an ACR122U's Direct Transmit (`FF 00 00 00 Lc D4 ...`): the commands a
/// host sends to reach a tag's raw commands, with the PN532's response frames (PN532 User
/// Manual UM0701, section 7; the ACR122U passes them through, ACR122U API 2.04 section 7).
///
/// Commands answered: Diagnose (00: tests 00 communication line, 01 ROM, 02 RAM, 06 card
/// presence), GetFirmwareVersion (02: IC 32, version 1.6, support 07), GetGeneralStatus
/// (04), ReadRegister (06), WriteRegister (08), SetParameters (12; bit 4 fAutomaticRATS is
/// honoured), SAMConfiguration (14),
/// RFConfiguration (32; item 01 switches the field), InListPassiveTarget (4A; 106 kbit/s Type A
/// only, other modulations list no target), InDataExchange (40), InCommunicateThru (42),
/// InDeselect (44), InRelease (52), InSelect (54), InAutoPoll (60, 106 kbit/s Type A types).
/// Any other payload is ``Result/notSupported`` (the reader answers `63 00`).
///
/// Status bytes (UM0701 table 15): 00 success, 01 time-out (the tag did not answer), 02 CRC
/// error, 14 MIFARE error, 27 command not acceptable in this context.
///
/// Registers modelled (the rest read back what was written, 00 by default): CIU_TxMode 6302h
/// and CIU_RxMode 6303h bit 7 (TxCRCEn, RxCRCEn; on after activation), CIU_BitFraming 633Dh
/// bits 2-0 (TxLastBits) and CIU_Control 633Ch bits 2-0 (RxLastBits of the last answer).
struct PN532Emulation: Sendable {
    /// What a command does.
    enum Result: Sendable, Hashable {
        /// The PN532's response frame, from its `D5` on.
        case response([UInt8])
        /// A payload the PN532 does not take.
        case notSupported
        /// The tags left the field during the command.
        case tagLeft
    }

    static let txMode: UInt16 = 0x6302
    static let rxMode: UInt16 = 0x6303
    static let control: UInt16 = 0x633C
    static let bitFraming: UInt16 = 0x633D
    static let fifoData: UInt16 = 0x6339
    /// Bit 7 of CIU_TxMode and CIU_RxMode: the CIU appends (checks and strips) CRC_A.
    static let crcEnable: UInt8 = 0x80

    /// The registers written, with the defaults of an activated 106 kbit/s Type A target.
    var registers: [UInt16: UInt8] = [txMode: 0x80, rxMode: 0x80, bitFraming: 0x00]
    /// The number of valid bits in the last byte of the last answer (0: all 8).
    var rxLastBits: UInt8 = 0
    /// The UIDs of the listed targets, Tg 1 first.
    var targets: [[UInt8]] = []
    /// The flags of SetParameters (UM0701 7.2.9); bit 4, fAutomaticRATS, is on by default.
    var parameters: UInt8 = 0x14
    /// The ISO-DEP block protocol of a Type 4 target reached through InCommunicateThru.
    var isoDEP = ISODEPBlockLink()

    /// Whether InListPassiveTarget sends RATS to an ISO-DEP target by itself (SetParameters
    /// bit 4, fAutomaticRATS); nfcpy turns it off and sends RATS through InCommunicateThru.
    var sendsRATS: Bool { parameters & 0x10 != 0 }

    var appendsCRC: Bool { (registers[Self.txMode] ?? 0) & Self.crcEnable != 0 }
    var checksCRC: Bool { (registers[Self.rxMode] ?? 0) & Self.crcEnable != 0 }

    /// Runs the PN532 command in `payload` (`D4` and the command code first).
    mutating func execute(_ payload: [UInt8], field: inout SimulatedField, activeUID: inout [UInt8]?) -> Result {
        guard payload.count >= 2, payload[0] == 0xD4 else { return .notSupported }
        let arguments = Array(payload.dropFirst(2))
        switch payload[1] {
        case 0x00: return diagnose(arguments, field)
        case 0x02: return .response([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07])
        case 0x04: return .response(generalStatus(field))
        case 0x06: return readRegisters(arguments)
        case 0x08: return writeRegisters(arguments)
        case 0x12:
            guard let flags = arguments.first, arguments.count == 1 else { return .notSupported }
            parameters = flags
            return .response([0xD5, 0x13])
        case 0x14: return arguments.isEmpty ? .notSupported : .response([0xD5, 0x15])
        case 0x32: return rfConfiguration(arguments, &field)
        case 0x4A: return listPassiveTargets(arguments, &field, &activeUID)
        case 0x60: return autoPoll(arguments, &field, &activeUID)
        case 0x40: return dataExchange(arguments, &field)
        case 0x42: return communicateThru(arguments, &field)
        case 0x44, 0x52, 0x54:
            guard arguments.count == 1 else { return .notSupported }
            let tg = arguments[0]
            let status =
                switch payload[1] {
                case 0x44: deselect(tg, &field)
                case 0x52: release(tg, &field)
                default: select(tg, &field, &activeUID)
                }
            return .response([0xD5, payload[1] + 1, status])
        default: return .notSupported
        }
    }

    /// Diagnose (UM0701 7.2.1): test 00 (communication line) echoes NumTst and its data; the
    /// ROM (01) and RAM (02) tests pass (status 00); test 06 (card presence, ISO/IEC 14443-4)
    /// answers 00 while the selected ISO-DEP target is in the field, 01 (time-out) otherwise.
    /// Other tests are not simulated.
    private func diagnose(_ arguments: [UInt8], _ field: SimulatedField) -> Result {
        guard let test = arguments.first else { return .notSupported }
        switch test {
        case 0x00: return .response([0xD5, 0x01] + arguments)
        case 0x01, 0x02: return .response([0xD5, 0x01, 0x00])
        case 0x06:
            guard case .type4? = field.selectedTag else { return .response([0xD5, 0x01, 0x01]) }
            return .response([0xD5, 0x01, 0x00])
        default: return .notSupported
        }
    }

    /// GetGeneralStatus (UM0701 7.2.3): no error, no external field, the selected target at
    /// 106 kbit/s Type A, SAM status 80.
    private func generalStatus(_ field: SimulatedField) -> [UInt8] {
        let current = targets.firstIndex { $0 == field.selectedUID }
        let entries: [UInt8] = current.map { [0x01, UInt8(truncatingIfNeeded: $0 + 1), 0x00, 0x00, 0x00] } ?? [0x00]
        return [0xD5, 0x05, 0x00, 0x00] + entries + [0x80]
    }

    private func readRegisters(_ arguments: [UInt8]) -> Result {
        guard !arguments.isEmpty, arguments.count.isMultiple(of: 2) else { return .notSupported }
        var values: [UInt8] = []
        for index in stride(from: 0, to: arguments.count, by: 2) {
            let address = UInt16(arguments[index]) << 8 | UInt16(arguments[index + 1])
            values.append(address == Self.control ? 0x10 | rxLastBits : registers[address] ?? 0x00)
        }
        return .response([0xD5, 0x07] + values)
    }

    private mutating func writeRegisters(_ arguments: [UInt8]) -> Result {
        guard !arguments.isEmpty, arguments.count.isMultiple(of: 3) else { return .notSupported }
        for index in stride(from: 0, to: arguments.count, by: 3) {
            let address = UInt16(arguments[index]) << 8 | UInt16(arguments[index + 1])
            registers[address] = arguments[index + 2]
        }
        return .response([0xD5, 0x09])
    }

    /// RFConfiguration (UM0701 7.3.1): item 01 bit 0 switches the field (the tags power down
    /// when it goes off); the timing and retry items are accepted and ignored.
    private func rfConfiguration(_ arguments: [UInt8], _ field: inout SimulatedField) -> Result {
        guard let item = arguments.first else { return .notSupported }
        if item == 0x01, arguments.count >= 2 {
            if arguments[1] & 0x01 == 0 { field.fieldOff() } else { field.fieldOn() }
        }
        return .response([0xD5, 0x33])
    }

    /// InListPassiveTarget (UM0701 7.3.5) at 106 kbit/s Type A: REQA and anticollision
    /// (``TagSimulator/SimulatedField/poll(_:limit:uid:)``: halted tags do not answer, tags
    /// beyond MaxTg stay IDLE for the next one), up to MaxTg (1 or 2) targets, the first one
    /// selected; for each: Tg, SENS_RES (most significant byte first), SEL_RES, NFCID1 length
    /// and NFCID1, and the ATS of an ISO-DEP tag (not when fAutomaticRATS is off: the host
    /// then sends RATS itself). Initiator data, when given, is the UID to look for, with its
    /// cascade tags (88h) as ISO/IEC 14443-3 6.5.4 sends it (libnfc and nfcpy add them for a
    /// 7-byte UID) or without; that card is woken with WUPA, so that a card the host put to
    /// HALT (InDeselect) or that a refused MIFARE Classic authentication left there answers:
    /// libfreefare reconnects this way before each sector (connect, authenticate, disconnect),
    /// which works with real PN532 readers. Without initiator data the PN532 sends REQA, so
    /// that libnfc's list (select, InDeselect, select again) finds each card once. The PN532 switches the field on for it when it is off, and
    /// leaves the CIU set for 106 kbit/s Type A with CRC_A on (CIU_TxMode and CIU_RxMode 80h,
    /// whatever the host wrote there before: nfcpy reads them back and changes only the bits
    /// it needs). When no tag answers, CIU_FIFOData still holds the REQA that went out (26h;
    /// nfcpy reads it to tell "no tag" from a Type 1 tag).
    private mutating func listPassiveTargets(
        _ arguments: [UInt8], _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Result {
        guard arguments.count >= 2, arguments[0] == 1 || arguments[0] == 2 else { return .notSupported }
        guard arguments[1] == 0x00 else { return .response([0xD5, 0x4B, 0x00]) }
        let wanted = arguments.count > 2 ? Self.withoutCascadeTags(Array(arguments.dropFirst(2))) : nil
        prepareTypeA(&field)
        let listed = field.poll(wanted == nil ? .reqa : .wupa, limit: Int(arguments[0]), uid: wanted)
        guard activate(listed, &field, &activeUID) else { return .response([0xD5, 0x4B, 0x00]) }
        var frame: [UInt8] = [0xD5, 0x4B, UInt8(truncatingIfNeeded: listed.count)]
        for (index, tag) in listed.enumerated() {
            frame += Self.targetData(tag, number: index + 1, withATS: sendsRATS)
        }
        return .response(frame)
    }

    /// Before a 106 kbit/s Type A activation: the field on, the CIU set for Type A with CRC_A.
    mutating func prepareTypeA(_ field: inout SimulatedField) {
        if !field.isOn { field.fieldOn() }
        registers[Self.txMode] = Self.crcEnable
        registers[Self.rxMode] = Self.crcEnable
        registers[Self.bitFraming] = 0x00
    }

    /// Makes `listed` the targets, Tg 1 first, and selects the first; false when there is
    /// none (CIU_FIFOData then holds the REQA).
    mutating func activate(
        _ listed: [SimulatedTag], _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Bool {
        targets = listed.map(\.uid)
        isoDEP = ISODEPBlockLink()
        guard let first = listed.first, field.select(uid: first.uid) else {
            registers[Self.fifoData] = 0x26
            return false
        }
        activeUID = first.uid
        return true
    }

    /// A target's data for 106 kbit/s Type A (UM0701 7.3.5): Tg, SENS_RES (most significant
    /// byte first), SEL_RES, NFCID1 length, NFCID1, and the ATS when asked for and there is one.
    static func targetData(_ tag: SimulatedTag, number: Int, withATS: Bool) -> [UInt8] {
        [UInt8(truncatingIfNeeded: number)] + tag.atqa.reversed() + [tag.sak, UInt8(truncatingIfNeeded: tag.uid.count)]
            + tag.uid + (withATS ? tag.ats ?? [] : [])
    }

    /// A UID as InListPassiveTarget's initiator data gives it, without the cascade tags of a
    /// 7-byte (`88 u0 u1 u2 u3 ...`) or 10-byte UID (`88 u0 u1 u2 88 u3 ...`).
    static func withoutCascadeTags(_ data: [UInt8]) -> [UInt8] {
        switch data.count {
        case 8 where data[0] == 0x88: Array(data.dropFirst())
        case 12 where data[0] == 0x88 && data[4] == 0x88: Array(data[1..<4] + data[5...])
        default: data
        }
    }

    /// The listed target `tg` names (bits 5-0), selected: nil when there is no such target or
    /// it cannot be selected.
    private func target(_ tg: UInt8, _ field: inout SimulatedField) -> [UInt8]? {
        let index = Int(tg & 0x3F) - 1
        guard targets.indices.contains(index) else { return nil }
        let uid = targets[index]
        if field.selectedUID != uid, !field.select(uid: uid) { return nil }
        return uid
    }

    /// InDataExchange (UM0701 7.3.8) to a listed target (error 27 for a Tg that names none; a
    /// listed target no longer in the field times out, 01): the PN532 adds and checks CRC_A
    /// and takes the Type 2 ACK itself (status 00, no data); it reports a NAK as a MIFARE
    /// error (14h; unconfirmed: the manual does not say which code a NAK gives) and a
    /// corrupted answer as a CRC error. For a MIFARE Classic card the data are the MIFARE
    /// commands of 7.3.8 (``NFCWireFormat/MifareClassicCommand``): the PN532 runs Crypto-1
    /// itself; a failed authentication is error 14h. For an ISO-DEP target the data is an APDU,
    /// sent in I-blocks.
    private mutating func dataExchange(_ arguments: [UInt8], _ field: inout SimulatedField) -> Result {
        guard let tg = arguments.first else { return .notSupported }
        guard targets.indices.contains(Int(tg & 0x3F) - 1) else { return .response([0xD5, 0x41, 0x27]) }
        // A listed target that left the field does not answer.
        guard target(tg, &field) != nil, let selected = field.selectedTag else {
            return .response([0xD5, 0x41, 0x01])
        }
        let data = Array(arguments.dropFirst())
        if case .type4 = selected {
            switch ContactlessReaderEmulator.exchangeAPDU(data, &field) {
            case .tagLeft: return .tagLeft
            case .answer(let response): return .response([0xD5, 0x41, 0x00] + response)
            case .silent: return .response([0xD5, 0x41, 0x01])
            }
        }
        rxLastBits = 0
        // A MIFARE Classic authentication the card does not complete is the MIFARE
        // authentication error 14h (UM0701 7.1, Table 1), not a time-out.
        let isClassicAuthentication =
            selected.classicTag != nil
            && data.first.flatMap(MifareClassicCommand.init(opcode:))?.isAuthentication == true
        switch ContactlessReaderEmulator.exchangeFrame(data, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.silent), .reply(.answer(.silent)), .reply(.corrupted(.silent)):
            return .response([0xD5, 0x41, isClassicAuthentication ? 0x14 : 0x01])
        case .reply(.answer(.data(let bytes))): return .response([0xD5, 0x41, 0x00] + bytes)
        case .reply(.corrupted(.data)): return .response([0xD5, 0x41, 0x02])
        case .reply(.answer(.ack)), .reply(.corrupted(.ack)): return .response([0xD5, 0x41, 0x00])
        case .reply(.answer(.nak)), .reply(.corrupted(.nak)): return .response([0xD5, 0x41, 0x14])
        }
    }

    /// InDeselect (UM0701 7.3.10): HLTA (or S(DESELECT)) to the selected target.
    private mutating func deselect(_ tg: UInt8, _ field: inout SimulatedField) -> UInt8 {
        if tg == 0 || targets.indices.contains(Int(tg & 0x3F) - 1) { field.haltSelected() }
        return 0x00
    }

    /// InRelease (UM0701 7.3.11): as InDeselect; Tg 0 releases every target (the list empties).
    private mutating func release(_ tg: UInt8, _ field: inout SimulatedField) -> UInt8 {
        let status = deselect(tg, &field)
        if tg == 0 { targets = [] }
        return status
    }

    /// InSelect (UM0701 7.3.12): selects a listed target again.
    private mutating func select(_ tg: UInt8, _ field: inout SimulatedField, _ activeUID: inout [UInt8]?) -> UInt8 {
        guard let uid = target(tg, &field) else { return 0x27 }
        activeUID = uid
        isoDEP = ISODEPBlockLink()
        return 0x00
    }
}

extension PN532Emulation {
    /// InAutoPoll (UM0701 7.3.13; libnfc's `nfc_initiator_poll_target` on a PN532): PollNr
    /// (01-FE, FF endless), Period (01-0F, units of 150 ms) and 1 to 15 target types. The
    /// 106 kbit/s Type A types are simulated: 00 (generic passive), 10 (MIFARE, which here is
    /// any tag without ISO-DEP) and 20 (ISO/IEC 14443-4A, with its ATS); other types find
    /// nothing. The types are tried in order and the first that finds tags answers, with up
    /// to two targets (as InListPassiveTarget with MaxTg 2, the first one selected): NbTg,
    /// then for each the type found (10 or 20 for a generic search), the length of its target
    /// data and the data of ``targetData(_:number:withATS:)``.
    ///
    /// Simplification: the chip polls once and answers at once; a field without a tag of
    /// those types gives NbTg 0 instead of polling PollNr times for Period (or, with PollNr
    /// FF, until a tag comes).
    mutating func autoPoll(
        _ arguments: [UInt8], _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Result {
        guard arguments.count >= 3, arguments.count <= 17, arguments[0] != 0, (1...0x0F).contains(arguments[1])
        else { return .notSupported }
        prepareTypeA(&field)
        for type in arguments.dropFirst(2) {
            let waiting = field.tags.filter { $0.state == .idle && Self.autoPollType(type, matches: $0) }
            guard !waiting.isEmpty else { continue }
            let listed = waiting.prefix(2).flatMap { field.poll(.reqa, limit: 1, uid: $0.uid) }
            guard activate(listed, &field, &activeUID) else { break }
            var frame: [UInt8] = [0xD5, 0x61, UInt8(truncatingIfNeeded: listed.count)]
            for (index, tag) in listed.enumerated() {
                let isoDEP = tag.ats != nil
                let found: UInt8 = type != 0x00 ? type : (isoDEP ? 0x20 : 0x10)
                let data = Self.targetData(tag, number: index + 1, withATS: found == 0x20)
                frame += [found, UInt8(truncatingIfNeeded: data.count)] + data
            }
            return .response(frame)
        }
        _ = activate([], &field, &activeUID)
        return .response([0xD5, 0x61, 0x00])
    }

    /// Whether a tag is found by the InAutoPoll target type `type`.
    static func autoPollType(_ type: UInt8, matches tag: SimulatedTag) -> Bool {
        switch type {
        case 0x00: true
        case 0x10: tag.ats == nil
        case 0x20: tag.ats != nil
        default: false
        }
    }
}

extension PN532Emulation {
    /// InCommunicateThru (UM0701 7.3.9): the frame goes to the tag as it is, framed by the CIU
    /// registers. With TxCRCEn off the host has appended CRC_A (a wrong one: the tag ignores the
    /// frame); with RxCRCEn off the answer comes with its CRC_A. A 4-bit ACK or NAK fails the
    /// CIU's CRC check while RxCRCEn is on (status 02, as nfcpy's PN53x driver notes); with it
    /// off it arrives as one byte (`0A` for ACK) and CIU_Control reports 4 valid bits.
    /// HLTA (`50 00`) halts the tag, which does not answer (status 01). Frames of fewer than 8
    /// bits in their last byte (TxLastBits, as REQA uses) are not simulated: no tag answers
    /// them (status 01); but the "Gen1a" backdoor of magic MIFARE Classic clones, 40h in 7 bits
    /// then 43h, both without CRC, gets a 4-bit ACK from a card that has it
    /// (``TagSimulator/SimulatedField/receiveBackdoorFrame(_:bits:)``), and nothing from others.
    /// Nor does a Type A tag answer a frame sent with another framing (CIU_TxMode bits 1-0 not
    /// 00: FeliCa or Type B, as libnfc's probes for ST SRx, ASK CTS and iClass cards use). No
    /// data at all only listens (libnfc's probe for a Thinfilm barcode, which talks first):
    /// nothing comes (status 01). A selected Type 4 tag takes ISO/IEC 14443-4 blocks
    /// (``ISODEPBlockLink``: RATS, I-blocks with APDUs, R-blocks, S(DESELECT)).
    mutating func communicateThru(_ arguments: [UInt8], _ field: inout SimulatedField) -> Result {
        rxLastBits = 0
        let timeout = Result.response([0xD5, 0x43, 0x01])
        guard !arguments.isEmpty, (registers[Self.txMode] ?? 0) & 0x03 == 0 else { return timeout }
        let lastBits = (registers[Self.bitFraming] ?? 0) & 0x07
        if !appendsCRC, arguments.count == 1,
            [(0x40, 7), (0x43, 0)].contains(where: { $0 == (arguments[0], lastBits) })
        {
            // The Gen1a backdoor of magic MIFARE Classic clones: a 4-bit ACK from such a card.
            guard field.receiveBackdoorFrame(arguments[0], bits: lastBits == 7 ? 7 : 8) else { return timeout }
            rxLastBits = 4
            return .response(checksCRC ? [0xD5, 0x43, 0x02] : [0xD5, 0x43, 0x00, 0x0A])
        }
        guard lastBits == 0 else { return timeout }
        guard let frame = appendsCRC ? arguments : CRCA.stripping(arguments) else { return timeout }
        if frame == [0x50, 0x00] {
            field.haltSelected()
            return timeout
        }
        if case .type4? = field.selectedTag {
            switch isoDEP.receive(frame, &field) {
            case .tagLeft: return .tagLeft
            case .silent: return timeout
            case .block(let block):
                return .response([0xD5, 0x43, 0x00] + (checksCRC ? block : CRCA.appending(to: block)))
            }
        }
        switch ContactlessReaderEmulator.exchangeFrame(frame, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.silent), .reply(.answer(.silent)), .reply(.corrupted(.silent)): return timeout
        case .reply(.answer(.data(let bytes))):
            return .response([0xD5, 0x43, 0x00] + (checksCRC ? bytes : CRCA.appending(to: bytes)))
        case .reply(.corrupted(.data(let bytes))):
            guard !checksCRC, let first = bytes.first else { return .response([0xD5, 0x43, 0x02]) }
            let sent = [first ^ 0xFF] + bytes.dropFirst()
            return .response([0xD5, 0x43, 0x00] + bytes + CRCA.checksum(sent))
        case .reply(.answer(let nibble)), .reply(.corrupted(let nibble)):
            rxLastBits = 4
            guard !checksCRC else { return .response([0xD5, 0x43, 0x02]) }
            return .response([0xD5, 0x43, 0x00, Self.nibble(nibble)])
        }
    }

    /// The 4-bit answer as the byte the CIU receives: ACK Ah, a NAK its code.
    static func nibble(_ response: SimulatedType2Response) -> UInt8 {
        switch response {
        case .nak(let code): code & 0x0F
        default: 0x0A
        }
    }
}
