/// Splits template text into words and words into segments (see ``MessageTemplate``).
enum TemplateTokenizer {
    /// The words of `text` with the line and column where each starts.
    static func words(of text: String) throws(ProvisioningError) -> [(text: String, line: Int, column: Int)] {
        var words: [(text: String, line: Int, column: Int)] = []
        var current: String?
        var start = (line: 1, column: 1)
        var line = 1
        var column = 0
        var quote: (mark: Character, line: Int, column: Int)?
        var escaping = false
        for character in text {
            column += 1
            if let open = quote {
                if escaping {
                    escaping = false
                    current?.append(character)
                } else if open.mark == "\"" && character == "\\" {
                    escaping = true
                } else if character == open.mark {
                    quote = nil
                } else {
                    current?.append(character)
                }
            } else if character == " " || character == "\t" || character == "\n" || character == "\r\n"
                || character == "\r"
            {
                if let word = current { words.append((word, start.line, start.column)) }
                current = nil
            } else {
                if current == nil {
                    current = ""
                    start = (line, column)
                }
                if character == "'" || character == "\"" {
                    quote = (character, line, column)
                } else {
                    current?.append(character)
                }
            }
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 0
            }
        }
        if let open = quote {
            throw ProvisioningError(.malformedTemplate, line: open.line, column: open.column, "unclosed quote")
        }
        if let word = current { words.append((word, start.line, start.column)) }
        return words
    }

    /// The segments of one word, with placeholders checked against `fields`.
    static func segments(
        of word: String, line: Int, column: Int, fields: [String]
    ) throws(ProvisioningError) -> [MessageTemplate.Segment] {
        var segments: [MessageTemplate.Segment] = []
        var literal = ""
        var characters = Substring(word)
        var offset = column
        func fail(_ reason: String) -> ProvisioningError {
            ProvisioningError(.malformedTemplate, line: line, column: column == 0 ? 0 : offset, reason)
        }
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == "}" {
                guard characters.first == "}" else { throw fail("'}' without '{' (write '}}' for a brace)") }
                characters = characters.dropFirst()
                literal.append("}")
                offset += 2
                continue
            }
            guard character == "{" else {
                literal.append(character)
                offset += 1
                continue
            }
            if characters.first == "{" {
                characters = characters.dropFirst()
                literal.append("{")
                offset += 2
                continue
            }
            guard let close = characters.firstIndex(of: "}") else {
                throw fail("'{' without '}' (write '{{' for a brace)")
            }
            let body = characters[..<close]
            characters = characters[characters.index(after: close)...]
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = ""
            }
            segments.append(try placeholder(String(body), fields: fields, fail: fail))
            offset += body.count + 2
        }
        if !literal.isEmpty || segments.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    private static func placeholder(
        _ body: String, fields: [String], fail: (String) -> ProvisioningError
    ) throws(ProvisioningError) -> MessageTemplate.Segment {
        let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let modifier = parts.count > 1 ? String(parts[1]) : nil
        switch (name, modifier) {
        case ("uid-mirror", nil): return .mirror(counter: false)
        case ("counter-mirror", nil): return .mirror(counter: true)
        case ("uid", nil), ("uid", "upper"): return .uid(uppercase: true)
        case ("uid", "lower"): return .uid(uppercase: false)
        case ("row", nil): return .row(width: 0)
        case ("row", let width?):
            guard let width = Int(width), (1...CounterRange.maximumWidth).contains(width) else {
                throw fail("{row:WIDTH} takes a width of 1 to \(CounterRange.maximumWidth)")
            }
            return .row(width: width)
        case ("uid", let other?): throw fail("{uid:\(printable(other))}: the modifier must be 'lower' or 'upper'")
        default: break
        }
        // {enc:FIELD}: NTAG 424 DNA encrypted file data holding the row's FIELD.
        if name == "enc", !fields.contains(name), let modifier {
            guard fields.contains(modifier) else {
                throw fail(
                    "{enc:\(printable(modifier))}: the plan has no field '\(printable(modifier))' for the file data")
            }
            return .encryptedData(field: modifier)
        }
        // {picc} and {mac}: NTAG 424 DNA secure messages, unless the plan has a field of the name.
        if !fields.contains(name), modifier == nil, name == "picc" || name == "mac" {
            return .secureMessage(mac: name == "mac")
        }
        guard fields.contains(name) else {
            let known =
                (fields + [
                    "uid", "uid:lower", "row", "row:WIDTH", "uid-mirror", "counter-mirror", "picc", "mac", "enc:FIELD",
                ]).map {
                    "{\($0)}"
                }.joined(separator: ", ")
            throw ProvisioningError(
                .unknownPlaceholder, line: fail("").line, column: fail("").column,
                "unknown placeholder {\(printable(body))}; the plan provides \(known)")
        }
        guard modifier == nil else { throw fail("{\(printable(body))}: a plan field takes no modifier") }
        return .field(name)
    }

    /// `word` as template text: unchanged when it needs no quoting, else in double quotes.
    static func quoted(_ word: String) -> String {
        let special = word.isEmpty || word.contains { " \t\n\r'\"\\".contains($0) }
        guard special else { return word }
        var out = "\""
        for character in word {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
