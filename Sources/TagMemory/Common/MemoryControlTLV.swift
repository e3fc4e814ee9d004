/// The value of a Memory Control TLV: a range of reserved bytes inside the data area.
///
/// NFC Forum Type 2 Tag 1.1, section 2.3.3. The three value bytes are:
/// - Position: page address (4 most significant bits) and byte offset (4 least significant);
/// - Size: the number of reserved bytes (0 means 256);
/// - Page control: 4 most significant bits reserved, 4 least significant bits `MPS`
///   (a page has 2^`MPS` bytes).
///
/// The first reserved byte is at `PageAddr × 2^MPS + ByteOffset`; TLV blocks, NDEF data
/// included, skip the reserved bytes (2.2.1).
public struct MemoryControlTLV: Sendable, Hashable {
    /// The page address nibble of the position byte.
    public var pageAddress: Int
    /// The byte offset nibble of the position byte.
    public var byteOffset: Int
    /// The number of reserved bytes (1 to 256).
    public var size: Int
    /// The page size used by the position (2^`MPS`).
    public var bytesPerPage: Int

    /// Decodes the three value bytes.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` unless `value` has exactly three bytes
    ///   (T2T 1.1, 2.3.3: the length of a Memory Control TLV is 3).
    public init(value: some Collection<UInt8>) throws(TagMemoryError) {
        let bytes = Array(value)
        guard bytes.count == 3 else {
            throw TagMemoryError(
                .malformedTLV, "a Memory Control TLV has 3 value bytes (T2T 1.1, 2.3.3); this one has \(bytes.count)")
        }
        self.pageAddress = Int(bytes[0] >> 4)
        self.byteOffset = Int(bytes[0] & 0x0F)
        self.size = bytes[1] == 0 ? 256 : Int(bytes[1])
        self.bytesPerPage = 1 << Int(bytes[2] & 0x0F)
    }

    /// The byte address of the first reserved byte.
    public var byteAddress: Int { pageAddress * bytesPerPage + byteOffset }

    /// The reserved byte addresses.
    public var reservedBytes: Range<Int> { byteAddress..<(byteAddress + max(0, size)) }
}
