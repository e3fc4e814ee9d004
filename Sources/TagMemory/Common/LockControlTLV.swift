/// The value of a Lock Control TLV: where the dynamic lock bytes are and what each bit locks.
///
/// NFC Forum Type 2 Tag 1.1, section 2.3.2. The three value bytes are:
/// - Position: the 4 most significant bits give the page address (`PageAddr`), the 4 least
///   significant bits the byte offset in that page (`ByteOffset`);
/// - Size: the number of dynamic lock bits (0 means 256);
/// - Page control: the 4 most significant bits give `BLPLB_Index` (each lock bit locks
///   2^`BLPLB_Index` bytes), the 4 least significant bits `MPS` (a page has 2^`MPS` bytes).
///
/// The first lock byte is at byte address `PageAddr × 2^MPS + ByteOffset`. For the factory
/// NTAG213 TLV `01 03 A0 0C 34` that is 10 × 16 + 0 = 160 (page 0x28), 12 bits of 8 bytes each.
public struct LockControlTLV: Sendable, Hashable {
    /// The page address nibble of the position byte.
    public var pageAddress: Int
    /// The byte offset nibble of the position byte.
    public var byteOffset: Int
    /// The number of dynamic lock bits (1 to 256).
    public var lockBitCount: Int
    /// How many bytes each lock bit locks (2^`BLPLB_Index`).
    public var bytesLockedPerBit: Int
    /// The page size used by the position (2^`MPS`).
    public var bytesPerPage: Int

    /// Decodes the three value bytes.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` unless `value` has exactly three bytes
    ///   (T2T 1.1, 2.3.2: the length of a Lock Control TLV is 3).
    public init(value: some Collection<UInt8>) throws(TagMemoryError) {
        let bytes = Array(value)
        guard bytes.count == 3 else {
            throw TagMemoryError(
                .malformedTLV, "a Lock Control TLV has 3 value bytes (T2T 1.1, 2.3.2); this one has \(bytes.count)")
        }
        self.pageAddress = Int(bytes[0] >> 4)
        self.byteOffset = Int(bytes[0] & 0x0F)
        self.lockBitCount = bytes[1] == 0 ? 256 : Int(bytes[1])
        self.bytesLockedPerBit = 1 << Int(bytes[2] >> 4)
        self.bytesPerPage = 1 << Int(bytes[2] & 0x0F)
    }

    /// The byte address of the first dynamic lock byte.
    public var byteAddress: Int { pageAddress * bytesPerPage + byteOffset }

    /// The number of bytes holding the lock bits.
    public var lockByteCount: Int { max(0, lockBitCount + 7) / 8 }

    /// The byte addresses of the lock bytes: reserved, TLV blocks flow around them (2.2.1).
    public var lockBytes: Range<Int> { byteAddress..<(byteAddress + lockByteCount) }
}
