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

        /// The lock byte addresses.
        public var lockBytes: Range<Int> { byteAddress..<(byteAddress + (lockBitCount + 7) / 8) }
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
    public func isPageLocked(_ page: Int) -> Bool {
        switch page {
        case 0, 1: return true
        case 2: return false
        case 3...15: return staticLock?.isPageLocked(page) ?? false
        default: break
        }
        guard page >= 16 else { return false }
        if let chip {
            if configuration?.isPageLocked(page) == true { return true }
            guard let layout = chip.dynamicLock else { return false }
            return layout.isPageLocked(page, lockBytes: dynamicLockBytes ?? [])
        }
        guard let generic = genericDynamicLock, generic.bytesLockedPerBit > 0 else { return false }
        let lockBytes = dynamicLockBytes ?? []
        let pageBytes = Type2Page.bytes(of: page)
        let firstBit = max(0, (pageBytes.lowerBound - 64) / generic.bytesLockedPerBit)
        let lastBit = (pageBytes.upperBound - 1 - 64) / generic.bytesLockedPerBit
        let upperBit = min(lastBit, generic.lockBitCount - 1)
        guard lastBit >= 0, firstBit <= upperBit else { return false }
        for bit in firstBit...upperBit where bit / 8 < lockBytes.count {
            if lockBytes[bit / 8] & (1 << UInt8(bit % 8)) != 0 { return true }
        }
        return false
    }

    /// The locked pages among the image's pages.
    public var lockedPages: [Int] {
        let count = chip?.pageCount ?? (bytes.count + 3) / 4
        return (0..<count).filter(isPageLocked)
    }
}
