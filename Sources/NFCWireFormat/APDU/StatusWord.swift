import NDEF

/// The status word SW1 SW2 that ends every response APDU (ISO/IEC 7816-4, 5.6), with names for
/// the values cards and contactless readers answer.
///
/// A struct over the 16-bit value: any status word can be held and compared, and the named
/// ones are constants, so a new name breaks no `switch` (which needs a `default`).
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

    /// `SW 6A 81`.
    public var description: String { "SW " + WireHex.byte(sw1) + " " + WireHex.byte(sw2) }

    /// `90 00`: normal processing.
    public static let success = StatusWord(rawValue: 0x9000)
    /// `62 82`: end of data (or file) reached before Le bytes.
    public static let endOfData = StatusWord(rawValue: 0x6282)
    /// `63 00`: no information given; what contactless readers (ACR122U) answer to every failed
    /// card operation (a NAK, no answer, a CRC error).
    public static let failed = StatusWord(rawValue: 0x6300)
    /// `67 00`: wrong length (Lc or Le).
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// `6A 81`: function not supported.
    public static let functionNotSupported = StatusWord(rawValue: 0x6A81)
    /// `6D 00`: instruction not supported.
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    /// `6E 00`: class not supported.
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)

    /// `6C XX`: wrong Le; XX is the exact length available (256 as `00`).
    public static func exactLength(_ count: Int) -> StatusWord {
        StatusWord(sw1: 0x6C, sw2: UInt8(truncatingIfNeeded: count))
    }

    /// Whether the status says the command is not known: 6A 81 (function not supported), 6D 00
    /// (instruction not supported) or 6E 00 (class not supported), ISO/IEC 7816-4 5.6.
    public var isUnsupportedCommand: Bool {
        self == .functionNotSupported || self == .instructionNotSupported || self == .classNotSupported
    }
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

/// Hex text of bytes in the form the wire-format descriptions use: upper case, two digits
/// (``NDEF/NDEFHex``, the package's one hex encoder).
public enum WireHex {
    /// Two upper-case hex digits: `0A`.
    public static func byte(_ value: UInt8) -> String {
        NDEFHex.encode(CollectionOfOne(value), uppercase: true, separator: "")
    }

    /// Upper-case hex pairs separated by spaces: `FF CA 00 00`.
    public static func bytes(_ values: some Sequence<UInt8>) -> String {
        NDEFHex.encode(values, uppercase: true, separator: " ")
    }
}
