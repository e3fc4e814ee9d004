/// One section of help text: a title and labelled entries, rendered in two columns.
package struct HelpSection: Sendable, Hashable {
    /// One labelled entry: `  -o, --output <file>     Write the message to <file>.`
    package struct Element: Sendable, Hashable {
        /// The left column, for example `-o, --output <file>` or `encode`.
        package var label: String
        /// The right column, wrapped at the screen width.
        package var abstract: String
        /// Further lines under the entry, indented by eight spaces.
        package var discussion: String = ""

        /// An entry with `label`, `abstract` and, when given, further `discussion` lines.
        package init(label: String, abstract: String, discussion: String = "") {
            self.label = label
            self.abstract = abstract
            self.discussion = discussion
        }
    }

    /// The title, printed in capitals followed by a colon.
    package var title: String
    /// The entries, in order.
    package var elements: [Element]

    /// A section titled `title` with `elements`.
    package init(title: String, elements: [Element]) {
        self.title = title
        self.elements = elements
    }
}

/// Text wrapping as swift-argument-parser lays out help: lines are broken at the last space
/// that keeps them within the width, existing line breaks are kept, and every non-empty
/// line is indented.
package enum TextWrapping {
    /// `text` wrapped to `width` columns, every non-empty line indented by `indent` spaces.
    package static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        let columns = max(width - indent, 1)
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [Substring] = []
        for (number, paragraph) in paragraphs.enumerated() {
            let isLast = number == paragraphs.count - 1
            var rest = paragraph[...]
            // A line is kept whole when it is shorter than the width, or exactly as wide at the end.
            while rest.count > columns || (rest.count == columns && !isLast) {
                let window = rest.prefix(columns)
                if let space = window.lastIndex(of: " ") {
                    lines.append(rest[..<space])
                    rest = rest[rest.index(after: space)...]
                } else if let space = rest.firstIndex(of: " ") {
                    lines.append(rest[..<space])
                    rest = rest[rest.index(after: space)...]
                } else {
                    break
                }
            }
            lines.append(rest)
        }
        let padding = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
    }
}
