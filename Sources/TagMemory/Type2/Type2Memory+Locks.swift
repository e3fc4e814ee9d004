extension Type2Memory {
    /// Where the dynamic lock bits are and what they lock, for a chip not in the catalogue:
    /// the first Lock Control TLV, else the NFC Forum default (T2T 1.1, 2.2.2).
    public struct GenericDynamicLock: Sendable, Hashable {
        /// The byte address of the first lock byte.
        public var byteAddress: Int
        /// The number of lock bits.
        public var lockBitCount: Int
        /// The bytes each bit locks, from byte 64 (data area byte 48) on.
        public var bytesLockedPerBit: Int

        /// Creates a model.
        public init(byteAddress: Int, lockBitCount: Int, bytesLockedPerBit: Int) {
            self.byteAddress = byteAddress
            self.lockBitCount = lockBitCount
            self.bytesLockedPerBit = bytesLockedPerBit
        }

        /// The lock byte addresses.
        public var lockBytes: Range<Int> { byteAddress..<(byteAddress + max(0, lockBitCount + 7) / 8) }
    }

    /// The dynamic lock model of an unknown chip, or nil for a known chip (whose layout
    /// ``Type2Chip/dynamicLock`` is used) or a static memory (data area of 48 bytes or less).
    ///
    /// Without a Lock Control TLV the default is 2.2.2's: lock bytes right after the data area,
    /// ⌈(data area − 48) / 8⌉ bits of 8 bytes each.
    public var genericDynamicLock: GenericDynamicLock? {
        guard chip == nil, let area = dataArea else { return nil }
        if let control = tlvs.first(where: { $0.lockControl != nil })?.lockControl {
            return GenericDynamicLock(
                byteAddress: control.byteAddress, lockBitCount: control.lockBitCount,
                bytesLockedPerBit: control.bytesLockedPerBit)
        }
        let size = area.count
        guard size > 48 else { return nil }
        return GenericDynamicLock(byteAddress: area.upperBound, lockBitCount: (size - 48 + 7) / 8, bytesLockedPerBit: 8)
    }

    /// The dynamic lock bytes: from the chip's layout, else the generic model; missing bytes
    /// (a partial image) are left out. Nil when there are none.
    public var dynamicLockBytes: [UInt8]? {
        let range: Range<Int>
        if let layout = chip?.dynamicLock {
            range = layout.byteRange
        } else if let generic = genericDynamicLock {
            range = generic.lockBytes
        } else {
            return nil
        }
        return Array(bytes[range.clamped(to: 0..<bytes.count)])
    }

    /// Whether `page` is write-locked for good by lock bits.
    ///
    /// - Pages 0 and 1 (UID) are always locked: programmed and write-protected at the factory.
    ///   Page 2 is not reported locked (its lock bytes are one-time programmable, OR-ed in).
    /// - Pages 3-15: the static lock bits (2.1.2).
    /// - From page 16: the chip's dynamic lock bits, or for an unknown chip those of the Lock
    ///   Control TLV or the NFC Forum default (a page counts as locked if any byte is).
    /// - CFG0 and CFG1 when CFGLCK is set (``Type2Configuration/isPageLocked(_:)``).
    ///
    /// Lock bytes the image does not hold count as 0. Password protection is not a lock:
    /// see ``configuration``.
    public func isPageLocked(_ page: Int) -> Bool { LockView(self).isLocked(page) }

    /// The locked pages among the image's pages.
    public var lockedPages: [Int] {
        let count = chip?.pageCount ?? (bytes.count + 3) / 4
        let view = LockView(self)
        return (0..<count).filter(view.isLocked)
    }
}

/// The locked page ranges of an image, gathered once to answer many page questions.
struct LockView {
    /// The locked pages, as ranges (possibly overlapping).
    let ranges: [ClosedRange<Int>]

    init(_ memory: Type2Memory) {
        var ranges: [ClosedRange<Int>] = [0...1]
        if let staticLock = memory.staticLock {
            ranges += staticLock.lockedPages.map { $0...$0 }
        }
        let dynamicBytes = memory.dynamicLockBytes ?? []
        if let chip = memory.chip {
            if let configuration = memory.configuration, configuration.isConfigurationLocked,
                let pages = chip.configurationPages
            {
                ranges.append(pages.cfg0...pages.cfg1)
            }
            ranges += chip.dynamicLock?.lockedPages(lockBytes: dynamicBytes) ?? []
        } else if let generic = memory.genericDynamicLock, generic.bytesLockedPerBit > 0 {
            // Bit n locks bytes 64 + n × size ..< 64 + (n + 1) × size (T2T 1.1, 2.2.2).
            for bit in 0..<min(generic.lockBitCount, dynamicBytes.count * 8)
            where dynamicBytes[bit / 8] & (1 << UInt8(bit % 8)) != 0 {
                let first = 64 + bit * generic.bytesLockedPerBit
                let last = first + generic.bytesLockedPerBit - 1
                ranges.append(Type2Page.containing(byte: first)...Type2Page.containing(byte: last))
            }
        }
        self.ranges = ranges
    }

    func isLocked(_ page: Int) -> Bool { ranges.contains { $0.contains(page) } }

    /// The first locked page in `pages`, if any.
    func firstLocked(in pages: ClosedRange<Int>) -> Int? {
        ranges.filter { $0.overlaps(pages) }.map { max($0.lowerBound, pages.lowerBound) }.min()
    }
}
