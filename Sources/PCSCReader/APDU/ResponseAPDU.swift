import NFCSession

/// A response APDU split into its data and status word (ISO/IEC 7816-4 5.1).
struct ResponseAPDU: Sendable, Hashable {
    /// The data field.
    let data: [UInt8]
    /// SW1.
    let sw1: UInt8
    /// SW2.
    let sw2: UInt8

    /// Splits `bytes`; fewer than two bytes means the card's answer never came.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer without
    ///   SW1 SW2 (pcscd returns an empty answer when the card vanishes mid-command).
    init(_ bytes: [UInt8], command: String) throws(NFCReaderError) {
        guard bytes.count >= 2 else {
            throw NFCReaderError(
                .tagConnectionLost,
                "the answer to \(command) has \(bytes.count) byte(s), not even a status word: the tag left")
        }
        data = Array(bytes.dropLast(2))
        sw1 = bytes[bytes.count - 2]
        sw2 = bytes[bytes.count - 1]
    }

    /// The status word as one number, 9000h.
    var statusWord: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }

    /// Whether the status is 90 00.
    var isSuccess: Bool { statusWord == 0x9000 }

    /// `SW 6A 81`.
    var statusText: String { Self.statusText(sw1, sw2) }

    /// `SW 6A 81` for two status bytes.
    static func statusText(_ sw1: UInt8, _ sw2: UInt8) -> String {
        "SW " + PCSCHex.byte(sw1) + " " + PCSCHex.byte(sw2)
    }

    /// Whether the status says the reader does not know the command: 6A 81 (function not
    /// supported), 6D 00 (instruction not supported), 6E 00 (class not supported); ISO/IEC
    /// 7816-4 5.1.3.
    var isUnsupportedCommand: Bool { [0x6A81, 0x6D00, 0x6E00].contains(statusWord) }
}

/// Hex text for messages.
enum PCSCHex {
    /// Two upper-case hex digits.
    static func byte(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }

    /// Upper-case hex pairs separated by spaces.
    static func bytes(_ values: some Sequence<UInt8>) -> String {
        values.map(byte).joined(separator: " ")
    }
}
