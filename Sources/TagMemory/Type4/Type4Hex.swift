/// Upper-case hexadecimal text for the short values Type 4 descriptions show.
enum Type4Hex {
    private static let digits = Array("0123456789ABCDEF")

    /// Two digits, for example `"0E"`.
    static func byte(_ value: UInt8) -> String {
        String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }

    /// Four digits, for example `"E104"`.
    static func word(_ value: UInt16) -> String {
        byte(UInt8(truncatingIfNeeded: value >> 8)) + byte(UInt8(truncatingIfNeeded: value))
    }
}
