/// One named option of a command or of a record specification, declared as data.
///
/// Every option has a long name (`--output`) and may have a one-letter short name (`-o`).
/// An option with a ``valueName`` takes one value, given as `--output FILE` or
/// `--output=FILE`; an option without one is a flag.
struct OptionSpec: Sendable, Hashable {
    /// The long name without its dashes, for example `"output"`; also the key of its values.
    var long: String
    /// The short name, for example `"o"` for `-o`.
    var short: Character?
    /// The name of the value shown in help, for example `"file"` for `<file>`; `nil` for a flag.
    var valueName: String?
    /// The value used when the option is not given, shown in help as `(default: ...)`.
    var defaultValue: String?
    /// The values the option accepts; empty when any value is accepted.
    var allowedValues: [String]
    /// Whether the option may be given more than once, each value kept.
    var isRepeatable: Bool
    /// A one-line description for help.
    var help: String

    /// A flag: an option without a value.
    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
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
    static func option(
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
    var takesValue: Bool { valueName != nil }

    /// The option's preferred name with its value, as errors name it: `--output <file>`.
    var synopsis: String {
        if let valueName { "--\(long) <\(valueName)>" } else { "--\(long)" }
    }

    /// The label in a help section: `-o, --output <file>`.
    var helpLabel: String {
        let names = [short.map { "-\($0)" }, "--\(long)"].compactMap { $0 }.joined(separator: ", ")
        if let valueName { return "\(names) <\(valueName)>" }
        return names
    }

    /// The form in a usage line: `[--output <file>]`, `[--title <text> ...]`.
    var usageSynopsis: String {
        "[\(synopsis)\(isRepeatable ? " ..." : "")]"
    }

    /// The help abstract followed by the allowed values and the default, as help shows them.
    var helpAbstract: String {
        var notes: [String] = []
        if !allowedValues.isEmpty { notes.append("values: \(allowedValues.joined(separator: ", "))") }
        if let defaultValue, !defaultValue.isEmpty { notes.append("default: \(defaultValue)") }
        let suffix = notes.isEmpty ? "" : "(\(notes.joined(separator: "; ")))"
        return [help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether `name` as typed (`--output`, `-o`) names this option.
    func isNamed(_ name: String) -> Bool {
        if name == "--\(long)" { return true }
        if let short, name == "-\(short)" { return true }
        return false
    }

    /// The built-in `-h, --help` flag every command has.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The built-in `--version` flag of a tool that has a version.
    static let version = OptionSpec.flag("version", help: "Show the version.")
}
