/// What the dump formats need to know about the MIFARE Ultralight and NTAG chips they name:
/// the name Flipper firmware gives each, its page count and where PWD is kept.
///
/// Names, page counts and configuration pages are those of Flipper firmware
/// `lib/nfc/protocols/mf_ultralight/mf_ultralight.c` (`mf_ultralight_features`, PWD page =
/// configuration page + 2). They agree with the NXP datasheets: NTAG213/215/216 section 8.5
/// (PWD at 0x2B, 0x85, 0xE5) and MF0ULX1 section 8.5 (PWD at 0x12 and 0x27).
struct UltralightChip: Sendable, Hashable {
    /// The name Flipper firmware writes (`NTAG/Ultralight type`, or `Device type` before v4).
    var flipperName: String
    /// Pages in the chip's memory map.
    var pageCount: Int
    /// The page holding PWD (PACK is in the next page), for chips with password protection.
    var passwordPage: Int?

    /// Every chip Flipper firmware names, in the order of its `MfUltralightType` enumeration.
    static let catalogue: [UltralightChip] = [
        UltralightChip(flipperName: "Mifare Ultralight", pageCount: 16, passwordPage: nil),
        UltralightChip(flipperName: "Mifare Ultralight C", pageCount: 48, passwordPage: nil),
        UltralightChip(flipperName: "NTAG203", pageCount: 42, passwordPage: nil),
        UltralightChip(flipperName: "Mifare Ultralight 11", pageCount: 20, passwordPage: 0x12),
        UltralightChip(flipperName: "Mifare Ultralight 21", pageCount: 41, passwordPage: 0x27),
        UltralightChip(flipperName: "NTAG213", pageCount: 45, passwordPage: 0x2B),
        UltralightChip(flipperName: "NTAG215", pageCount: 135, passwordPage: 0x85),
        UltralightChip(flipperName: "NTAG216", pageCount: 231, passwordPage: 0xE5),
        UltralightChip(flipperName: "NTAG I2C 1K", pageCount: 231, passwordPage: nil),
        UltralightChip(flipperName: "NTAG I2C 2K", pageCount: 485, passwordPage: nil),
        UltralightChip(flipperName: "NTAG I2C Plus 1K", pageCount: 236, passwordPage: 0xE5),
        UltralightChip(flipperName: "NTAG I2C Plus 2K", pageCount: 492, passwordPage: 0xE5),
    ]

    /// The chip Flipper firmware calls `name`.
    static func named(_ name: String) -> UltralightChip? {
        catalogue.first { $0.flipperName == name }
    }

    /// The chip a GET_VERSION response names, by the rules of Flipper's
    /// `mf_ultralight_get_type_by_version`: byte 6 is the storage size (0B MF0UL11, 0E MF0UL21,
    /// 0F NTAG213, 11 NTAG215, 13 NTAG216), and subtype 05 with major version 02 marks
    /// NTAG I2C (minor 01) or NTAG I2C plus (minor 02). An all-zero response names nothing.
    static func identified(byVersion version: [UInt8]) -> UltralightChip? {
        guard version.count == 8, version.contains(where: { $0 != 0 }) else { return nil }
        let subtype = version[3]
        let major = version[4]
        let minor = version[5]
        let storage = version[6]
        let name: String?
        switch storage {
        case 0x0B, 0x00: name = "Mifare Ultralight 11"
        case 0x0E: name = "Mifare Ultralight 21"
        case 0x0F: name = "NTAG213"
        case 0x11: name = "NTAG215"
        case 0x13 where subtype == 5 && major == 2 && minor == 1: name = "NTAG I2C 1K"
        case 0x15 where subtype == 5 && major == 2 && minor == 1: name = "NTAG I2C 2K"
        case 0x13 where subtype == 5 && major == 2 && minor == 2: name = "NTAG I2C Plus 1K"
        case 0x15 where subtype == 5 && major == 2 && minor == 2: name = "NTAG I2C Plus 2K"
        case 0x13: name = "NTAG216"
        default: name = nil
        }
        return name.flatMap(named)
    }

    /// The chip a raw libnfc dump of `pageCount` pages comes from: `nfc-mfultralight` reads
    /// 16 pages of an Ultralight and 20, 41, 45, 135 or 231 of an MF0UL11, MF0UL21, NTAG213,
    /// NTAG215 or NTAG216 (libnfc `utils/nfc-mfultralight.c`, `uiBlocks`).
    static func identified(byLibnfcPageCount pageCount: Int) -> UltralightChip? {
        switch pageCount {
        case 16: named("Mifare Ultralight")
        case 20: named("Mifare Ultralight 11")
        case 41: named("Mifare Ultralight 21")
        case 45: named("NTAG213")
        case 135: named("NTAG215")
        case 231: named("NTAG216")
        default: nil
        }
    }

    /// The chip of a Type 2 dump: by the name in the file, else by GET_VERSION, else by the
    /// page counts libnfc writes.
    static func identify(_ dump: TagDump) -> UltralightChip? {
        guard dump.layout == .type2 else { return nil }
        if let name = dump.chipName, let chip = named(name) { return chip }
        if let version = dump.version, let chip = identified(byVersion: version) { return chip }
        return identified(byLibnfcPageCount: dump.pageCount)
    }
}
