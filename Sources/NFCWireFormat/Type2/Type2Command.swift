import HexText

/// A command of NFC Forum Type 2 tags and of the NXP chips that are ones, named by its first
/// byte: the one table the session, the simulator, the command tracer and the PC/SC frames use.
///
/// Sources: NFC Forum Type 2 Tag 1.1, section 5 (READ, WRITE); NTAG213/215/216 datasheet
/// section 10 (GET_VERSION, FAST_READ, COMPATIBILITY_WRITE, READ_CNT, PWD_AUTH, READ_SIG);
/// MF0ULX1 section 8 (INCR_CNT, CHECK_TEARING_EVENT, VCSL); MF0ICU2 section 9 (AUTHENTICATE,
/// the first step of the Ultralight C's 3DES authentication); ISO/IEC 14443-3 6.4.3 (HLTA).
public struct Type2Command: Sendable, Hashable, CustomStringConvertible {
    /// The first byte of the frame.
    public let opcode: UInt8
    /// The datasheet's name, `FAST_READ`.
    public let name: String

    private init(_ opcode: UInt8, _ name: String) {
        self.opcode = opcode
        self.name = name
    }

    /// GET_VERSION, 60h: the chip's product version (8 bytes).
    public static let getVersion = Type2Command(0x60, "GET_VERSION")
    /// READ, 30h: 4 pages from a page address.
    public static let read = Type2Command(0x30, "READ")
    /// FAST_READ, 3Ah: the pages from a start address to an end address.
    public static let fastRead = Type2Command(0x3A, "FAST_READ")
    /// WRITE, A2h: one page.
    public static let write = Type2Command(0xA2, "WRITE")
    /// COMPATIBILITY_WRITE, A0h: one page, its data in a second 16-byte frame.
    public static let compatibilityWrite = Type2Command(0xA0, "COMPATIBILITY_WRITE")
    /// READ_CNT, 39h: a 24-bit counter.
    public static let readCounter = Type2Command(0x39, "READ_CNT")
    /// INCR_CNT, A5h: increments a counter (MIFARE Ultralight EV1).
    public static let incrementCounter = Type2Command(0xA5, "INCR_CNT")
    /// PWD_AUTH, 1Bh: the 4-byte password, answered by the 2-byte PACK.
    public static let passwordAuthentication = Type2Command(0x1B, "PWD_AUTH")
    /// READ_SIG, 3Ch: the 32-byte originality signature.
    public static let readSignature = Type2Command(0x3C, "READ_SIG")
    /// CHECK_TEARING_EVENT, 3Eh: whether a counter's last change was torn (MIFARE Ultralight EV1).
    public static let checkTearingEvent = Type2Command(0x3E, "CHECK_TEARING_EVENT")
    /// VCSL, 4Bh: the virtual card select (MIFARE Ultralight EV1).
    public static let virtualCardSelect = Type2Command(0x4B, "VCSL")
    /// AUTHENTICATE, 1Ah: the first step of the MIFARE Ultralight C's 3DES authentication.
    public static let authenticate = Type2Command(0x1A, "AUTHENTICATE")
    /// HLTA, 50h 00h: sends the tag to the HALT state (ISO/IEC 14443-3).
    public static let halt = Type2Command(0x50, "HLTA")

    /// Every command this table names.
    public static let all: [Type2Command] = [
        .getVersion, .read, .fastRead, .write, .compatibilityWrite, .readCounter, .incrementCounter,
        .passwordAuthentication, .readSignature, .checkTearingEvent, .virtualCardSelect, .authenticate, .halt,
    ]

    /// The command whose first byte is `opcode`, when the table names one.
    public init?(opcode: UInt8) {
        guard let command = Self.all.first(where: { $0.opcode == opcode }) else { return nil }
        self = command
    }

    /// The name of the command a frame starts with: `READ`, or `command 51h` for a byte the table
    /// does not name, `empty frame` for none.
    public static func name(of opcode: UInt8?) -> String {
        guard let opcode else { return "empty frame" }
        return Type2Command(opcode: opcode)?.name ?? "command \(Hex.byte(opcode))h"
    }

    /// ``name``.
    public var description: String { name }

    /// The frame: the opcode, then `parameters`.
    public func frame(_ parameters: [UInt8] = []) -> [UInt8] {
        [opcode] + parameters
    }
}
