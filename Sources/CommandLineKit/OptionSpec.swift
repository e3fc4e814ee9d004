/// One named option of a command or of a record specification, declared as data.
///
/// Every option has a long name (`--output`) and may have a one-letter short name (`-o`).
/// An option with a ``valueName`` takes one value, given as `--output FILE` or
/// `--output=FILE`; an option without one is a flag.
package struct OptionSpec: Sendable, Hashable {
    /// The long name without its dashes, for example `"output"`; also the key of its values.
    package var long: String
    /// The short name, for example `"o"` for `-o`.
    package var short: Character?
    /// The name of the value shown in help, for example `"file"` for `<file>`; `nil` for a flag.
    package var valueName: String?
    /// The value used when the option is not given, shown in help as `(default: ...)`.
    package var defaultValue: String?
    /// The values the option accepts; empty when any value is accepted.
    package var allowedValues: [String]
    /// Whether the option may be given more than once, each value kept.
    package var isRepeatable: Bool
    /// A one-line description for help.
    package var help: String
    /// Old long names (without dashes) that still name the option; help never shows them, and
    /// the parser warns when one is used (``ParsedValues/warnings``).
    package var aliases: [String] = []
    /// Other long names (without dashes) that name the option as well, without a warning: the
    /// spellings of another tool people come from (Python ndeftool's `--language`).
    package var synonyms: [String] = []

    /// A flag: an option without a value.
    package static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(
            long: long,
            short: short,
            valueName: nil,
            defaultValue: nil,
            allowedValues: [],
            isRepeatable: false,
            help: help
        )
    }

    /// An option that takes a value.
    package static func option(
        _ long: String,
        short: Character? = nil,
        value: String,
        default defaultValue: String? = nil,
        values allowedValues: [String] = [],
        repeatable: Bool = false,
        help: String
    ) -> OptionSpec {
        OptionSpec(
            long: long,
            short: short,
            valueName: value,
            defaultValue: defaultValue,
            allowedValues: allowedValues,
            isRepeatable: repeatable,
            help: help
        )
    }

    /// Whether the option takes a value.
    package var takesValue: Bool { valueName != nil }

    /// The option's preferred name with its value, as errors name it: `--output <file>`.
    package var synopsis: String {
        if let valueName { "--\(long) <\(valueName)>" } else { "--\(long)" }
    }

    /// The label in a help section: `-o, --output <file>`.
    package var helpLabel: String {
        let names = [short.map { "-\($0)" }, "--\(long)"].compactMap { $0 }.joined(separator: ", ")
        if let valueName { return "\(names) <\(valueName)>" }
        return names
    }

    /// The form in a usage line: `[--output <file>]`, `[--title <text> ...]`.
    package var usageSynopsis: String {
        "[\(synopsis)\(isRepeatable ? " ..." : "")]"
    }

    /// The help abstract followed by the allowed values and the default, as help shows them.
    package var helpAbstract: String {
        var notes: [String] = []
        if !allowedValues.isEmpty { notes.append("values: \(allowedValues.joined(separator: ", "))") }
        if let defaultValue, !defaultValue.isEmpty { notes.append("default: \(defaultValue)") }
        let suffix = notes.isEmpty ? "" : "(\(notes.joined(separator: "; ")))"
        return [help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether `name` as typed (`--output`, `-o`, an old spelling) names this option.
    package func isNamed(_ name: String) -> Bool {
        if name == "--\(long)" { return true }
        if let short, name == "-\(short)" { return true }
        return isAlias(name) || (name.hasPrefix("--") && synonyms.contains(String(name.dropFirst(2))))
    }

    /// Whether the long name `long` (without dashes) is this option's name or one of its others.
    package func answers(to long: String) -> Bool {
        long == self.long || aliases.contains(long) || synonyms.contains(long)
    }

    /// The option with `names` as other names that work without a warning.
    package func alsoNamed(_ names: String...) -> OptionSpec {
        var copy = self
        copy.synonyms += names
        return copy
    }

    /// Whether `name` as typed (`--hex`) is one of the option's old spellings.
    package func isAlias(_ name: String) -> Bool {
        name.hasPrefix("--") && aliases.contains(String(name.dropFirst(2)))
    }

    /// The option with `names` as old spellings that still work.
    package func aliased(_ names: String...) -> OptionSpec {
        var copy = self
        copy.aliases += names
        return copy
    }

    /// The built-in `-h, --help` flag every command has.
    package static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The built-in `--version` flag of a tool that has a version.
    package static let version = OptionSpec.flag("version", help: "Show the version.")
}

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
