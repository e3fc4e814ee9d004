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
