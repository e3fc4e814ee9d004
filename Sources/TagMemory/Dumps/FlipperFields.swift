/// The keys of a Flipper NTAG/Ultralight file as they are read: each value is checked when
/// its line is met, and ``makeDump()`` checks what needs the whole file.
struct FlipperFields {
    /// The file's length, the offset given for keys that are missing.
    let fileLength: Int
    /// The line each known key was first found on, to report repeats.
    private var seen: [String: Int] = [:]
    private var version: (value: Int, line: DumpLine)?
    private var deviceType: (value: String, line: DumpLine)?
    private var uid: [UInt8]?
    private var atqa: [UInt8]?
    private var sak: UInt8?
    private var dataFormatVersion: Int?
    private var ultralightType: String?
    private var signature: [UInt8]?
    private var mifareVersion: [UInt8]?
    private var counters: [UInt32?] = [nil, nil, nil]
    private var tearing: [UInt8?] = [nil, nil, nil]
    private var pagesTotal: (value: Int, line: DumpLine)?
    private var pagesRead: (value: Int, line: DumpLine)?
    private var failedAttempts: UInt32?
    private var memory: [UInt8] = []
    private var pageLines: [DumpLine] = []

    /// The keys read (besides `Filetype` and `Page N`); others are skipped.
    static let knownKeys: Set<String> = [
        "Version", "Device type", "UID", "ATQA", "SAK", "Data format version", "NTAG/Ultralight type",
        "Signature", "Mifare version", "Counter 0", "Counter 1", "Counter 2", "Tearing 0", "Tearing 1",
        "Tearing 2", "Pages total", "Pages read", "Failed authentication attempts",
    ]

    init(fileLength: Int) {
        self.fileLength = fileLength
    }

    /// Reads one `Key: value` line; keys this reader does not know are skipped.
    mutating func take(_ entry: FlipperDump.Entry) throws(TagMemoryError) {
        let key = entry.key
        if key.hasPrefix("Page "), key != "Pages total", key != "Pages read" {
            try takePage(entry)
            return
        }
        guard Self.knownKeys.contains(key) else { return }
        if let earlier = seen[key] {
            throw DumpText.error(entry.line, "\"\(key)\" appears again (first on line \(earlier))")
        }
        seen[key] = entry.line.number
        let line = entry.line
        let value = entry.value
        switch key {
        case "Version": version = (try number(entry, limit: 1_000_000), line)
        case "Device type": deviceType = (DumpText.string(value), line)
        case "UID":
            let bytes = try DumpText.spacedHexBytes(value, in: line)
            guard [4, 7, 10].contains(bytes.count) else {
                throw DumpText.error(line, at: value.startIndex, "a UID has 4, 7 or 10 bytes, not \(bytes.count)")
            }
            uid = bytes
        case "ATQA": atqa = try hexBytes(entry, count: 2)
        case "SAK": sak = try hexBytes(entry, count: 1)[0]
        case "Data format version": dataFormatVersion = try number(entry, limit: 1_000_000)
        case "NTAG/Ultralight type": ultralightType = DumpText.string(value)
        case "Signature": signature = try hexBytes(entry, count: 32)
        case "Mifare version": mifareVersion = try hexBytes(entry, count: 8)
        case "Counter 0", "Counter 1", "Counter 2":
            counters[Int(key.utf8.last ?? 0) - 48] = UInt32(try number(entry, limit: Int(UInt32.max)))
        case "Tearing 0", "Tearing 1", "Tearing 2":
            tearing[Int(key.utf8.last ?? 0) - 48] = try hexBytes(entry, count: 1)[0]
        case "Pages total": pagesTotal = (try pageCount(entry), line)
        case "Pages read": pagesRead = (try pageCount(entry), line)
        default: failedAttempts = UInt32(try number(entry, limit: Int(UInt32.max)))
        }
    }

    /// Reads `Page N`: pages must come in order from 0 and stay within `Pages total`.
    private mutating func takePage(_ entry: FlipperDump.Entry) throws(TagMemoryError) {
        let line = entry.line
        let numberText = entry.key.utf8.dropFirst(5)
        guard let index = DumpText.decimal(ArraySlice(numberText)) else {
            throw DumpText.error(
                line, "page number \(DumpText.quoted(ArraySlice(numberText))) is not a decimal number")
        }
        let limit = FlipperDump.maximumPages
        guard index < limit else {
            throw DumpText.error(
                line,
                "Page \(DumpText.string(ArraySlice(numberText))) is beyond the \(limit) pages (0-\(limit - 1)) "
                    + "Flipper firmware keeps")
        }
        let expected = memory.count / 4
        guard index == expected else {
            let reason = index < expected ? "appears again" : "comes before Page \(expected)"
            throw DumpText.error(line, "Page \(index) \(reason); pages run from 0 in order")
        }
        if let total = pagesTotal, index >= total.value {
            throw DumpText.error(
                line, "Page \(index) is beyond \"Pages total: \(total.value)\" (line \(total.line.number))")
        }
        memory.append(contentsOf: try hexBytes(entry, count: 4))
        pageLines.append(line)
    }

    /// Exactly `count` two-digit hex bytes.
    private func hexBytes(_ entry: FlipperDump.Entry, count: Int) throws(TagMemoryError) -> [UInt8] {
        let bytes = try DumpText.spacedHexBytes(entry.value, in: entry.line)
        guard bytes.count == count else {
            throw DumpText.error(
                entry.line, at: entry.value.startIndex,
                "\"\(entry.key)\" holds \(count) byte\(count == 1 ? "" : "s"), not \(bytes.count)")
        }
        return bytes
    }

    /// A decimal number no larger than `limit`.
    private func number(_ entry: FlipperDump.Entry, limit: Int) throws(TagMemoryError) -> Int {
        guard let value = DumpText.decimal(entry.value) else {
            throw DumpText.error(
                entry.line, at: entry.value.startIndex,
                "\"\(entry.key)\" must be an unsigned decimal number, not \(DumpText.quoted(entry.value))")
        }
        guard value <= limit else {
            throw DumpText.error(
                entry.line, at: entry.value.startIndex,
                "\"\(entry.key)\" is \(DumpText.quoted(entry.value)), more than \(limit)")
        }
        return value
    }

    /// A page count no larger than the firmware's limit.
    private func pageCount(_ entry: FlipperDump.Entry) throws(TagMemoryError) -> Int {
        let value = try number(entry, limit: Int.max)
        guard value <= FlipperDump.maximumPages else {
            throw DumpText.error(
                entry.line, at: entry.value.startIndex,
                "\"\(entry.key)\" is \(DumpText.quoted(entry.value)), more than the \(FlipperDump.maximumPages) pages "
                    + "Flipper firmware keeps")
        }
        return value
    }

    /// An error for a key the file lacks.
    private func missing(_ key: String, _ why: String = "") -> TagMemoryError {
        TagMemoryError(.malformedDump, at: fileLength, "the file has no \"\(key)\" line\(why)")
    }

    /// Checks the file as a whole and builds the dump.
    func makeDump() throws(TagMemoryError) -> TagDump {
        guard let version else { throw missing("Version") }
        guard (2...4).contains(version.value) else {
            let reason =
                version.value == 1
                ? "version 1 files are not read (Flipper firmware refuses them too)"
                : "file version \(version.value) is not one this reader knows (2, 3 and 4)"
            throw DumpText.error(version.line, reason)
        }
        guard let deviceType else { throw missing("Device type") }
        let chipName = try chipName(fileVersion: version.value, deviceType: deviceType)
        guard let uid else { throw missing("UID") }
        guard var atqa else { throw missing("ATQA") }
        if version.value == 2 { atqa.reverse() }  // version 2 wrote ATQA least significant byte first
        guard let sak else { throw missing("SAK") }
        guard let signature else { throw missing("Signature") }
        guard let mifareVersion else { throw missing("Mifare version") }
        var counterValues: [UInt32] = []
        var tearingValues: [UInt8] = []
        for index in 0..<3 {
            guard let counter = counters[index] else { throw missing("Counter \(index)") }
            guard let flag = tearing[index] else { throw missing("Tearing \(index)") }
            counterValues.append(counter)
            tearingValues.append(flag)
        }
        guard let pagesTotal else { throw missing("Pages total") }
        if pagesRead == nil, (dataFormatVersion ?? 0) >= 2 {
            throw missing("Pages read", " (required with \"Data format version\" 2)")
        }
        let pages = memory.count / 4
        if pages > pagesTotal.value {
            let total = pagesTotal.value
            throw DumpText.error(
                pageLines[total], "Page \(total) is beyond \"Pages total: \(total)\" (line \(pagesTotal.line.number))")
        }
        guard pages == pagesTotal.value, pages > 0 else {
            throw DumpText.error(
                pagesTotal.line,
                "\"Pages total\" is \(pagesTotal.value) but the file has \(pages) Page line\(pages == 1 ? "" : "s")")
        }
        if let pagesRead, pagesRead.value > pagesTotal.value {
            throw DumpText.error(
                pagesRead.line, "\"Pages read\" (\(pagesRead.value)) is more than \"Pages total\" (\(pagesTotal.value))"
            )
        }
        return TagDump(
            layout: .type2, memory: memory, uid: uid, atqa: atqa, sak: sak, version: mifareVersion,
            signature: signature, counters: counterValues, tearingFlags: tearingValues, chipName: chipName,
            readPageCount: pagesRead?.value, failedAuthenticationAttempts: failedAttempts)
    }

    /// The chip name: version 4 files say `Device type: NTAG/Ultralight` and name the chip in
    /// `NTAG/Ultralight type` (data format 2); older files name it in `Device type`.
    private func chipName(fileVersion: Int, deviceType: (value: String, line: DumpLine)) throws(TagMemoryError)
        -> String?
    {
        if fileVersion >= 4 {
            guard deviceType.value == FlipperDump.protocolName else {
                throw DumpText.error(
                    deviceType.line,
                    "device type \"\(deviceType.value)\" is not \"\(FlipperDump.protocolName)\": only NTAG/Ultralight "
                        + "files are read")
            }
            if ultralightType == nil, (dataFormatVersion ?? 0) >= 2 {
                throw missing("NTAG/Ultralight type", " (required with \"Data format version\" 2)")
            }
            return ultralightType
        }
        guard FlipperChipNames.isKnown(deviceType.value) else {
            throw DumpText.error(
                deviceType.line,
                "device type \"\(deviceType.value)\" is not an NTAG/Ultralight type: only NTAG/Ultralight files "
                    + "are read")
        }
        return deviceType.value
    }
}
