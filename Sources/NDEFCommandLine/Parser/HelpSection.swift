/// One section of help text: a title and labelled entries, rendered in two columns.
struct HelpSection: Sendable, Hashable {
    /// One labelled entry: `  -o, --output <file>     Write the message to <file>.`
    struct Element: Sendable, Hashable {
        /// The left column, for example `-o, --output <file>` or `encode`.
        var label: String
        /// The right column, wrapped at the screen width.
        var abstract: String
        /// Further lines under the entry, indented by eight spaces.
        var discussion: String = ""
    }

    /// The title, printed in capitals followed by a colon.
    var title: String
    /// The entries, in order.
    var elements: [Element]
}
