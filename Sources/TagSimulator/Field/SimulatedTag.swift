import HexText
import NDEF
import TagMemory

/// A simulated tag of any kind the simulator has, as it sits in a ``SimulatedField``.
///
/// The identity accessors give what a reader learns from ISO/IEC 14443-3 Type A polling: the
/// UID from anticollision (6.5.3), ATQA (SENS_RES, 6.5.2) and SAK (SEL_RES, 6.5.3.4), and for
/// an ISO-DEP tag the ATS it answers to RATS (ISO/IEC 14443-4, 5.2).
public enum SimulatedTag: Sendable {
    /// An NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight family).
    case type2(SimulatedType2Tag)
    /// An NFC Forum Type 4 tag (ISO-DEP with the NDEF Tag Application, an NTAG 424 DNA by default).
    case type4(SimulatedType4Tag)
    /// A MIFARE Classic card (Mini, 1K, 4K).
    case classic(SimulatedClassicTag)

    /// The ATQA every NTAG21x and MIFARE Ultralight answers, 0044h, least significant byte
    /// first as it is received (NTAG213/215/216 9.3 and 9.4, MF0ULX1 7.2, MF0ICU1 7.3).
    public static let type2ATQA: [UInt8] = [0x44, 0x00]

    /// The UID: 7 bytes for the Type 2 chips (bytes 0-2 and 4-7 of the memory, NTAG213/215/216
    /// 8.5.1); 4, 7 or 10 bytes for a Type 4 tag (``SimulatedType4Tag/Configuration/uid``).
    public var uid: [UInt8] {
        switch self {
        case .type2(let tag): tag.uid
        case .type4(let tag): tag.uid
        case .classic(let tag): tag.uid
        }
    }

    /// ATQA / SENS_RES, two bytes as received (least significant byte first): `44 00` for the
    /// Type 2 chips, ``SimulatedType4Tag/Configuration/atqa`` (`44 03` for a 7-byte UID) for a
    /// Type 4 tag.
    public var atqa: [UInt8] {
        switch self {
        case .type2: Self.type2ATQA
        case .type4(let tag): tag.atqa
        case .classic(let tag): tag.atqa
        }
    }

    /// SAK / SEL_RES: 00h for the Type 2 chips (NTAG213/215/216 9.4, MF0ULX1 7.2); 20h for a
    /// Type 4 tag (UID complete, ISO/IEC 14443-4 compliant: ISO/IEC 14443-3, 6.4.3.4).
    public var sak: UInt8 {
        switch self {
        case .type2: 0x00
        case .type4(let tag): tag.sak
        case .classic(let tag): tag.sak
        }
    }

    /// The answer to RATS of an ISO-DEP tag (``SimulatedType4Tag/Configuration/ats``); nil for
    /// a Type 2 tag, which has no ISO-DEP layer.
    public var ats: [UInt8]? {
        switch self {
        case .type2, .classic: nil
        case .type4(let tag): tag.ats
        }
    }

    /// The Type 2 tag, when this is one.
    public var type2Tag: SimulatedType2Tag? {
        if case .type2(let tag) = self { return tag }
        return nil
    }

    /// The Type 4 tag, when this is one.
    public var type4Tag: SimulatedType4Tag? {
        if case .type4(let tag) = self { return tag }
        return nil
    }

    /// The MIFARE Classic card, when this is one.
    public var classicTag: SimulatedClassicTag? {
        if case .classic(let tag) = self { return tag }
        return nil
    }

    /// A one-line description: the chip (for a Type 4 tag: its mapping version and NDEF file
    /// size) and the UID.
    public var summary: String {
        let uidText = Hex.encode(uid, uppercase: true, separator: ":")
        switch self {
        case .type2(let tag):
            return "\(tag.chip.name), UID \(uidText)"
        case .type4(let tag):
            let version = tag.configuration.mappingVersion
            return "Type 4 tag (mapping version \(version >> 4).\(version & 0x0F), "
                + "\(tag.configuration.maximumNDEFFileSize)-byte NDEF file), UID \(uidText)"
        case .classic(let tag):
            return "\(tag.type), UID \(uidText)"
        }
    }

    /// How many frames of each Type 2 command kind the tag received (none for a Type 4 tag).
    public var type2CommandCounts: [SimulatedType2Command: Int] {
        type2Tag?.commandCounts ?? [:]
    }

    /// How many frames of each MIFARE Classic command kind the card received (none for other tags).
    public var classicCommandCounts: [SimulatedClassicCommand: Int] {
        classicTag?.commandCounts ?? [:]
    }

    /// How many APDUs of each Type 4 command kind the tag received (none for a Type 2 tag).
    public var type4CommandCounts: [SimulatedType4Command: Int] {
        type4Tag?.commandCounts ?? [:]
    }

    /// Whether the tag is ACTIVE (selected), the only state in which it answers commands.
    public var isActive: Bool {
        state == .active
    }

    /// The ISO/IEC 14443-3 state.
    public var state: ISO14443State {
        switch self {
        case .type2(let tag): tag.state
        case .type4(let tag): tag.state
        case .classic(let tag): tag.state
        }
    }

    /// Whether the tag answers `request`: REQA wakes IDLE tags, WUPA IDLE and HALT tags
    /// (ISO/IEC 14443-3 6.3.2).
    func answers(_ request: SimulatedField.Request) -> Bool {
        switch request {
        case .reqa: state == .idle
        case .wupa: state == .idle || state == .halt
        }
    }

    /// REQA or WUPA, anticollision and SELECT (and RATS for a Type 4 tag): the tag becomes ACTIVE.
    mutating func select() {
        switch self {
        case .type2(var tag):
            tag.select()
            self = .type2(tag)
        case .type4(var tag):
            tag.select()
            self = .type4(tag)
        case .classic(var tag):
            tag.select()
            self = .classic(tag)
        }
    }

    /// HLTA: the tag halts.
    mutating func halt() {
        switch self {
        case .type2(var tag):
            tag.halt()
            self = .type2(tag)
        case .type4(var tag):
            tag.halt()
            self = .type4(tag)
        case .classic(var tag):
            tag.halt()
            self = .classic(tag)
        }
    }

    /// The field goes off (or the tag leaves it): the tag powers down to IDLE.
    mutating func fieldOff() {
        switch self {
        case .type2(var tag):
            tag.fieldOff()
            self = .type2(tag)
        case .type4(var tag):
            tag.fieldOff()
            self = .type4(tag)
        case .classic(var tag):
            tag.fieldOff()
            self = .classic(tag)
        }
    }

    /// An unexpected frame in READY or ACTIVE: back to IDLE, or HALT if woken from HALT.
    mutating func returnToWaitingState() {
        switch self {
        case .type2(var tag):
            tag.returnToWaitingState()
            self = .type2(tag)
        case .type4(var tag):
            tag.returnToWaitingState()
            self = .type4(tag)
        case .classic(var tag):
            tag.returnToWaitingState()
            self = .classic(tag)
        }
    }

    /// Forgets the tag's command counts.
    mutating func resetCommandCounts() {
        switch self {
        case .type2(var tag):
            tag.resetCommandCounts()
            self = .type2(tag)
        case .type4(var tag):
            tag.resetCommandCounts()
            self = .type4(tag)
        case .classic(var tag):
            tag.resetCommandCounts()
            self = .classic(tag)
        }
    }

    /// The kind a Type 2 tag takes `frame` for in its current state; for a Type 4 tag, the
    /// kind the frame's first byte names.
    func type2CommandKind(of frame: [UInt8]) -> SimulatedType2Command {
        type2Tag?.commandKind(of: frame) ?? SimulatedType2Command(frame: frame)
    }

    /// The command `frame` is for the field's log: a MIFARE Classic command for a Classic
    /// card, a Type 2 command otherwise.
    func fieldCommand(of frame: [UInt8]) -> SimulatedField.Command {
        if case .classic = self { return .classic(SimulatedClassicCommand(frame: frame)) }
        return .type2(type2CommandKind(of: frame))
    }

    /// Sends a Type 2 frame, or a MIFARE Classic command frame to a Classic card, to the tag.
    /// A Type 4 tag takes it for no ISO-DEP block: it does not answer, counts nothing and stays
    /// as it was.
    mutating func transceiveType2(_ frame: [UInt8]) -> SimulatedType2Response {
        switch self {
        case .type2(var tag):
            let response = tag.transceive(frame)
            self = .type2(tag)
            return response
        case .classic(var tag):
            let response = tag.transceive(frame)
            self = .classic(tag)
            return response
        case .type4:
            return .silent
        }
    }

    /// Sends a command APDU to the tag: the response APDU, or nil when the tag does not
    /// answer (it is not ACTIVE). A Type 2 tag, which has no ISO-DEP layer, never answers and
    /// counts nothing.
    mutating func transceiveAPDU(_ apdu: [UInt8]) -> [UInt8]? {
        guard case .type4(var tag) = self else { return nil }
        let response = tag.transceiveAPDU(apdu)
        self = .type4(tag)
        return response
    }
}

/// The ISO/IEC 14443-3 state of a simulated Type A tag (section 6.3, figure 7: IDLE, READY,
/// ACTIVE, HALT), shared by every simulated chip (``SimulatedType2Tag/State``,
/// ``SimulatedType4Tag/State``). The READY* and ACTIVE* states of a tag woken from HALT are not
/// told apart: a halted tag is woken by WUPA only, and then behaves as one woken by REQA.
public enum ISO14443State: Sendable, Hashable, CaseIterable {
    /// Powered, waiting for REQA or WUPA.
    case idle
    /// Woken, in anticollision.
    case ready
    /// Selected: commands are answered.
    case active
    /// Halted: only WUPA wakes it.
    case halt
}
