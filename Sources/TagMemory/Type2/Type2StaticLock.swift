/// The static lock bytes of a Type 2 tag: page 2, bytes 2 and 3 (byte addresses 10 and 11).
///
/// NFC Forum Type 2 Tag 1.1, 2.1.2, and every NXP datasheet of the family (e.g. NTAG213/215/216
/// 8.5.2, MF0ICU2 7.5.2):
/// - lock byte 0: bit 0 block-locks the CC lock bit, bit 1 block-locks L4-L9, bit 2
///   block-locks L10-L15, bit 3 locks page 3 (the CC), bits 4-7 lock pages 4-7;
/// - lock byte 1: bits 0-7 lock pages 8-15.
///
/// A set lock bit makes its page read-only for good; a set block-lock bit freezes lock bits.
public struct Type2StaticLock: Sendable, Hashable {
    /// Lock byte 0 (byte address 10).
    public var lock0: UInt8
    /// Lock byte 1 (byte address 11).
    public var lock1: UInt8

    /// Creates the lock bytes.
    public init(lock0: UInt8, lock1: UInt8) {
        self.lock0 = lock0
        self.lock1 = lock1
    }

    /// The bytes with every page lock bit set: pages 3 to 15 (`F8 FF`).
    public static let allPagesLocked = Type2StaticLock(lock0: 0xF8, lock1: 0xFF)
    /// The bytes with every block-lock bit set (`07 00`).
    public static let allBitsFrozen = Type2StaticLock(lock0: 0x07, lock1: 0x00)

    /// Whether `page` (3-15) is locked; pages outside 3...15 are not governed by these bytes.
    public func isPageLocked(_ page: Int) -> Bool {
        switch page {
        case 3...7: lock0 & (1 << UInt8(page)) != 0
        case 8...15: lock1 & (1 << UInt8(page - 8)) != 0
        default: false
        }
    }

    /// Whether the lock bit of `page` (3-15) can no longer change.
    public func isLockBitFrozen(forPage page: Int) -> Bool {
        switch page {
        case 3: lock0 & 0x01 != 0
        case 4...9: lock0 & 0x02 != 0
        case 10...15: lock0 & 0x04 != 0
        default: false
        }
    }

    /// The lock bits the set block-lock bits freeze: BL-CC (lock 0 bit 0) freezes L-CC (lock 0
    /// bit 3), BL 9-4 (bit 1) freezes L4-L9 (lock 0 bits 4-7, lock 1 bits 0-1), BL 15-10 (bit 2)
    /// freezes L10-L15 (lock 1 bits 2-7). A WRITE to page 2 cannot change these bits.
    public var frozenBits: Type2StaticLock {
        var frozen = Type2StaticLock(lock0: 0, lock1: 0)
        if lock0 & 0x01 != 0 { frozen.lock0 |= 0x08 }
        if lock0 & 0x02 != 0 {
            frozen.lock0 |= 0xF0
            frozen.lock1 |= 0x03
        }
        if lock0 & 0x04 != 0 { frozen.lock1 |= 0xFC }
        return frozen
    }

    /// The bytes after a WRITE of `lock0` and `lock1` to page 2 bytes 2-3: bit-wise OR-ed in,
    /// except for the bits a block-lock bit froze (NTAG213/215/216 8.5.2, MF0ICU1 8.5.2).
    public func programmed(lock0 newLock0: UInt8, lock1 newLock1: UInt8) -> Type2StaticLock {
        let frozen = frozenBits
        return Type2StaticLock(
            lock0: lock0 | (newLock0 & ~frozen.lock0), lock1: lock1 | (newLock1 & ~frozen.lock1))
    }

    /// The lock bit of `page` (3-15) as a mask of (lock 0, lock 1); nil outside 3...15.
    public static func lockBit(forPage page: Int) -> Type2StaticLock? {
        switch page {
        case 3...7: Type2StaticLock(lock0: 1 << UInt8(page), lock1: 0)
        case 8...15: Type2StaticLock(lock0: 0, lock1: 1 << UInt8(page - 8))
        default: nil
        }
    }

    /// The locked pages among 3...15.
    public var lockedPages: [Int] { (3...15).filter(isPageLocked) }

    /// The two bytes.
    public var bytes: [UInt8] { [lock0, lock1] }
}
