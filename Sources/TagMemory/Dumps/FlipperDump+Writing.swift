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
            "UID: " + DumpText.hex(uid),
            "# ISO14443-3A specific data",
            "ATQA: " + DumpText.hex(atqa),
            "SAK: " + DumpText.hex([dump.sak ?? 0]),
            "# \(protocolName) specific data",
            "Data format version: \(dataFormatVersion)",
            "\(protocolName) type: \(chip)",
            "Signature: " + DumpText.hex(try TagDump.fixedLength(dump.signature, 32, "signature")),
            "Mifare version: " + DumpText.hex(try TagDump.fixedLength(dump.version, 8, "GET_VERSION")),
        ]
        for (index, (counter, tearing)) in try dump.countersAndFlags().enumerated() {
            lines.append("Counter \(index): \(counter)")
            lines.append("Tearing \(index): " + DumpText.hex([tearing]))
        }
        lines.append("Pages total: \(dump.pageCount)")
        lines.append("Pages read: \(readPages)")
        for index in 0..<dump.pageCount {
            lines.append("Page \(index): " + DumpText.hex(dump.page(index) ?? []))
        }
        lines.append("Failed authentication attempts: \(dump.failedAuthenticationAttempts ?? 0)")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }
}
