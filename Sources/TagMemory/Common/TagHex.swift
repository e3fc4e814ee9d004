import NDEF

/// Upper-case hexadecimal text for the values tag-memory descriptions, reasons and errors show.
enum TagHex {
    /// Two digits, for example `"0F"`.
    static func byte(_ value: UInt8) -> String {
        NDEFHex.encode(CollectionOfOne(value), uppercase: true, separator: "")
    }

    /// Four digits, for example `"E104"`.
    static func word(_ value: UInt16) -> String {
        NDEFHex.encode(
            [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)], uppercase: true, separator: "")
    }

    /// Bytes separated by spaces, for example `"E1 10 12 00"`.
    static func bytes(_ values: some Sequence<UInt8>) -> String {
        NDEFHex.encode(values, uppercase: true, separator: " ")
    }
}
