import HexText

/// Reads Flipper Zero `.nfc` files of NTAG/Ultralight tags (``TagDumpFormat/flipper``).
///
/// The key sequence, from Flipper firmware `lib/nfc/nfc_device.c` (`nfc_device_save`),
/// `lib/nfc/protocols/iso14443_3a/iso14443_3a.c` and
/// `lib/nfc/protocols/mf_ultralight/mf_ultralight.c` (`mf_ultralight_save`/`_load`):
///
/// `Filetype: Flipper NFC device`, `Version`, `Device type`, `UID`, `ATQA`, `SAK`,
/// `Data format version` (Ultralight data format: absent in the first version 2 files, 1 from
/// August 2022, 2 with file version 4), `NTAG/Ultralight type` (when the data format is 2 or
/// more), `Signature` (32 bytes), `Mifare version` (8), `Counter 0`, `Tearing 0`, … `Tearing 2`
/// (counters in decimal), `Pages total`, `Pages read` (from data format 1), `Page 0` … (4 bytes
/// each), `Failed authentication attempts` (from data format 1).
///
/// The firmware finds each key by reading forward, skipping lines it does not look for. This
/// reader takes keys in any order, ignores keys it does not know (they are not kept), and
/// requires the `Page` lines to run 0, 1, 2… up to `Pages total`. It requires every key the
/// firmware's loader requires; `Pages read` and `Failed authentication attempts` are optional
/// (a missing `Pages read` means all pages were read). Only NTAG/Ultralight files are read:
/// other device types (MIFARE Classic, ISO14443-4A, …) are refused with the line naming them.
enum FlipperDump {
    /// The `Filetype` value of every NFC file.
    static let fileType = "Flipper NFC device"
    /// The file version the writer produces (`NFC_CURRENT_FORMAT_VERSION`).
    static let currentVersion = 4
    /// The `Device type` of NTAG/Ultralight files from version 4 on (`MF_ULTRALIGHT_PROTOCOL_NAME`).
    static let protocolName = "NTAG/Ultralight"
    /// The most pages the firmware keeps (`MF_ULTRALIGHT_MAX_PAGE_NUM`); its loader refuses more.
    static let maximumPages = 510

    /// One `Key: value` line.
    struct Entry {
        var key: String
        var value: ArraySlice<UInt8>
        var line: DumpLine
    }

    /// The `Key: value` line `line` holds, nil for a comment (`#` first on the line) or a
    /// blank line.
    static func entry(_ line: DumpLine) throws(TagMemoryError) -> Entry? {
        let content = DumpText.trimmed(line.content)
        if content.isEmpty || content.first == UInt8(ascii: "#") { return nil }
        guard let colon = line.content.firstIndex(of: UInt8(ascii: ":")) else {
            throw DumpText.error(line, "expected \"Key: value\", found \(DumpText.quoted(content))")
        }
        let value = DumpText.trimmed(line.content[(colon + 1)...])
        return Entry(key: DumpText.string(line.content[..<colon]), value: value, line: line)
    }

    /// Reads a file, line by line.
    static func decode(_ bytes: [UInt8]) throws(TagMemoryError) -> TagDump {
        var fields: FlipperFields?
        for line in DumpText.lines(bytes) {
            guard let entry = try entry(line) else { continue }
            if fields != nil {
                try fields?.take(entry)
                continue
            }
            guard entry.key == "Filetype" else {
                throw DumpText.error(entry.line, "a Flipper file starts with \"Filetype: \(fileType)\"")
            }
            guard DumpText.string(entry.value) == fileType else {
                throw DumpText.error(entry.line, "file type \(DumpText.quoted(entry.value)) is not \"\(fileType)\"")
            }
            fields = FlipperFields(fileLength: bytes.count)
        }
        guard let fields else {
            throw TagMemoryError(.malformedDump, at: 0, "the file has no \"Filetype: \(fileType)\" line")
        }
        return try fields.makeDump()
    }
}

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

extension FlipperDump {
    /// The comment Flipper firmware writes before `Device type`: "Device type can be " and the
    /// `protocol_name` of every registered protocol (`lib/nfc/nfc_device.c`, `nfc_device_save`;
    /// `lib/nfc/protocols/nfc_device_defs.c`). This is the list of the official firmware's
    /// twelve protocols; later firmware appends more names. Readers ignore comments.
    static let deviceTypesComment =
        "Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, "
        + "NTAG/Ultralight, Mifare Classic, Mifare Plus, Mifare DESFire, SLIX, ST25TB"

    /// The Ultralight data format version written (`mf_ultralight_data_format_version`).
    static let dataFormatVersion = 2

    /// Writes a version 4 file line for line as `nfc_device_save` and `mf_ultralight_save` do.
    ///
    /// Fields the dump lacks get the values a Flipper would hold for them: the UID from pages
    /// 0-1, ATQA `00 44` and SAK `00` (what every Ultralight and NTAG answers, NTAG213/215/216
    /// datasheet 9.3), zeros for the signature, GET_VERSION, counters and tearing flags, every
    /// page read, no failed authentications. The chip is named by ``TagDump/chipName``, else
    /// as GET_VERSION or the page count identify it, else `Mifare Ultralight` (the firmware's
    /// name for an unidentified Ultralight).
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try RawDump.checkMemory(of: dump)
        guard dump.layout == .type2 else {
            throw TagMemoryError(.invalidArgument, "this writer writes NTAG/Ultralight files, not MIFARE Classic")
        }
        guard dump.pageCount <= maximumPages else {
            throw TagMemoryError(
                .invalidArgument, "Flipper firmware keeps at most \(maximumPages) pages, not \(dump.pageCount)")
        }
        guard let uid = dump.effectiveUID, [4, 7, 10].contains(uid.count) else {
            throw TagMemoryError(.invalidArgument, "a Flipper file needs a UID of 4, 7 or 10 bytes")
        }
        let atqa = try TagDump.fixedLength(dump.atqa ?? [0x00, 0x44], 2, "ATQA")
        let readPages = dump.readPageCount ?? dump.pageCount
        guard (0...dump.pageCount).contains(readPages) else {
            throw TagMemoryError(
                .invalidArgument, "\(readPages) pages read is not between 0 and the \(dump.pageCount) pages")
        }
        let identified = dump.chipIdentification?.chip.flatMap(FlipperChipNames.name(of:))
        let chip = dump.chipName ?? identified ?? "Mifare Ultralight"
        guard !chip.isEmpty, !chip.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw TagMemoryError(.invalidArgument, "the chip name must be one line of text")
        }
        var lines: [String] = [
            "Filetype: \(fileType)",
            "Version: \(currentVersion)",
            "# \(deviceTypesComment)",
            "Device type: \(protocolName)",
            "# UID is common for all formats",
            "UID: " + Hex.bytes(uid),
            "# ISO14443-3A specific data",
            "ATQA: " + Hex.bytes(atqa),
            "SAK: " + Hex.bytes([dump.sak ?? 0]),
            "# \(protocolName) specific data",
            "Data format version: \(dataFormatVersion)",
            "\(protocolName) type: \(chip)",
            "Signature: " + Hex.bytes(try TagDump.fixedLength(dump.signature, 32, "signature")),
            "Mifare version: " + Hex.bytes(try TagDump.fixedLength(dump.version, 8, "GET_VERSION")),
        ]
        for (index, (counter, tearing)) in try dump.countersAndFlags().enumerated() {
            lines.append("Counter \(index): \(counter)")
            lines.append("Tearing \(index): " + Hex.bytes([tearing]))
        }
        lines.append("Pages total: \(dump.pageCount)")
        lines.append("Pages read: \(readPages)")
        for index in 0..<dump.pageCount {
            lines.append("Page \(index): " + Hex.bytes(dump.page(index) ?? []))
        }
        lines.append("Failed authentication attempts: \(dump.failedAuthenticationAttempts ?? 0)")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }
}
