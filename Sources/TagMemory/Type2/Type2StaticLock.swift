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

    /// The locked pages among 3...15.
    public var lockedPages: [Int] { (3...15).filter(isPageLocked) }

    /// The two bytes.
    public var bytes: [UInt8] { [lock0, lock1] }
}
