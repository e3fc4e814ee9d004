import NFCSession

/// The BER-TLV data objects of PC/SC part 3 transparent sessions (ISO/IEC 7816-4 5.2, the
/// subset these answers use): tags of one or two bytes, definite lengths of one to three bytes.
enum BERTLV {
    /// One data object.
    struct Object: Sendable, Hashable {
        /// The tag, `0x97` or `0x5F46`.
        let tag: UInt16
        /// The value bytes.
        let value: [UInt8]
    }

    /// The length field for `count` bytes: one byte below 128, else 81h or 82h and the length.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(truncatingIfNeeded: count)] }
        if count <= 0xFF { return [0x81, UInt8(truncatingIfNeeded: count)] }
        return [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }

    /// The objects of `bytes`, in order; 00h and FFh padding between objects is skipped.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagResponseError`` for a truncated tag, length
    ///   or value, or a length form other than one to three bytes.
    static func parse(_ bytes: [UInt8]) throws(NFCReaderError) -> [Object] {
        var objects: [Object] = []
        var rest = bytes[...]
        while let first = rest.popFirst() {
            if first == 0x00 || first == 0xFF { continue }
            var tag = UInt16(first)
            if first & 0x1F == 0x1F {
                guard let second = rest.popFirst() else { throw malformed("a two-byte tag is cut short") }
                tag = tag << 8 | UInt16(second)
            }
            guard let lengthByte = rest.popFirst() else { throw malformed("the length of tag \(tag) is missing") }
            var length = Int(lengthByte)
            if lengthByte & 0x80 != 0 {
                let count = Int(lengthByte & 0x7F)
                guard count == 1 || count == 2, rest.count >= count else {
                    throw malformed("the length of tag \(tag) is not a 1- or 2-byte long form")
                }
                length = rest.prefix(count).reduce(0) { $0 << 8 | Int($1) }
                rest = rest.dropFirst(count)
            }
            guard rest.count >= length else {
                throw malformed("tag \(tag) announces \(length) bytes but \(rest.count) follow")
            }
            objects.append(Object(tag: tag, value: Array(rest.prefix(length))))
            rest = rest.dropFirst(length)
        }
        return objects
    }

    private static func malformed(_ reason: String) -> NFCReaderError {
        NFCReaderError(.tagResponseError, "malformed data objects: \(reason)")
    }
}
