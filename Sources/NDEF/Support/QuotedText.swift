extension String {
    /// The text in double quotes for a one-line description: `"` and `\` escaped with a
    /// backslash, line breaks and tabs as `\n`, `\r`, `\t`, other control characters (C0, DEL,
    /// C1) as `\u{XX}`; everything else as it is (apostrophes and non-ASCII letters included).
    public var quotedForDescription: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
