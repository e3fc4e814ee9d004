import HexText

/// The status word SW1 SW2 that ends every response APDU (ISO/IEC 7816-4, 5.6), with names for
/// the values cards, NFC Forum Type 4 tags and contactless readers answer.
///
/// A struct over the 16-bit value: any status word can be held and compared, and the named
/// ones are constants, so a new name breaks no `switch` (which needs a `default`). A Type 4
/// reader treats anything but ``success`` as a failure of the procedure (NFC Forum Type 4 Tag
/// 3.0, 5.5).
public struct StatusWord: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// SW1 SW2 as one number, SW1 in the high byte: `0x9000`.
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The status word of two bytes.
    public init(sw1: UInt8, sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    /// SW1.
    public var sw1: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    /// SW2.
    public var sw2: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// SW1 and SW2, as they end a response.
    public var bytes: [UInt8] { [sw1, sw2] }

    /// `90 00`: normal processing.
    public static let success = StatusWord(rawValue: 0x9000)
    /// `62 82`: end of the file (or data) reached before Le bytes were read.
    public static let endOfData = StatusWord(rawValue: 0x6282)
    /// `63 00`: no information given; what contactless readers (ACR122U) answer to every failed
    /// card operation (a NAK, no answer, a CRC error).
    public static let failed = StatusWord(rawValue: 0x6300)
    /// `65 81`: memory failure (an EEPROM write error).
    public static let memoryFailure = StatusWord(rawValue: 0x6581)
    /// `67 00`: wrong length (Lc or Le not accepted).
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// `69 82`: security status not satisfied (authentication needed).
    public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x6982)
    /// `69 85`: conditions of use not satisfied.
    public static let conditionsOfUseNotSatisfied = StatusWord(rawValue: 0x6985)
    /// `69 86`: command not allowed (for example, no file selected).
    public static let commandNotAllowed = StatusWord(rawValue: 0x6986)
    /// `6A 80`: incorrect parameters in the command data field.
    public static let incorrectData = StatusWord(rawValue: 0x6A80)
    /// `6A 81`: function not supported.
    public static let functionNotSupported = StatusWord(rawValue: 0x6A81)
    /// `6A 82`: file or application not found.
    public static let fileNotFound = StatusWord(rawValue: 0x6A82)
    /// `6A 84`: not enough memory space in the file.
    public static let notEnoughMemory = StatusWord(rawValue: 0x6A84)
    /// `6A 86`: incorrect parameters P1-P2.
    public static let incorrectParameters = StatusWord(rawValue: 0x6A86)
    /// `6B 00`: wrong parameters P1-P2; for READ BINARY and UPDATE BINARY, an offset outside the file.
    public static let wrongParameters = StatusWord(rawValue: 0x6B00)
    /// `6D 00`: instruction not supported.
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    /// `6E 00`: class not supported.
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)

    /// `61 XX`: XX more response bytes are available (256 as `00`).
    public static func moreData(_ count: Int) -> StatusWord {
        StatusWord(sw1: 0x61, sw2: UInt8(truncatingIfNeeded: count))
    }

    /// `6C XX`: wrong Le; XX is the exact length available (256 as `00`).
    public static func exactLength(_ count: Int) -> StatusWord {
        StatusWord(sw1: 0x6C, sw2: UInt8(truncatingIfNeeded: count))
    }

    /// Whether the command succeeded (`90 00`).
    public var isSuccess: Bool { self == .success }

    /// For `61 XX`, the number of response bytes still available; else nil.
    public var moreDataCount: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    /// For `6C XX`, the exact length the card has; else nil.
    public var exactLengthAvailable: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    /// Whether this is a warning (`62 XX` or `63 XX`: processing ended with the non-volatile
    /// memory unchanged or changed).
    public var isWarning: Bool { sw1 == 0x62 || sw1 == 0x63 }

    /// Whether the status says the command is not known: 6A 81 (function not supported), 6D 00
    /// (instruction not supported) or 6E 00 (class not supported), ISO/IEC 7816-4 5.6.
    public var isUnsupportedCommand: Bool {
        self == .functionNotSupported || self == .instructionNotSupported || self == .classNotSupported
    }

    /// What ISO/IEC 7816-4 says the value means: `file or application not found`,
    /// `unknown status` for a value without a name here.
    public var meaning: String {
        if let count = moreDataCount { return "\(count) more bytes available" }
        if let count = exactLengthAvailable { return "wrong Le, \(count) bytes available" }
        return switch self {
        case .success: "success"
        case .endOfData: "end of file reached"
        case .failed: "no information given"
        case .memoryFailure: "memory failure"
        case .wrongLength: "wrong length"
        case .securityStatusNotSatisfied: "security status not satisfied"
        case .conditionsOfUseNotSatisfied: "conditions of use not satisfied"
        case .commandNotAllowed: "command not allowed"
        case .incorrectData: "incorrect command data"
        case .functionNotSupported: "function not supported"
        case .fileNotFound: "file or application not found"
        case .notEnoughMemory: "not enough memory in the file"
        case .incorrectParameters: "incorrect parameters P1-P2"
        case .wrongParameters: "wrong parameters P1-P2 (offset outside the file)"
        case .instructionNotSupported: "instruction not supported"
        case .classNotSupported: "class not supported"
        default: Self.nativeMeaning(rawValue) ?? (isWarning ? "warning" : "unknown status")
        }
    }

    /// The names of the `91 xx` status words of wrapped native commands (MIFARE DESFire,
    /// NTAG 424 DNA: NT4H2421Gx Table 23; 91 90 is what Read_Sig answers on real chips).
    static func nativeMeaning(_ value: UInt16) -> String? {
        guard value >> 8 == 0x91 else { return nil }
        return switch value & 0xFF {
        case 0x00: "OPERATION_OK"
        case 0x90: "OPERATION_OK (Read_Sig)"
        case 0xAF: "ADDITIONAL_FRAME: more frames"
        case 0x0B: "COMMAND_NOT_FOUND"
        case 0x0C: "COMMAND_FORMAT_ERROR"
        case 0x1C: "ILLEGAL_COMMAND_CODE"
        case 0x1E: "INTEGRITY_ERROR: MAC, CRC or padding"
        case 0x40: "NO_SUCH_KEY"
        case 0x7E: "LENGTH_ERROR"
        case 0x9D: "PERMISSION_DENIED"
        case 0x9E: "PARAMETER_ERROR"
        case 0xAD: "AUTHENTICATION_DELAY"
        case 0xAE: "AUTHENTICATION_ERROR"
        case 0xBE: "BOUNDARY_ERROR"
        case 0xCA: "COMMAND_ABORTED"
        case 0xEE: "MEMORY_ERROR"
        case 0xF0: "FILE_NOT_FOUND"
        default: nil
        }
    }

    /// `6A82 file or application not found`.
    public var description: String { Hex.byte(sw1) + Hex.byte(sw2) + " " + meaning }
}

/// A response APDU split into its data field and status word (ISO/IEC 7816-4, 5.1).
public struct ResponseAPDU: Sendable, Hashable {
    /// The data field (may be empty).
    public let data: [UInt8]
    /// The status word of the last two bytes.
    public let statusWord: StatusWord

    /// Splits `bytes`; nil when they are fewer than two (no status word: the card's answer never
    /// came, as pcscd reports a card that vanished mid-command).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        data = Array(bytes.dropLast(2))
        statusWord = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// A response of `data` and `statusWord`.
    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Whether the status word is `90 00`.
    public var isSuccess: Bool { statusWord == .success }

    /// The data followed by SW1 SW2.
    public var encoded: [UInt8] { data + statusWord.bytes }
}
