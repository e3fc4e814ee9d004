/// Where a chip keeps its dynamic lock bits and what each bit locks.
///
/// Dynamic lock bits lock pages from 16 (10h) on, in groups set by the chip (NFC Forum Type 2
/// Tag 1.1, 2.2.2; the groups come from each datasheet, not from the NFC Forum default, which
/// is wrong for NTAG215/216). Block-lock bits freeze lock bits: once set, the lock bits they
/// cover can no longer be changed. All bits are one-time programmable (a WRITE ORs them in).
public struct Type2DynamicLockLayout: Sendable, Hashable {
    /// A lock bit that makes a range of pages read-only.
    public struct PageLockBit: Sendable, Hashable {
        /// The lock byte (0 = the first byte of the lock page).
        public var byte: Int
        /// The bit in that byte (0 = least significant).
        public var bit: Int
        /// The pages it locks.
        public var pages: ClosedRange<Int>

        /// Creates a lock bit.
        public init(byte: Int, bit: Int, pages: ClosedRange<Int>) {
            self.byte = byte
            self.bit = bit
            self.pages = pages
        }
    }

    /// A block-lock bit that freezes some page lock bits.
    public struct BlockLockBit: Sendable, Hashable {
        /// The lock byte (0 = the first byte of the lock page).
        public var byte: Int
        /// The bit in that byte.
        public var bit: Int
        /// Indices into ``Type2DynamicLockLayout/pageLockBits`` of the bits it freezes.
        public var freezes: [Int]

        /// Creates a block-lock bit.
        public init(byte: Int, bit: Int, freezes: [Int]) {
            self.byte = byte
            self.bit = bit
            self.freezes = freezes
        }
    }

    /// The page holding the lock bytes.
    public var page: Int
    /// How many bytes of that page hold lock bits (from byte 0).
    public var byteCount: Int
    /// The page lock bits.
    public var pageLockBits: [PageLockBit]
    /// The block-lock bits.
    public var blockLockBits: [BlockLockBit]

    /// Creates a layout.
    public init(page: Int, byteCount: Int, pageLockBits: [PageLockBit], blockLockBits: [BlockLockBit]) {
        self.page = page
        self.byteCount = byteCount
        self.pageLockBits = pageLockBits
        self.blockLockBits = blockLockBits
    }

    /// The layout of the NTAG21x and MIFARE Ultralight EV1 family: lock bit *n* is bit *n mod 8*
    /// of byte *n / 8* and locks `pagesPerBit` pages from page 16 + *n* × `pagesPerBit` (the last
    /// group ends at `lastPage`); byte 2 bit *k* is the block-lock bit of lock bits 2*k* and 2*k*+1.
    public static func grouped(page: Int, lastPage: Int, pagesPerBit: Int) -> Type2DynamicLockLayout {
        var bits: [PageLockBit] = []
        let step = max(1, pagesPerBit)
        var first = 16
        while first <= lastPage {
            let index = bits.count
            bits.append(PageLockBit(byte: index / 8, bit: index % 8, pages: first...min(first + step - 1, lastPage)))
            first += step
        }
        let blocks = stride(from: 0, to: bits.count, by: 2).map { index in
            BlockLockBit(byte: 2, bit: index / 2, freezes: Array(index..<min(index + 2, bits.count)))
        }
        return Type2DynamicLockLayout(page: page, byteCount: 3, pageLockBits: bits, blockLockBits: blocks)
    }

    /// The byte addresses of the lock bytes.
    public var byteRange: Range<Int> { (page * 4)..<(page * 4 + max(0, byteCount)) }

    /// The pages locked by `lockBytes` (the bytes at ``byteRange``; missing bytes count as 0).
    public func lockedPages(lockBytes: [UInt8]) -> [ClosedRange<Int>] {
        pageLockBits.filter { isSet(byte: $0.byte, bit: $0.bit, in: lockBytes) }.map(\.pages)
    }

    /// Whether `lockBytes` lock `page`.
    public func isPageLocked(_ page: Int, lockBytes: [UInt8]) -> Bool {
        pageLockBits.contains { $0.pages.contains(page) && isSet(byte: $0.byte, bit: $0.bit, in: lockBytes) }
    }

    /// Whether the lock bit covering `page` is frozen by a set block-lock bit.
    public func isLockBitFrozen(forPage page: Int, lockBytes: [UInt8]) -> Bool {
        guard let index = pageLockBits.firstIndex(where: { $0.pages.contains(page) }) else { return false }
        return blockLockBits.contains { $0.freezes.contains(index) && isSet(byte: $0.byte, bit: $0.bit, in: lockBytes) }
    }

    /// The lock bytes with every page lock bit set (what locking the whole area ORs in).
    public var allPageLockBits: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, byteCount))
        for bit in pageLockBits where bytes.indices.contains(bit.byte) {
            bytes[bit.byte] |= 1 << UInt8(truncatingIfNeeded: bit.bit & 7)
        }
        return bytes
    }

    /// The lock bytes with every block-lock bit set.
    public var allBlockLockBits: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, byteCount))
        for bit in blockLockBits where bytes.indices.contains(bit.byte) {
            bytes[bit.byte] |= 1 << UInt8(truncatingIfNeeded: bit.bit & 7)
        }
        return bytes
    }

    /// The bits of the lock bytes that the set block-lock bits in `lockBytes` freeze: a WRITE
    /// to the lock page cannot change them (NTAG213/215/216 8.5.3, MF0ULX1 8.5.2).
    public func frozenBits(lockBytes: [UInt8]) -> [UInt8] {
        var frozen = [UInt8](repeating: 0, count: max(0, byteCount))
        for block in blockLockBits where isSet(byte: block.byte, bit: block.bit, in: lockBytes) {
            for index in block.freezes where pageLockBits.indices.contains(index) {
                let bit = pageLockBits[index]
                if frozen.indices.contains(bit.byte) { frozen[bit.byte] |= 1 << UInt8(truncatingIfNeeded: bit.bit & 7) }
            }
        }
        return frozen
    }

    /// The lock bytes after a WRITE of `data` to the lock page: the first ``byteCount`` bytes
    /// are bit-wise OR-ed in except for frozen bits; the other bytes of the page are not lock
    /// bits and are left out of the result.
    public func programmed(lockBytes: [UInt8], data: [UInt8]) -> [UInt8] {
        let frozen = frozenBits(lockBytes: lockBytes)
        return frozen.indices.map { index in
            let current = lockBytes.indices.contains(index) ? lockBytes[index] : 0
            let new = data.indices.contains(index) ? data[index] : 0
            return current | (new & ~frozen[index])
        }
    }

    /// The index of the page lock bit covering `page`, if one does.
    public func lockBitIndex(forPage page: Int) -> Int? {
        pageLockBits.firstIndex { $0.pages.contains(page) }
    }

    private func isSet(byte: Int, bit: Int, in bytes: [UInt8]) -> Bool {
        bytes.indices.contains(byte) && bytes[byte] & (1 << UInt8(truncatingIfNeeded: bit & 7)) != 0
    }
}
