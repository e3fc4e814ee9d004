import HexText
import NDEF

/// One line of a text dump file.
struct DumpLine: Sendable {
    /// The line number, from 1.
    var number: Int
    /// The byte offset of the line's first byte in the file.
    var offset: Int
    /// The line without its `\n` and without a `\r` before it.
    var content: ArraySlice<UInt8>
}

/// The lines of a text file, read lazily so that no per-line storage grows with the file.
struct DumpLines: Sequence, IteratorProtocol {
    let bytes: [UInt8]
    private var start: Int
    private var number = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    mutating func next() -> DumpLine? {
        guard start < bytes.endIndex else { return nil }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        var content = bytes[start..<end]
        if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
        let line = DumpLine(number: number, offset: start, content: content)
        number += 1
        start = end < bytes.endIndex ? end + 1 : end
        return line
    }
}

/// Byte-level helpers shared by the text dump formats: lines, hex digits, numbers and errors
/// that name the line.
enum DumpText {
    /// The lines of `bytes`, split at `\n` (a `\r` before it is dropped), produced one at a
    /// time. A final line without a line break counts; an empty input has no lines. A UTF-8
    /// byte order mark is skipped.
    static func lines(_ bytes: [UInt8]) -> DumpLines {
        DumpLines(bytes: bytes)
    }

    /// Whether `bytes` look like text: no control characters other than tab, CR and LF.
    /// Bytes of 0x80 and above (UTF-8 in comments) are allowed.
    static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { byte in
            (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
        }
    }

    /// Whether `byte` is a space, tab or carriage return.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// `text` without leading and trailing spaces, tabs and carriage returns.
    static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = text.firstIndex(where: { !isBlank($0) }),
            let last = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// `text` as a String for messages: at most 40 characters, invalid UTF-8 replaced.
    static func quoted(_ text: ArraySlice<UInt8>) -> String {
        let shown = String(decoding: text.prefix(40), as: UTF8.self)
        return "\"" + shown + (text.count > 40 ? "…" : "") + "\""
    }

    /// A ``TagMemoryError/Code/malformedDump`` naming `line`, at the byte offset `offset`
    /// (the line's start when nil).
    static func error(_ line: DumpLine, at offset: Int? = nil, _ reason: String) -> TagMemoryError {
        TagMemoryError(.malformedDump, at: offset ?? line.offset, "line \(line.number): \(reason)")
    }

    /// Hex bytes written as two-digit groups separated by spaces or tabs (`04 1A 2B 3C`), the
    /// way Flipper firmware writes them.
    static func spacedHexBytes(_ text: ArraySlice<UInt8>, in line: DumpLine) throws(TagMemoryError) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if isBlank(text[index]) {
                index += 1
                continue
            }
            let end = text[index...].firstIndex(where: isBlank) ?? text.endIndex
            let token = text[index..<end]
            guard token.count == 2, let high = Hex.digitValue(token[index]), let low = Hex.digitValue(token[index + 1])
            else {
                throw error(line, at: index, "expected a two-digit hex byte, found \(quoted(token))")
            }
            out.append(high << 4 | low)
            index = end
        }
        return out
    }

    /// An unsigned decimal number (digits only: no sign, no spaces), saturated at `Int.max`;
    /// nil for anything else.
    static func decimal(_ text: ArraySlice<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for char in text {
            guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(char - UInt8(ascii: "0")))
            value = overflow || carry ? Int.max : sum
        }
        return value
    }

    /// The bytes of `text` as a String.
    static func string(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text, as: UTF8.self)
    }
}
