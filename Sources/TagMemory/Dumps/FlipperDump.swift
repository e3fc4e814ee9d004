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
