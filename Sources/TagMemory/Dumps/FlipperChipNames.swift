/// The names Flipper Zero firmware gives MIFARE Ultralight and NTAG chips, tied to the chips of
/// ``Type2ChipCatalogue`` they denote.
///
/// The names are those of Flipper firmware `lib/nfc/protocols/mf_ultralight/mf_ultralight.c`
/// (`mf_ultralight_features`, in the order of its `MfUltralightType` enumeration). Everything
/// else about a chip (pages, lock bits, where PWD is kept) comes from the catalogue.
enum FlipperChipNames {
    /// Flipper's names of chips the catalogue describes.
    ///
    /// Flipper firmware tells chips apart by the storage size byte of GET_VERSION only
    /// (`mf_ultralight_get_type_by_version`: 0Bh MF0UL11, 0Eh MF0UL21), so it names an NTAG210
    /// "Mifare Ultralight 11" and an NTAG212 "Mifare Ultralight 21". Both pairs share their
    /// memory layout (NTAG210/212 datasheet 8.5, MF0ULX1 8.5); reading such a name back gives the
    /// Ultralight EV1.
    static let catalogued: [(chip: Type2Chip, name: String)] = [
        (.mifareUltralight, "Mifare Ultralight"),
        (.mifareUltralightC, "Mifare Ultralight C"),
        (.mifareUltralightEV1MF0UL11, "Mifare Ultralight 11"),
        (.mifareUltralightEV1MF0UL21, "Mifare Ultralight 21"),
        (.ntag213, "NTAG213"),
        (.ntag215, "NTAG215"),
        (.ntag216, "NTAG216"),
        (.ntag210, "Mifare Ultralight 11"),
        (.ntag212, "Mifare Ultralight 21"),
    ]

    /// Flipper's names of chips the catalogue does not describe: NTAG203, NTAG I2C, NTAG I2C plus.
    static let uncatalogued: Set<String> = [
        "NTAG203", "NTAG I2C 1K", "NTAG I2C 2K", "NTAG I2C Plus 1K", "NTAG I2C Plus 2K",
    ]

    /// Whether Flipper firmware has a chip called `name`.
    static func isKnown(_ name: String) -> Bool {
        chip(named: name) != nil || uncatalogued.contains(name)
    }

    /// The catalogue chip Flipper firmware calls `name` (the first listed for a shared name).
    static func chip(named name: String) -> Type2Chip? {
        catalogued.first { $0.name == name }?.chip
    }

    /// The name Flipper firmware writes for `chip`, or nil for a chip it has no name for.
    static func name(of chip: Type2Chip) -> String? {
        catalogued.first { $0.chip == chip }?.name
    }
}
