import HexText

/// Reads and writes hex text dumps (``TagDumpFormat/hexText``).
///
/// Grammar, line by line (lines end at `\n`, a `\r` before it is ignored):
///
/// - `#` starts a comment that runs to the end of the line; blank lines are skipped.
/// - An optional line number: `[n]` or `n:` before the data, `n` in hexadecimal (an optional
///   `0x`, at most 8 digits). Numbers must count 0, 1, 2… in order.
/// - The data: 4 bytes (one page) or 16 bytes (four pages, or one MIFARE Classic block) as
///   hex digits, either in two-digit groups (`04 1A 2B 3C`) or run together (`041a2b3c`);
///   every data line of a file has the same length.
///
/// The writer emits a comment line, then `NN: XX XX XX XX` for each page (16 bytes per line
/// for MIFARE Classic), numbers zero-padded to the width of the last one (at least two).
enum HexTextDump {
    /// Reads a dump; `layout` overrides the guess from the content.
    static func decode(_ bytes: [UInt8], layout: TagDump.Layout?) throws(TagMemoryError) -> TagDump {
        var memory: [UInt8] = []
        var lineWidth: Int?
        var index = 0
        for line in DumpText.lines(bytes) {
            var content = line.content
            if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = content[..<hash] }
            content = DumpText.trimmed(content)
            if content.isEmpty { continue }
            let (number, data) = try splitNumber(content, in: line)
            if let number, number.value != index {
                let expected = Hex.number(index)
                throw DumpText.error(
                    line, at: content.startIndex,
                    "line number \(DumpText.quoted(number.text)) found where \(expected) comes next (numbers are "
                        + "hexadecimal and run from 0 without gaps)")
            }
            let values = try dataBytes(data, in: line)
            guard values.count == 4 || values.count == 16 else {
                throw DumpText.error(
                    line, at: data.startIndex,
                    "a line holds 4 bytes (a page) or 16 bytes (a block), not \(values.count)")
            }
            if let width = lineWidth, width != values.count {
                throw DumpText.error(
                    line, at: data.startIndex,
                    "this line holds \(values.count) bytes but earlier lines hold \(width)")
            }
            lineWidth = values.count
            guard memory.count + values.count <= TagDump.maximumMemorySize else {
                throw DumpText.error(
                    line, "the dump grows past \(TagDump.maximumMemorySize) bytes, more than any supported tag")
            }
            memory.append(contentsOf: values)
            index += 1
        }
        guard !memory.isEmpty else {
            throw TagMemoryError(
                .malformedDump, at: bytes.count, "the hex dump holds no pages, only comments and blank lines")
        }
        try RawDump.checkImage(memory, layout: layout ?? .type2, base: bytes.count)
        return TagDump(layout: layout ?? TagDump.Layout.guess(for: memory), memory: memory)
    }

    /// A line number as written and its value (nil when it has more than 8 digits).
    struct LineNumber {
        var text: ArraySlice<UInt8>
        var value: Int?
    }

    /// Splits `[n] data` or `n: data` into the number and the data.
    static func splitNumber(
        _ content: ArraySlice<UInt8>, in line: DumpLine
    ) throws(TagMemoryError) -> (LineNumber?, ArraySlice<UInt8>) {
        var numberText: ArraySlice<UInt8>
        var data: ArraySlice<UInt8>
        if content.first == UInt8(ascii: "[") {
            guard let close = content.firstIndex(of: UInt8(ascii: "]")) else {
                throw DumpText.error(line, at: content.startIndex, "\"[\" without a closing \"]\"")
            }
            numberText = content[(content.startIndex + 1)..<close]
            data = content[(close + 1)...]
        } else if let colon = content.firstIndex(of: UInt8(ascii: ":")) {
            numberText = content[..<colon]
            data = content[(colon + 1)...]
        } else {
            return (nil, content)
        }
        numberText = DumpText.trimmed(numberText)
        let shown = numberText
        if numberText.count > 2, numberText.first == UInt8(ascii: "0"),
            numberText[numberText.startIndex + 1] | 0x20 == UInt8(ascii: "x")
        {
            numberText = numberText.dropFirst(2)
        }
        guard !numberText.isEmpty, numberText.allSatisfy({ Hex.digitValue($0) != nil }) else {
            throw DumpText.error(
                line, at: shown.startIndex, "line number \(DumpText.quoted(shown)) is not a hexadecimal number")
        }
        var value: Int? = nil
        if numberText.count <= 8 {
            value = numberText.reduce(0) { $0 << 4 | Int(Hex.digitValue($1) ?? 0) }
        }
        return (LineNumber(text: shown, value: value), DumpText.trimmed(data))
    }

    /// The bytes of a data field: two-digit groups, or hex digits run together.
    static func dataBytes(_ data: ArraySlice<UInt8>, in line: DumpLine) throws(TagMemoryError) -> [UInt8] {
        var out: [UInt8] = []
        var index = data.startIndex
        while index < data.endIndex {
            if DumpText.isBlank(data[index]) {
                index += 1
                continue
            }
            let end = data[index...].firstIndex(where: DumpText.isBlank) ?? data.endIndex
            let group = data[index..<end]
            if let bad = group.firstIndex(where: { Hex.digitValue($0) == nil }) {
                throw DumpText.error(
                    line, at: bad, "\(DumpText.quoted(data[bad...].prefix(1))) is not a hex digit")
            }
            guard group.count % 2 == 0 else {
                throw DumpText.error(
                    line, at: index, "\(DumpText.quoted(group)) has an odd number of hex digits")
            }
            var digit = group.startIndex
            while digit < group.endIndex {
                out.append((Hex.digitValue(group[digit]) ?? 0) << 4 | (Hex.digitValue(group[digit + 1]) ?? 0))
                digit += 2
            }
            index = end
        }
        return out
    }

    /// Writes a dump.
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try RawDump.checkMemory(of: dump)
        let count = dump.pageCount
        let what = dump.layout == .type2 ? "page" : "block"
        let width = max(2, Hex.number(count - 1).count)
        var text =
            "# \(count) \(what)s of \(dump.layout.unitSize) bytes, one per line; numbers are hexadecimal\n"
        for index in 0..<count {
            text += Hex.number(index, minimumDigits: width) + ": " + Hex.bytes(dump.page(index) ?? []) + "\n"
        }
        return Array(text.utf8)
    }
}
