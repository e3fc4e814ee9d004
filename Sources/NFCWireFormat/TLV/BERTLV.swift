/// BER-TLV data objects as PC/SC part 3 v2.02 uses them in its Manage Session, Transparent
/// Exchange and Switch Protocol commands and answers (ISO/IEC 7816-4 5.2.2.1 encoding): a tag
/// of one byte, or two when the first byte's bits 5-1 are all set (`5F 46`, `FF 6D`); a length
/// of one byte below 80h, else `81 LL` or `82 LL LL`.
public enum BERTLV {
    /// One data object.
    public struct DataObject: Sendable, Hashable {
        /// The tag, with both bytes of a two-byte tag (`5F46`).
        public let tag: UInt16
        /// The value bytes.
        public let value: [UInt8]

        /// A data object of `tag` and `value`.
        public init(tag: UInt16, value: [UInt8]) {
            self.tag = tag
            self.value = value
        }

        /// The object's encoding: tag, length, value.
        public var encoded: [UInt8] { BERTLV.encode(tag: tag, value) }
    }

    /// Reads data objects from `bytes` one after the other.
    public struct Reader: Sendable {
        private var rest: ArraySlice<UInt8>

        /// A reader at the start of `bytes`.
        public init(_ bytes: [UInt8]) {
            rest = bytes[...]
        }

        /// Whether every byte was read.
        public var isAtEnd: Bool { rest.isEmpty }

        /// How many bytes are left.
        public var remainingCount: Int { rest.count }

        /// Skips 00h and FFh bytes, the padding ISO/IEC 7816-4 5.2.2 allows before and between
        /// data objects in an answer.
        public mutating func skipPadding() {
            while let first = rest.first, first == 0x00 || first == 0xFF { rest.removeFirst() }
        }

        /// The next data object; nil when the bytes left make none (a truncated tag, length or
        /// value, or a length form other than one to three bytes), with nothing consumed.
        public mutating func next() -> DataObject? {
            var cursor = rest
            guard let first = cursor.popFirst() else { return nil }
            var tag = UInt16(first)
            if first & 0x1F == 0x1F {
                guard let second = cursor.popFirst() else { return nil }
                tag = tag << 8 | UInt16(second)
            }
            guard let lengthByte = cursor.popFirst() else { return nil }
            var length = Int(lengthByte)
            if lengthByte >= 0x80 {
                let count = Int(lengthByte & 0x7F)
                guard count == 1 || count == 2, cursor.count >= count else { return nil }
                length = cursor.prefix(count).reduce(0) { $0 << 8 | Int($1) }
                cursor = cursor.dropFirst(count)
            }
            guard cursor.count >= length else { return nil }
            let value = Array(cursor.prefix(length))
            rest = cursor.dropFirst(length)
            return DataObject(tag: tag, value: value)
        }
    }

    /// Every data object of `bytes`, in order, 00h and FFh padding between them skipped; nil
    /// when the bytes end inside an object (see ``Reader/next()``).
    public static func objects(in bytes: [UInt8]) -> [DataObject]? {
        var reader = Reader(bytes)
        var objects: [DataObject] = []
        reader.skipPadding()
        while !reader.isAtEnd {
            guard let object = reader.next() else { return nil }
            objects.append(object)
            reader.skipPadding()
        }
        return objects
    }

    /// The encoding of a data object: a tag up to FFh in one byte, a larger one in two.
    public static func encode(tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let tagBytes: [UInt8] =
            tag > 0xFF
            ? [UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)] : [UInt8(truncatingIfNeeded: tag)]
        return tagBytes + length(value.count) + value
    }

    /// A length field: one byte below 80h, else `81 LL` or `82 LL LL` (up to 65 535).
    public static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(truncatingIfNeeded: count)] }
        if count <= 0xFF { return [0x81, UInt8(truncatingIfNeeded: count)] }
        return [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
