/// The BER-TLV data objects of PC/SC Part 3 v2.02's Manage Session, Transparent Exchange and
/// Switch Protocol commands (ISO/IEC 7816-4 5.2.2.1 encoding): a tag of one byte, or two when
/// the first byte's bits 5-1 are all set (`5F 46`, `FF 6D`); a length of one byte below 80h,
/// else `81 LL` or `82 LL LL`.
enum BERTLV {
    /// One data object.
    struct DataObject: Sendable, Hashable {
        /// The tag, with both bytes of a two-byte tag (`5F46`).
        let tag: UInt16
        let value: [UInt8]
    }

    /// Reads data objects from `bytes` one after the other.
    struct Reader {
        private var rest: ArraySlice<UInt8>

        init(_ bytes: [UInt8]) {
            rest = bytes[...]
        }

        /// Whether every byte was read.
        var isAtEnd: Bool { rest.isEmpty }

        /// The next data object; nil when the bytes left make none (a truncated tag, length or value).
        mutating func next() -> DataObject? {
            guard let first = rest.popFirst() else { return nil }
            var tag = UInt16(first)
            if first & 0x1F == 0x1F {
                guard let second = rest.popFirst() else { return nil }
                tag = tag << 8 | UInt16(second)
            }
            guard let lengthByte = rest.popFirst() else { return nil }
            var length = Int(lengthByte)
            if lengthByte >= 0x80 {
                let count = Int(lengthByte & 0x7F)
                guard count == 1 || count == 2, rest.count >= count else { return nil }
                length = rest.prefix(count).reduce(0) { $0 << 8 | Int($1) }
                rest = rest.dropFirst(count)
            }
            guard rest.count >= length else { return nil }
            let value = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            return DataObject(tag: tag, value: value)
        }
    }

    /// The encoding of a data object: a tag up to FFh in one byte, a larger one in two.
    static func encode(tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let tagBytes: [UInt8] =
            tag > 0xFF
            ? [UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)] : [UInt8(truncatingIfNeeded: tag)]
        return tagBytes + length(value.count) + value
    }

    /// A length field: one byte below 80h, else `81 LL` or `82 LL LL`.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(truncatingIfNeeded: count)] }
        if count <= 0xFF { return [0x81, UInt8(truncatingIfNeeded: count)] }
        return [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
