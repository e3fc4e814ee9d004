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
