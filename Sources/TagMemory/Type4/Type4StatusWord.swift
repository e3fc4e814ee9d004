/// The status word (SW1 SW2) ending a Type 4 response APDU, with the meanings ISO/IEC 7816-4
/// gives the values a Type 4 tag returns (NFC Forum Type 4 Tag 3.0, section 5.5: a reader
/// treats anything but `9000` as a failure of the procedure).
public enum Type4StatusWord: Sendable, Hashable, CustomStringConvertible {
    /// `9000`: normal processing.
    case success
    /// `61xx`: more response bytes are available (xx of them, 0 meaning 256).
    case moreDataAvailable(Int)
    /// `6282`: end of file reached before reading Le bytes.
    case endOfFileReached
    /// Any other warning, `62xx` or `63xx` (state of non-volatile memory unchanged or changed).
    case warning(UInt16)
    /// `6581`: memory failure (for example an EEPROM write error).
    case memoryFailure
    /// `6700`: wrong length (Lc or Le not accepted).
    case wrongLength
    /// `6982`: security status not satisfied (authentication needed).
    case securityStatusNotSatisfied
    /// `6985`: conditions of use not satisfied.
    case conditionsOfUseNotSatisfied
    /// `6986`: command not allowed (for example no file selected).
    case commandNotAllowed
    /// `6A80`: incorrect parameters in the command data field.
    case incorrectData
    /// `6A81`: function not supported.
    case functionNotSupported
    /// `6A82`: file or application not found.
    case fileNotFound
    /// `6A84`: not enough memory space in the file.
    case notEnoughMemory
    /// `6A86`: incorrect parameters P1-P2.
    case incorrectParameters
    /// `6B00`: wrong parameters P1-P2 (for a READ / UPDATE BINARY: offset outside the file).
    case offsetOutsideFile
    /// `6Cxx`: wrong Le; xx is the number of bytes available.
    case wrongExpectedLength(Int)
    /// `6D00`: instruction not supported.
    case instructionNotSupported
    /// `6E00`: class not supported.
    case classNotSupported
    /// Any other status word.
    case other(UInt16)

    /// Classifies SW1 SW2.
    public init(sw1: UInt8, sw2: UInt8) {
        let word = UInt16(sw1) << 8 | UInt16(sw2)
        switch word {
        case 0x9000: self = .success
        case 0x6282: self = .endOfFileReached
        case 0x6581: self = .memoryFailure
        case 0x6700: self = .wrongLength
        case 0x6982: self = .securityStatusNotSatisfied
        case 0x6985: self = .conditionsOfUseNotSatisfied
        case 0x6986: self = .commandNotAllowed
        case 0x6A80: self = .incorrectData
        case 0x6A81: self = .functionNotSupported
        case 0x6A82: self = .fileNotFound
        case 0x6A84: self = .notEnoughMemory
        case 0x6A86: self = .incorrectParameters
        case 0x6B00: self = .offsetOutsideFile
        case 0x6D00: self = .instructionNotSupported
        case 0x6E00: self = .classNotSupported
        default:
            switch sw1 {
            case 0x61: self = .moreDataAvailable(sw2 == 0 ? 256 : Int(sw2))
            case 0x6C: self = .wrongExpectedLength(sw2 == 0 ? 256 : Int(sw2))
            case 0x62, 0x63: self = .warning(word)
            default: self = .other(word)
            }
        }
    }

    /// The two bytes as one number, SW1 first.
    public var rawValue: UInt16 {
        switch self {
        case .success: 0x9000
        case .moreDataAvailable(let count): 0x6100 | UInt16(truncatingIfNeeded: count & 0xFF)
        case .endOfFileReached: 0x6282
        case .warning(let word), .other(let word): word
        case .memoryFailure: 0x6581
        case .wrongLength: 0x6700
        case .securityStatusNotSatisfied: 0x6982
        case .conditionsOfUseNotSatisfied: 0x6985
        case .commandNotAllowed: 0x6986
        case .incorrectData: 0x6A80
        case .functionNotSupported: 0x6A81
        case .fileNotFound: 0x6A82
        case .notEnoughMemory: 0x6A84
        case .incorrectParameters: 0x6A86
        case .offsetOutsideFile: 0x6B00
        case .wrongExpectedLength(let count): 0x6C00 | UInt16(truncatingIfNeeded: count & 0xFF)
        case .instructionNotSupported: 0x6D00
        case .classNotSupported: 0x6E00
        }
    }

    /// SW1 and SW2.
    public var bytes: [UInt8] { [UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)] }

    /// Whether the command succeeded (`9000`).
    public var isSuccess: Bool { self == .success }

    public var description: String {
        let hex = TagHex.word(rawValue)
        return switch self {
        case .success: "\(hex) success"
        case .moreDataAvailable(let count): "\(hex) \(count) more bytes available"
        case .endOfFileReached: "\(hex) end of file reached"
        case .warning: "\(hex) warning"
        case .memoryFailure: "\(hex) memory failure"
        case .wrongLength: "\(hex) wrong length"
        case .securityStatusNotSatisfied: "\(hex) security status not satisfied"
        case .conditionsOfUseNotSatisfied: "\(hex) conditions of use not satisfied"
        case .commandNotAllowed: "\(hex) command not allowed"
        case .incorrectData: "\(hex) incorrect command data"
        case .functionNotSupported: "\(hex) function not supported"
        case .fileNotFound: "\(hex) file or application not found"
        case .notEnoughMemory: "\(hex) not enough memory in the file"
        case .incorrectParameters: "\(hex) incorrect parameters P1-P2"
        case .offsetOutsideFile: "\(hex) offset outside the file"
        case .wrongExpectedLength(let count): "\(hex) wrong Le, \(count) bytes available"
        case .instructionNotSupported: "\(hex) instruction not supported"
        case .classNotSupported: "\(hex) class not supported"
        case .other: "\(hex) unknown status"
        }
    }
}
