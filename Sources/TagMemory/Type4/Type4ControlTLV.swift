/// A TLV block of the Type 4 capability container after the mandatory NDEF file control.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1.2: the CC may list further files, typically with
/// Proprietary File Control TLVs (T = 05). They are kept as read so a CC written back (for
/// example by the lock plan, which changes one byte) and the description of a tag keep them.
public enum Type4ControlTLV: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A file control TLV of a known type and length (T = 04 or 05 with L = 06, T = 06 with L = 08).
    case fileControl(Type4FileControl)
    /// Any other TLV, byte for byte.
    case other(type: UInt8, value: [UInt8])

    /// The TLV bytes; a value of 255 bytes or more uses the 3-byte length form (FF, then 2 bytes).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a value longer than 65 535 bytes or
    ///   a file size that does not fit its field.
    public func encoded() throws(TagMemoryError) -> [UInt8] {
        switch self {
        case .fileControl(let control):
            return try control.encoded()
        case .other(let type, let value):
            guard value.count <= Int(UInt16.max) else {
                throw TagMemoryError(
                    .invalidArgument, "a TLV value of \(value.count) bytes does not fit a length field")
            }
            if value.count < 0xFF { return [type, UInt8(value.count)] + value }
            let length = UInt16(truncatingIfNeeded: value.count)
            return [type, 0xFF, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)] + value
        }
    }

    public var description: String {
        switch self {
        case .fileControl(let control): control.description
        case .other(let type, let value): "TLV \(TagHex.byte(type)) with \(value.count) value bytes"
        }
    }

    /// Reads one TLV from the front of `reader`; `offset` is where it starts in the CC file.
    static func read(from reader: inout Type4ByteReader, at offset: Int) throws(TagMemoryError) -> Type4ControlTLV {
        guard let type = reader.byte(), let first = reader.byte() else {
            throw TagMemoryError(.malformedTLV, at: offset, "a TLV header is cut off by CCLEN")
        }
        var length = Int(first)
        if first == 0xFF {
            guard let long = reader.word() else {
                throw TagMemoryError(.malformedTLV, at: offset, "a 3-byte TLV length is cut off by CCLEN")
            }
            guard long >= 0xFF else {
                throw TagMemoryError(.malformedTLV, at: offset, "a 3-byte TLV length of \(long) should use 1 byte")
            }
            length = Int(long)
        }
        guard let value = reader.take(length) else {
            throw TagMemoryError(
                .malformedTLV, at: offset, "TLV \(TagHex.byte(type)) with \(length) value bytes runs past CCLEN")
        }
        if let kind = Type4FileControl.Kind(rawValue: type), first == UInt8(kind.valueLength) {
            return .fileControl(Type4FileControl(kind: kind, value: value))
        }
        return .other(type: type, value: Array(value))
    }
}
