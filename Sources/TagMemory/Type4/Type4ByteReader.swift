/// Big-endian reads from a byte slice that never trap: each read returns nil past the end.
struct Type4ByteReader {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The number of bytes not read yet.
    var remaining: Int { bytes.count }

    mutating func byte() -> UInt8? {
        bytes.popFirst()
    }

    /// Two bytes, most significant first.
    mutating func word() -> UInt16? {
        guard bytes.count >= 2, let high = bytes.popFirst(), let low = bytes.popFirst() else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    /// Four bytes, most significant first, as an Int (nil past the end or where Int is too small).
    mutating func longWord() -> Int? {
        guard bytes.count >= 4, let high = word(), let low = word() else { return nil }
        return Int(exactly: UInt32(high) << 16 | UInt32(low))
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count else { return nil }
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return taken
    }
}
