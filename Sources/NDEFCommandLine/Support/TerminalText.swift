import HexText

/// Text from outside (a URL read from standard input, a tag's bytes, a file name) made safe to
/// print as one line of plain output: control characters (C0, DEL, C1) are written as escapes,
/// so that the text can neither forge another line (CR, LF) nor drive the terminal (ESC).
enum TerminalText {
    /// `text` with every control character written out: `\r`, `\n`, `\t`, `\e`, `\\` for a
    /// backslash, and `\u{HH}` for the others.
    static func escaped(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0D: result += "\\r"
            case 0x0A: result += "\\n"
            case 0x09: result += "\\t"
            case 0x1B: result += "\\e"
            case 0x5C: result += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F:
                result += "\\u{" + Hex.number(scalar.value) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
