import NFCSession
import NFCWireFormat
import TagMemory
import TagSimulator

/// What a PC/SC contactless reader shows of the tags in its field: the card it activates, the
/// ATR it builds for it, and its answers to APDUs (PC/SC Part 3 storage-card commands, the
/// pass-through of its ``ContactlessReaderProfile``, and APDUs for an ISO-DEP tag).
///
/// A pure state machine over a ``TagSimulator/SimulatedField``: nothing here sleeps, touches
/// files or sockets. ``VirtualPCDCard`` drives it from the `vpcd` wire protocol.
///
/// Activation (``powerOn(_:)``, a card reset): the field goes off and on, and the reader
/// selects the first tag of the field (ISO/IEC 14443-3 6.4, and RATS for an ISO-DEP tag).
/// With two tags in the field, the reader shows only the one anticollision settles on, as an
/// ACR122U does (it lists one target, `InListPassiveTarget` with MaxTg 1); the other is
/// reachable only through Direct Transmit `InListPassiveTarget` with MaxTg 2 and `InSelect`.
/// The reader does not select the tag again by itself: after a NAK, which sends an NTAG back
/// to IDLE, every tag command fails until the client resets the card (`SCardReconnect` with
/// `SCARD_RESET_CARD`), as with a real reader.
///
/// Answers to failures (status words, `ReaderStatus`):
/// - `63 00` for a card operation that fails (a NAK, no answer, a CRC error), as the ACR122U
///   answers them (ACR122U API 2.04, 4.1 and 5.x), and for an APDU of another class than `FF`
///   to a Type 2 tag, which has no ISO-DEP layer.
/// - `6A 81` for a command this reader or the card in the field does not support (GET DATA
///   of the ATS for a tag without ISO-DEP, storage commands for an ISO-DEP tag, a
///   pass-through the profile lacks).
/// - `6D 00` for an unknown instruction of class `FF`; `67 00` for a pseudo-APDU whose Lc
///   disagrees with its length.
///
/// A corrupted answer of an ISO-DEP tag (``TagSimulator/SimulatedField/Faults/corruptEveryNthResponse``)
/// is repaired the way ISO/IEC 14443-4 (7.5.4, rule 4 and PICC rule 11) does it: the reader
/// sends R(NAK) and the tag sends its last block again, so the client receives the intact
/// response. A corrupted Type 2 answer is a CRC error the reader reports.
public struct ContactlessReaderEmulator: Sendable {
    /// What the reader does with one APDU.
    public enum Outcome: Sendable, Hashable {
        /// The response APDU.
        case response([UInt8])
        /// The tags left the field during the command (the field's
        /// ``TagSimulator/SimulatedField/Faults/removeAfterCommands`` fault): the card is gone
        /// and the command gets no answer.
        case tagLeft
    }

    /// The pass-through and vendor commands answered.
    public let profile: ContactlessReaderProfile
    /// The UID of the tag the reader activated, until the card is powered off.
    public internal(set) var activeUID: [UInt8]?
    /// The ACR122U's LED state (bit 0 red, bit 1 green), as `FF 00 40` reports it.
    public internal(set) var ledState: UInt8 = 0
    /// The LED and buzzer commands (`FF 00 40`) answered, in order.
    public internal(set) var lightCommands: [ACR122ULightCommand] = []
    /// The keys LOAD KEYS put in the reader's volatile slots 00 and 01, by slot. They stay
    /// while the reader is powered, across cards, as in a real reader.
    var keySlots: [UInt8: [UInt8]] = [:]
    /// The emulated PN532 behind Direct Transmit.
    var pn532 = PN532Emulation()
    /// The PC/SC 2.02 transparent session.
    var transparent = TransparentSession()

    /// A reader with `profile`, no card activated.
    public init(profile: ContactlessReaderProfile = .combined) {
        self.profile = profile
    }

    // MARK: - Card power

    /// The card is powered up or reset: the field goes off and on and the reader activates the
    /// first tag in it. The PN532 registers and the transparent session start afresh.
    ///
    /// - Returns: the activated tag, nil when the field holds none.
    @discardableResult
    public mutating func powerOn(_ field: inout SimulatedField) -> SimulatedTag? {
        field.fieldOff()
        field.fieldOn()
        pn532 = PN532Emulation()
        transparent = TransparentSession()
        guard let tag = field.tags.first, field.select(uid: tag.uid) else {
            activeUID = nil
            return nil
        }
        activeUID = tag.uid
        pn532.targets = [tag.uid]
        return tag
    }

    /// The card is powered down: the field goes off and on (the tags wait in IDLE) and nothing
    /// is activated. The tags stay in the field: the card is still present.
    public mutating func powerOff(_ field: inout SimulatedField) {
        field.fieldOff()
        field.fieldOn()
        activeUID = nil
        pn532 = PN532Emulation()
        transparent = TransparentSession()
    }

    /// The ATR the reader reports: that of the activated tag, else of the tag it would
    /// activate (the first in the field); nil when the field holds no tag.
    public func answerToReset(_ field: SimulatedField) -> [UInt8]? {
        let tag = activeTag(field) ?? field.tags.first
        return tag.map(Self.answerToReset(for:))
    }

    /// The activated tag, while it is in the field.
    func activeTag(_ field: SimulatedField) -> SimulatedTag? {
        guard let activeUID else { return nil }
        return field.tags.first { $0.uid == activeUID }
    }

    // MARK: - APDUs

    /// Answers one command APDU.
    public mutating func respond(to apdu: [UInt8], in field: inout SimulatedField) -> Outcome {
        guard let first = apdu.first, first == 0xFF else { return passToCard(apdu, &field) }
        // The obsolete AUTHENTICATE `FF 88 00 block type slot` is no valid ISO APDU (its "Lc" is
        // the key type): readers take it as it is (ACR122U API 2.04, 5.2).
        if apdu.count == 6, apdu[1] == 0x88 { return obsoleteAuthenticate(apdu, &field) }
        // The reader's own commands come in the short form only.
        guard let command = CommandAPDU(apdu), !command.isExtended else {
            return .response(StatusWord.wrongLength.bytes)
        }
        switch command.ins {
        case 0xCA: return .response(getData(command, field))
        case 0xB0: return readBinary(command, &field)
        case 0xD6: return updateBinary(command, &field)
        case 0x82: return .response(loadKey(command))
        case 0x86: return generalAuthenticate(command, &field)
        case 0x00: return vendorCommand(command, &field)
        case 0xC2:
            guard profile.supportsTransparentExchange else { return .response(StatusWord.functionNotSupported.bytes) }
            return transparentCommand(command, &field)
        default: return .response(StatusWord.instructionNotSupported.bytes)
        }
    }

    /// An APDU of another class than `FF`: to the ISO-DEP tag; a Type 2 tag has no ISO-DEP
    /// layer (`63 00`, as an ACR122U answers).
    private mutating func passToCard(_ apdu: [UInt8], _ field: inout SimulatedField) -> Outcome {
        guard case .type4? = activeTag(field) else { return .response(StatusWord.failed.bytes) }
        switch Self.exchangeAPDU(apdu, &field) {
        case .tagLeft: return .tagLeft
        case .answer(let response): return .response(response)
        case .silent: return .response(StatusWord.failed.bytes)
        }
    }

    /// What an APDU to the selected ISO-DEP tag brought back.
    enum APDUExchange: Sendable, Hashable {
        case answer([UInt8])
        case silent
        case tagLeft
    }

    /// Sends `apdu` to the selected tag; a corrupted response is repaired by the ISO-DEP
    /// retransmission (the field inverts the first byte of a corrupted response APDU).
    static func exchangeAPDU(_ apdu: [UInt8], _ field: inout SimulatedField) -> APDUExchange {
        let wasOut = field.tagsHaveLeft
        let reply = field.transceiveAPDU(apdu)
        if field.tagsHaveLeft, !wasOut { return .tagLeft }
        switch reply {
        case .answer(let response): return .answer(response)
        case .corrupted(var response):
            if !response.isEmpty { response[0] ^= 0xFF }
            return .answer(response)
        case .silent: return .silent
        }
    }

    /// What a Type 2 frame to the selected tag brought back.
    enum FrameExchange: Sendable, Hashable {
        case reply(SimulatedFieldReply<SimulatedType2Response>)
        case tagLeft
    }

    /// Sends the Type 2 `frame` (without CRC) to the selected tag.
    static func exchangeFrame(_ frame: [UInt8], _ field: inout SimulatedField) -> FrameExchange {
        let wasOut = field.tagsHaveLeft
        let reply = field.transceive(frame)
        if field.tagsHaveLeft, !wasOut { return .tagLeft }
        return .reply(reply)
    }
}

extension ContactlessReaderEmulator {
    /// The historical bytes of a storage card's ATR up to the card name (PC/SC Part 3 v2.02,
    /// 3.1.3.2.3.1): category indicator 80, application identifier 4F 0C, RID A0 00 00 03 06
    /// (PC/SC workgroup), standard 03 (ISO/IEC 14443 A part 3).
    static let storageCardPrefix: [UInt8] = [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03]

    /// The card name of every Type 2 chip: 00 03, MIFARE Ultralight. Readers tell cards apart
    /// by SAK alone, and SAK 00 is the Ultralight family, NTAG21x and Ultralight C included.
    static let ultralightCardName: [UInt8] = [0x00, 0x03]

    /// The card name of a MIFARE Classic card (PC/SC Part 3 supplement, "Card names"): 00 01
    /// 1K, 00 02 4K, 00 26 Mini; a MIFARE Plus 2K shows as 1K.
    static func cardName(of type: MifareClassicType) -> [UInt8] {
        switch type {
        case .classic1K, .classic2K: [0x00, 0x01]
        case .classic4K: [0x00, 0x02]
        case .mini: [0x00, 0x26]
        }
    }

    /// The ATR a PC/SC reader builds for `tag` (PC/SC Part 3 v2.02, 3.1.3.2.3):
    /// - a Type 2 tag, a storage card: `3B 8F 80 01` + `80 4F 0C A0 00 00 03 06 03 00 03 00 00
    ///   00 00` + TCK, that is `3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68`;
    /// - a MIFARE Classic card, the same with its card name (`cardName(of:)`): `... 03 00 01
    ///   00 00 00 00 6A` for a 1K;
    /// - an ISO-DEP tag: `3B 8n 80 01`, the n (at most 15) historical bytes of its ATS, TCK;
    ///   `3B 81 80 01 80 80` for an NTAG 424 DNA (ATS `06 77 77 71 02 80`).
    ///
    /// T0 8n announces TD1 and n historical bytes; TD1 80 announces TD2 with T=0; TD2 01 is
    /// T=1; TCK is the exclusive-or of every byte from T0 to the last (ISO/IEC 7816-3 8.2.5).
    public static func answerToReset(for tag: SimulatedTag) -> [UInt8] {
        let historical: [UInt8] =
            switch tag {
            case .type2: storageCardPrefix + ultralightCardName + [0x00, 0x00, 0x00, 0x00]
            case .classic(let tag): storageCardPrefix + cardName(of: tag.type) + [0x00, 0x00, 0x00, 0x00]
            case .type4(let tag): Array(historicalBytes(ofATS: tag.ats).prefix(15))
            }
        let body: [UInt8] = [0x80 | UInt8(truncatingIfNeeded: historical.count), 0x80, 0x01] + historical
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    /// The historical bytes T1...Tk of an ATS (ISO/IEC 14443-4 5.2): after TL, T0 and the
    /// interface bytes TA1, TB1, TC1 that T0 announces (bits 5, 6, 7), up to TL bytes.
    static func historicalBytes(ofATS ats: [UInt8]) -> [UInt8] {
        guard ats.count >= 2 else { return [] }
        let end = min(Int(ats[0]), ats.count)
        var start = 2
        for bit: UInt8 in [0x10, 0x20, 0x40] where ats[1] & bit != 0 { start += 1 }
        guard start < end else { return [] }
        return Array(ats[start..<end])
    }
}

// MARK: - ContactlessReaderProfile

/// Which of the commands PC/SC contactless readers offer besides the standard storage-card
/// APDUs a ``ContactlessReaderEmulator`` answers.
///
/// Every profile answers PC/SC Part 3 (v2.02, 3.2.2.1) GET DATA, READ BINARY, UPDATE BINARY,
/// LOAD KEYS and GENERAL AUTHENTICATE, and passes every APDU of another class than `FF` to an
/// ISO-DEP (Type 4) tag. The profiles differ in the pass-through they offer for raw tag
/// commands (PWD_AUTH, GET_VERSION, READ_SIG, FAST_READ):
/// - ``acr122u``: the ACS ACR122U (firmware 2.07): Direct Transmit to its PN532
///   (`FF 00 00 00 Lc D4 ...`), firmware version, LED and buzzer commands; no PC/SC 2.02
///   transparent session (`FF C2` answers `6A 81`).
/// - ``pcsc202``: a reader implementing PC/SC Part 3 v2.02 Manage Session and Transparent
///   Exchange (`FF C2 00 00`, `FF C2 00 01`, `FF C2 00 02`), as the ACS ACR1252U and ACR1552U
///   do; no PN532 Direct Transmit (`FF 00` answers `6A 81`).
/// - ``combined`` (the default): both, so that a client can be tested against either path
///   with one reader; no single real reader answers both the PN532 frames and `FF C2`.
public struct ContactlessReaderProfile: Sendable, Hashable, CustomStringConvertible {
    /// The name, as the command line takes it.
    public var name: String
    /// Whether `FF 00 00 00 Lc D4 ...` reaches an emulated PN532 (ACR122U Direct Transmit).
    public var supportsDirectTransmit: Bool
    /// Whether the PC/SC 2.02 transparent session commands (`FF C2`) are answered.
    public var supportsTransparentExchange: Bool
    /// The firmware version `FF 00 48 00 00` answers (ASCII, without status word, as the
    /// ACR122U does); nil: that command and the LED and buzzer commands answer `6A 81`.
    public var firmwareVersion: String?

    /// Creates a profile.
    public init(
        name: String, supportsDirectTransmit: Bool, supportsTransparentExchange: Bool, firmwareVersion: String?
    ) {
        self.name = name
        self.supportsDirectTransmit = supportsDirectTransmit
        self.supportsTransparentExchange = supportsTransparentExchange
        self.firmwareVersion = firmwareVersion
    }

    /// An ACS ACR122U with firmware 2.07 (ACR122U API 2.04).
    public static let acr122u = ContactlessReaderProfile(
        name: "acr122u", supportsDirectTransmit: true, supportsTransparentExchange: false,
        firmwareVersion: "ACR122U207")

    /// A PC/SC Part 3 v2.02 reader with a transparent session and no vendor commands.
    public static let pcsc202 = ContactlessReaderProfile(
        name: "pcsc202", supportsDirectTransmit: false, supportsTransparentExchange: true, firmwareVersion: nil)

    /// Both pass-throughs, with the ACR122U's vendor commands.
    public static let combined = ContactlessReaderProfile(
        name: "combined", supportsDirectTransmit: true, supportsTransparentExchange: true,
        firmwareVersion: "ACR122U207")

    /// Every predefined profile, in the order the command line lists them.
    public static let all: [ContactlessReaderProfile] = [.combined, .acr122u, .pcsc202]

    /// The predefined profile named `name`.
    public static func named(_ name: String) -> ContactlessReaderProfile? {
        all.first { $0.name == name.lowercased() }
    }

    public var description: String { name }
}

// MARK: - Vendor

extension ContactlessReaderEmulator {
    /// The ACR122U's pseudo-APDUs of instruction `00` (ACR122U API 2.04, sections 6 and 7):
    /// - `FF 00 00 00 Lc D4 ...` Direct Transmit: the PN532 command's response frame
    ///   (`D5 ...`) followed by `90 00` (``PN532Emulation``); `63 00` for a payload the PN532
    ///   does not take.
    /// - `FF 00 48 00 00` firmware version: the ASCII version alone, without status word
    ///   (`ACR122U207`).
    /// - `FF 00 40 P2 04 T1 T2 N L` Bi-Color LED and Buzzer Control (6.2): `90` and the LED state
    ///   after the command; each command is recorded in ``lightCommands``.
    /// - `FF 00 51 P2 00` PICC operating parameter: `90 P2`; `FF 00 52 P2 00` buzzer on card
    ///   detection: `90 00`.
    /// Any other P1, or a profile without these commands: `6A 81`.
    mutating func vendorCommand(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        if command.p1 == 0x00, command.p2 == 0x00 {
            guard profile.supportsDirectTransmit else { return .response(StatusWord.functionNotSupported.bytes) }
            guard command.hasCommandData else { return .response(StatusWord.failed.bytes) }
            var activated = activeUID
            let result = pn532.execute(Array(command.data), field: &field, activeUID: &activated)
            activeUID = activated
            switch result {
            case .response(let frame): return .response(frame + StatusWord.success.bytes)
            case .notSupported: return .response(StatusWord.failed.bytes)
            case .tagLeft: return .tagLeft
            }
        }
        guard let firmwareVersion = profile.firmwareVersion else {
            return .response(StatusWord.functionNotSupported.bytes)
        }
        switch command.p1 {
        case 0x48: return .response(Array(firmwareVersion.utf8))
        case 0x40:
            guard command.data.count == 4 else { return .response(StatusWord.failed.bytes) }
            let data = Array(command.data)
            let light = ACR122ULightCommand(
                control: command.p2, t1: data[0], t2: data[1], repetitions: data[2], buzzer: data[3])
            lightCommands.append(light)
            ledState = light.ledState(after: ledState)
            return .response([0x90, ledState])
        case 0x51: return .response([0x90, command.p2])
        case 0x52: return .response(StatusWord.success.bytes)
        default: return .response(StatusWord.functionNotSupported.bytes)
        }
    }

    /// The LED state after an LED control byte (ACR122U API 2.04, 6.2): bit 0 final red state,
    /// bit 1 final green state, bit 2 red state mask, bit 3 green state mask (only masked LEDs
    /// change).
    static func ledState(after control: UInt8, from state: UInt8) -> UInt8 {
        ACR122ULightCommand(control: control, t1: 0, t2: 0, repetitions: 0, buzzer: 0).ledState(after: state)
    }
}

extension ContactlessReaderEmulator {
    /// `FF C2`: the PC/SC 2.02 transparent session (``TransparentSession``).
    mutating func transparentCommand(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        var activated = activeUID
        let outcome = transparent.run(command, &field, &activated)
        activeUID = activated
        return outcome
    }
}
