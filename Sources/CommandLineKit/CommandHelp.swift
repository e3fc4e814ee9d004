/// Renders help, usage lines and usage errors in swift-argument-parser's layout:
///
/// ```
/// OVERVIEW: <abstract>
///
/// <discussion>
///
/// USAGE: <synopsis>
///
/// ARGUMENTS:
///   <file>                  The message to read. (default: -)
///
/// OPTIONS:
///   -h, --help              Show help information.
/// ```
///
/// Labels are indented by two spaces and descriptions start at column 26 (on the next line
/// when the label is too long); text is wrapped at 80 columns.
package struct CommandHelp<Action: Sendable> {
    /// The commands from the root to the one described.
    package let path: [CommandDefinition<Action>]

    /// The help of the last command of `path` (the commands from the root to it).
    package init(path: [CommandDefinition<Action>]) {
        self.path = path
    }

    /// The command described.
    private var command: CommandDefinition<Action>? { path.last }

    /// The full command name, for example `ndeftool encode`.
    package var commandName: String { path.map(\.name).joined(separator: " ") }

    /// The synopsis after `USAGE:`, for example `ndeftool decode [--hex] [<file>]`.
    package var synopsis: String {
        guard let command else { return "" }
        var options = command.options.map(\.usageSynopsis)
        let arguments = command.arguments.map(\.usageSynopsis)
        var result = commandName
        if options.count + arguments.count > HelpLayout.maximumUsageOptions {
            options = []
            result += " [<options>]"
        }
        let parts = options + arguments
        if !parts.isEmpty { result += " " + parts.joined(separator: " ") }
        if !command.subcommands.isEmpty { result += " <subcommand>" }
        return result
    }

    /// The usage lines printed under an error.
    package var usageMessage: String {
        "Usage: \(synopsis)\n  See '\(commandName) --help' for more information."
    }

    /// A usage error as printed on standard error: the error, the help of the argument at
    /// fault, the usage line and where to find more help.
    package func errorMessage(_ error: UsageError) -> String {
        errorMessage(message: error.message, help: error.help)
    }

    /// A tool's error as printed on standard error, in the layout of a usage error.
    package func errorMessage(message: String, help: String?) -> String {
        var text = "Error: \(message)\n"
        if let help { text += "Help:  \(help)\n" }
        return text + usageMessage + "\n"
    }

    /// The help text, ending with a newline as printed.
    package func render() -> String {
        guard let command else { return "" }
        var abstract = command.abstract
        if !command.discussion.isEmpty { abstract += "\n\n" + command.discussion }
        var text = ""
        if !abstract.isEmpty {
            text += TextWrapping.wrap("OVERVIEW: \(abstract)", width: HelpLayout.screenWidth) + "\n\n"
        }
        if let version = path.lazy.compactMap(\.version).first {
            text += "VERSION: \(path.first?.name ?? "") \(version)\n\n"
        }
        text += "USAGE: \(synopsis)\n\n"
        text += sections.map { Self.render($0) }.filter { !$0.isEmpty }.joined(separator: "\n")
        if !visibleSubcommands.isEmpty {
            let names = [path.first?.name ?? "", "help"] + path.dropFirst().map(\.name)
            text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help."
        }
        return text + "\n"
    }

    private var visibleSubcommands: [CommandDefinition<Action>] { command?.subcommands.filter { !$0.isHidden } ?? [] }

    /// The sections in order: arguments, titled groups, options, subcommands.
    package var sections: [HelpSection] {
        guard let command else { return [] }
        let arguments = command.arguments.map { HelpSection.Element(label: $0.label, abstract: $0.helpAbstract) }
        var titled: [HelpSection] = command.helpSections
        var untitled: [HelpSection.Element] = []
        for group in command.groups {
            let elements = group.options.map { HelpSection.Element(label: $0.helpLabel, abstract: $0.helpAbstract) }
            if let title = group.title {
                titled.append(HelpSection(title: title, elements: elements))
            } else {
                untitled += elements
            }
        }
        let builtIns: [OptionSpec] = path.contains { $0.version != nil } ? [.version, .help] : [.help]
        untitled += builtIns.map { HelpSection.Element(label: $0.helpLabel, abstract: $0.helpAbstract) }
        let subcommands = visibleSubcommands.map { HelpSection.Element(label: $0.name, abstract: $0.abstract) }
        return [HelpSection(title: "Arguments", elements: arguments)] + titled
            + [
                HelpSection(title: "Options", elements: untitled),
                HelpSection(title: "Subcommands", elements: subcommands),
            ]
    }

    /// A section: its title in capitals, then one entry per element; empty when it has none.
    package static func render(_ section: HelpSection) -> String {
        guard !section.elements.isEmpty else { return "" }
        return "\(section.title.uppercased()):\n" + section.elements.map { render($0) }.joined()
    }

    /// One entry: the label, then its description from column 26 (or on the next line).
    package static func render(_ element: HelpSection.Element) -> String {
        let label = String(repeating: " ", count: HelpLayout.labelIndent) + element.label
        var text = label
        if !element.abstract.isEmpty {
            let wrapped = TextWrapping.wrap(
                element.abstract, width: HelpLayout.screenWidth, indent: HelpLayout.labelColumnWidth)
            if label.count < HelpLayout.labelColumnWidth {
                text += wrapped.dropFirst(label.count)
            } else {
                text += "\n" + wrapped
            }
        }
        text += "\n"
        if !element.discussion.isEmpty {
            text +=
                TextWrapping.wrap(element.discussion, width: HelpLayout.screenWidth, indent: HelpLayout.labelIndent * 4)
                + "\n"
        }
        return text
    }
}

/// The layout of help text: widths and columns (swift-argument-parser's).
package enum HelpLayout {
    /// The width help is wrapped to.
    package static let screenWidth = 80
    /// The indentation of labels.
    package static let labelIndent = 2
    /// The column descriptions start at.
    package static let labelColumnWidth = 26
    /// Usage lines list at most this many options before they are summarised as `[<options>]`.
    package static let maximumUsageOptions = 12
}
