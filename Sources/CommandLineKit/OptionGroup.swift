/// Options declared together so several commands can share them (for example reader selection).
///
/// A group without a title is listed under `OPTIONS:` in help; a titled group gets its own
/// section, headed by the title in capitals, as swift-argument-parser shows option groups.
package struct OptionGroup: Sendable, Hashable {
    /// The section title, or `nil` to list the options with the command's own.
    package var title: String?
    /// The options, in the order help lists them.
    package var options: [OptionSpec]

    /// Creates a group.
    package init(title: String? = nil, _ options: [OptionSpec]) {
        self.title = title
        self.options = options
    }
}
