import NDEF
import TagMemory

/// A simulated tag of any kind the simulator has, as it sits in a ``SimulatedField``.
///
/// The identity accessors give what a reader learns from ISO/IEC 14443-3 Type A polling: the
/// UID from anticollision (6.5.3), ATQA (SENS_RES, 6.5.2) and SAK (SEL_RES, 6.5.3.4).
public enum SimulatedTag: Sendable {
    /// An NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight family).
    case type2(SimulatedType2Tag)

    /// The ATQA every NTAG21x and MIFARE Ultralight answers, 0044h, least significant byte
    /// first as it is received (NTAG213/215/216 9.3 and 9.4, MF0ULX1 7.2, MF0ICU1 7.3).
    public static let type2ATQA: [UInt8] = [0x44, 0x00]

    /// The UID (7 bytes for the Type 2 chips: bytes 0-2 and 4-7 of the memory, NTAG213/215/216 8.5.1).
    public var uid: [UInt8] {
        switch self {
        case .type2(let tag): tag.memory.uid ?? []
        }
    }

    /// ATQA / SENS_RES, two bytes as received (least significant byte first).
    public var atqa: [UInt8] {
        switch self {
        case .type2: Self.type2ATQA
        }
    }

    /// SAK / SEL_RES: 00h for the Type 2 chips (NTAG213/215/216 9.4, MF0ULX1 7.2).
    public var sak: UInt8 {
        switch self {
        case .type2: 0x00
        }
    }

    /// The answer to RATS of an ISO-DEP tag; nil for a Type 2 tag, which has no ISO-DEP layer.
    public var ats: [UInt8]? {
        switch self {
        case .type2: nil
        }
    }

    /// The Type 2 tag, when this is one.
    public var type2Tag: SimulatedType2Tag? {
        switch self {
        case .type2(let tag): tag
        }
    }

    /// A one-line description: the chip and the UID.
    public var summary: String {
        switch self {
        case .type2(let tag): "\(tag.chip.name), UID \(NDEFHex.encode(uid, uppercase: true, separator: ":"))"
        }
    }

    /// How many frames of each Type 2 command kind the tag received.
    public var type2CommandCounts: [SimulatedType2Command: Int] {
        switch self {
        case .type2(let tag): tag.commandCounts
        }
    }

    /// Whether the tag is ACTIVE (selected), the only state in which it answers commands.
    public var isActive: Bool {
        switch self {
        case .type2(let tag): tag.state == .active
        }
    }

    /// Whether the tag answers `request`: REQA wakes IDLE tags, WUPA IDLE and HALT tags
    /// (ISO/IEC 14443-3 6.3.2).
    func answers(_ request: SimulatedField.Request) -> Bool {
        switch self {
        case .type2(let tag):
            switch request {
            case .reqa: tag.state == .idle
            case .wupa: tag.state == .idle || tag.state == .halt
            }
        }
    }

    /// REQA or WUPA, anticollision and SELECT: the tag becomes ACTIVE.
    mutating func select() {
        switch self {
        case .type2(var tag):
            tag.select()
            self = .type2(tag)
        }
    }

    /// HLTA: the tag halts.
    mutating func halt() {
        switch self {
        case .type2(var tag):
            tag.halt()
            self = .type2(tag)
        }
    }

    /// The field goes off (or the tag leaves it): the tag powers down to IDLE.
    mutating func fieldOff() {
        switch self {
        case .type2(var tag):
            tag.fieldOff()
            self = .type2(tag)
        }
    }

    /// An unexpected frame in READY or ACTIVE: back to IDLE, or HALT if woken from HALT.
    mutating func returnToWaitingState() {
        switch self {
        case .type2(var tag):
            tag.returnToWaitingState()
            self = .type2(tag)
        }
    }

    /// Forgets the tag's command counts.
    mutating func resetCommandCounts() {
        switch self {
        case .type2(var tag):
            tag.resetCommandCounts()
            self = .type2(tag)
        }
    }

    /// The kind a Type 2 tag takes `frame` for in its current state.
    func type2CommandKind(of frame: [UInt8]) -> SimulatedType2Command {
        switch self {
        case .type2(let tag): tag.commandKind(of: frame)
        }
    }

    /// Sends a Type 2 frame to the tag.
    mutating func transceiveType2(_ frame: [UInt8]) -> SimulatedType2Response {
        switch self {
        case .type2(var tag):
            let response = tag.transceive(frame)
            self = .type2(tag)
            return response
        }
    }
}
