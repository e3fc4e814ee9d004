/// One Type 2 tag IC: its memory map, lock bits, configuration pages, factory content and
/// commands, from the manufacturer's datasheet.
///
/// The known chips are the `static let` values (``ntag213``, ``mifareUltralightC``, ...) listed
/// in ``Type2ChipCatalogue/all``. The catalogue, not the NFC Forum defaults, is the source of
/// truth for lock bit locations: the NFC Forum default dynamic lock location (16 + CC2 × 8,
/// T2T 1.1, 2.2.2) points into user memory on NTAG215 and NTAG216.
public struct Type2Chip: Sendable, Hashable, CustomStringConvertible {
    /// Commands and functions beyond READ and WRITE (which every chip has).
    public struct Features: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16

        /// Creates a feature set.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// GET_VERSION (60h) answers the 8-byte version.
        public static let getVersion = Features(rawValue: 1 << 0)
        /// FAST_READ (3Ah) reads a page range.
        public static let fastRead = Features(rawValue: 1 << 1)
        /// READ_CNT (39h) reads a 24-bit counter.
        public static let readCounter = Features(rawValue: 1 << 2)
        /// READ_SIG (3Ch) reads the 32-byte originality signature.
        public static let readSignature = Features(rawValue: 1 << 3)
        /// PWD_AUTH (1Bh): 32-bit password, 16-bit PACK, configured by AUTH0 and ACCESS.
        public static let passwordAuthentication = Features(rawValue: 1 << 4)
        /// AUTHENTICATE (1Ah): 3DES mutual authentication, configured by AUTH0 and AUTH1.
        public static let tripleDESAuthentication = Features(rawValue: 1 << 5)
        /// COMPATIBILITY_WRITE (A0h).
        public static let compatibilityWrite = Features(rawValue: 1 << 6)
        /// UID and NFC counter ASCII mirror, set in CFG0 (MIRROR, MIRROR_PAGE).
        public static let asciiMirror = Features(rawValue: 1 << 7)
        /// One 24-bit NFC counter, counting READ/FAST_READ sessions (NFC_CNT_EN in ACCESS).
        public static let nfcCounter = Features(rawValue: 1 << 8)
        /// Three 24-bit one-way counters with INCR_CNT (A5h) and CHECK_TEARING_EVENT (3Eh).
        public static let oneWayCounters = Features(rawValue: 1 << 9)
        /// A 16-bit one-way counter in memory (a page written with the increment).
        public static let pageCounter = Features(rawValue: 1 << 10)
    }

    /// The pages of the PWD_AUTH configuration (NTAG21x, MIFARE Ultralight EV1).
    public struct ConfigurationPages: Sendable, Hashable {
        /// CFG0: MIRROR (or MOD), RFUI, MIRROR_PAGE, AUTH0.
        public var cfg0: Int
        /// CFG1: ACCESS, RFUI (VCTID on EV1), RFUI, RFUI.
        public var cfg1: Int
        /// PWD: the 32-bit password (write-only: reads back as 00h).
        public var password: Int
        /// PACK (2 bytes) and 2 RFUI bytes (write-only: reads back as 00h).
        public var passwordAcknowledge: Int

        /// Creates the page set.
        public init(cfg0: Int, cfg1: Int, password: Int, passwordAcknowledge: Int) {
            self.cfg0 = cfg0
            self.cfg1 = cfg1
            self.password = password
            self.passwordAcknowledge = passwordAcknowledge
        }

        /// All four pages.
        public var pages: ClosedRange<Int> { cfg0...passwordAcknowledge }
    }

    /// The pages of the 3DES configuration (MIFARE Ultralight C).
    public struct TripleDESPages: Sendable, Hashable {
        /// The 16-bit counter page.
        public var counter: Int
        /// AUTH0 (byte 0): the first page that needs authentication; 30h = none.
        public var auth0: Int
        /// AUTH1 (byte 0, bit 0): 1 = write access restricted only, 0 = read and write.
        public var auth1: Int
        /// The four key pages, which READ never returns.
        public var key: ClosedRange<Int>

        /// Creates the page set.
        public init(counter: Int, auth0: Int, auth1: Int, key: ClosedRange<Int>) {
            self.counter = counter
            self.auth0 = auth0
            self.auth1 = auth1
            self.key = key
        }
    }

    /// The product name, e.g. "NTAG213".
    public var name: String
    /// The NXP type code, e.g. "NT2H1311" or "MF0ICU2".
    public var typeCode: String
    /// The GET_VERSION answers of the chip's variants (capacitance, package); empty when the
    /// chip has no GET_VERSION.
    public var versionResponses: [[UInt8]]
    /// The number of pages (the last page address + 1).
    public var pageCount: Int
    /// The first and last user memory page.
    public var userPages: ClosedRange<Int>
    /// The dynamic lock bits, if the chip has any.
    public var dynamicLock: Type2DynamicLockLayout?
    /// The PWD_AUTH configuration pages, if the chip has them.
    public var configurationPages: ConfigurationPages?
    /// The 3DES configuration pages, if the chip has them.
    public var tripleDESPages: TripleDESPages?
    /// The capability container as the chip leaves the factory (00 00 00 00 when NXP ships it
    /// unformatted and the tag maker formats it).
    public var factoryCapabilityContainer: [UInt8]
    /// The user memory content from page 4 as shipped (the bytes that matter; the rest is 00h),
    /// e.g. NTAG213's Lock Control TLV and empty NDEF TLV `01 03 A0 0C 34 03 00 FE`.
    public var factoryData: [UInt8]
    /// The commands and functions the chip has.
    public var features: Features

    /// Creates a chip description.
    public init(
        name: String,
        typeCode: String,
        versionResponses: [[UInt8]],
        pageCount: Int,
        userPages: ClosedRange<Int>,
        dynamicLock: Type2DynamicLockLayout?,
        configurationPages: ConfigurationPages?,
        tripleDESPages: TripleDESPages? = nil,
        factoryCapabilityContainer: [UInt8],
        factoryData: [UInt8],
        features: Features
    ) {
        self.name = name
        self.typeCode = typeCode
        self.versionResponses = versionResponses
        self.pageCount = pageCount
        self.userPages = userPages
        self.dynamicLock = dynamicLock
        self.configurationPages = configurationPages
        self.tripleDESPages = tripleDESPages
        self.factoryCapabilityContainer = factoryCapabilityContainer
        self.factoryData = factoryData
        self.features = features
    }

    /// The user memory size in bytes.
    public var userMemorySize: Int { userPages.count * Type2Page.size }

    /// The chip's ATQA (SENS_RES) as received, least significant byte first: `44 00` (0044h),
    /// which every chip of ``Type2ChipCatalogue`` answers (NXP NTAG21x and MIFARE Ultralight
    /// datasheets, ISO/IEC 14443-3 6.4.2). For readers that do not report it (PC/SC readers).
    public var atqa: [UInt8] { [0x44, 0x00] }

    /// The byte addresses of user memory.
    public var userBytes: Range<Int> { (userPages.lowerBound * 4)..<((userPages.upperBound + 1) * 4) }

    /// The data area size a formatter announces in the CC: the factory value when NXP formats
    /// the chip (NTAG21x), else the whole user memory.
    ///
    /// NTAG215 and NTAG216 ship with E1 10 3E 00 and E1 10 6D 00, 8 and 16 bytes less than their
    /// user memory; readers go by the CC, so a formatter keeps NXP's value.
    public var capabilityContainerDataAreaSize: Int {
        if factoryCapabilityContainer.count == 4, factoryCapabilityContainer[0] == 0xE1 {
            return Int(factoryCapabilityContainer[2]) * 8
        }
        return min(userMemorySize, Type2CapabilityContainer.maximumDataAreaSize)
    }

    /// The capability container a formatter writes: the factory one when NXP formats the chip,
    /// else E1h, version 1.0, the user memory size and free access.
    public var ndefCapabilityContainer: [UInt8] {
        [0xE1, 0x10, UInt8(truncatingIfNeeded: capabilityContainerDataAreaSize / 8), 0x00]
    }

    /// The pages READ never returns (the Ultralight C key). PWD and PACK are not listed: they
    /// are read, as zeros.
    public var unreadablePages: ClosedRange<Int>? { tripleDESPages?.key }

    public var description: String { "\(name) (\(typeCode), \(pageCount) pages, \(userMemorySize) byte user memory)" }
}

/// The Type 2 chips this implementation knows, and how to tell them apart.
public enum Type2ChipCatalogue {
    /// Every chip, smallest first.
    public static let all: [Type2Chip] = [
        .mifareUltralight, .mifareUltralightEV1MF0UL11, .ntag210, .mifareUltralightEV1MF0UL21, .ntag212, .ntag213,
        .mifareUltralightC, .ntag215, .ntag216,
    ]

    /// The chip answering GET_VERSION (60h) with `version` (8 bytes), or nil if none does.
    ///
    /// Only exact answers listed in ``Type2Chip/versionResponses`` match: chips that differ in a
    /// single byte can have different memory (NTAG I2C 1k answers 00 04 04 05 02 01 13 03, with
    /// the same size byte as NTAG216) or different configuration bytes (NTAG213F, NTAG213 TT).
    public static func chip(forVersion version: some Collection<UInt8>) -> Type2Chip? {
        let answer = Array(version)
        return all.first { $0.versionResponses.contains(answer) }
    }

    /// The chips with `pageCount` pages, for a tag that does not answer GET_VERSION.
    ///
    /// `pageCount` is the number of pages READ reaches (the first page that answers NAK), so the
    /// MIFARE Ultralight C, whose 4 key pages never read, is also found at 44. The answer is
    /// ambiguous for 20 pages (MF0UL11 and NTAG210) and 41 pages (MF0UL21 and NTAG212); both
    /// pairs have the same user pages, lock page and configuration pages, so either one gives the
    /// right memory layout, but they differ in factory content and in CFG0/CFG1 details. Since
    /// all four answer GET_VERSION, a tag of 20 or 41 pages that does not is neither exactly.
    public static func chips(forPageCount pageCount: Int) -> [Type2Chip] {
        all.filter { chip in
            chip.pageCount == pageCount
                || (chip.unreadablePages.map { chip.pageCount - $0.count == pageCount } ?? false)
        }
    }

    /// The chip with `pageCount` pages when exactly one has that many, else nil.
    ///
    /// 16 pages: MIFARE Ultralight. 44 or 48 pages: MIFARE Ultralight C (a tag that reads 16 pages
    /// and NAKs page 16 is an Ultralight; one that reads on to page 43 is an Ultralight C). 45,
    /// 135, 231: NTAG213, NTAG215, NTAG216. 20 and 41 are ambiguous and give nil: use
    /// ``chips(forPageCount:)``.
    public static func chip(forPageCount pageCount: Int) -> Type2Chip? {
        let matches = chips(forPageCount: pageCount)
        return matches.count == 1 ? matches.first : nil
    }
}
