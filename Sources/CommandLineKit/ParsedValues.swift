/// The options and arguments parsed for one command, looked up by name.
package struct ParsedValues: Sendable {
    /// The options the command declares, by long name, for defaults and error messages.
    private let specs: [String: OptionSpec]
    private let argumentDefaults: [String: String]
    /// Values given for options, by long name, in command-line order.
    private(set) var optionValues: [String: [String]] = [:]
    /// Flags given, by long name.
    private(set) var flags: Set<String> = []
    /// Words given for positional arguments, by argument name.
    private(set) var argumentValues: [String: [String]] = [:]
    /// The elements of sequence arguments, by argument name.
    private(set) var sequences: [String: [CapturedToken]] = [:]

    /// Empty values for `command`.
    package init<Action>(for command: CommandDefinition<Action>) {
        var specs: [String: OptionSpec] = [:]
        for option in command.options where specs[option.long] == nil { specs[option.long] = option }
        self.specs = specs
        var defaults: [String: String] = [:]
        for argument in command.arguments {
            if let value = argument.defaultValue { defaults[argument.name] = value }
        }
        self.argumentDefaults = defaults
    }

    /// Whether the flag `long` was given.
    /// What the parser warns about, one sentence each: old option spellings that were used.
    package private(set) var warnings: [String] = []

    package func flag(_ long: String) -> Bool { flags.contains(long) }

    /// The last value given for option `long`, or its default.
    package func value(_ long: String) -> String? {
        optionValues[long]?.last ?? specs[long]?.defaultValue
    }

    /// Every value given for the repeatable option `long`.
    package func values(_ long: String) -> [String] { optionValues[long] ?? [] }

    /// Whether option `long` was given on the command line.
    package func isGiven(_ long: String) -> Bool { optionValues[long] != nil || flags.contains(long) }

    /// The word given for positional argument `name`, or its default.
    package func argument(_ name: String) -> String? {
        argumentValues[name]?.first ?? argumentDefaults[name]
    }

    /// Every word given for the repeating argument `name`.
    package func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }

    /// The elements given for the sequence argument `name`.
    package func sequence(_ name: String) -> [CapturedToken] { sequences[name] ?? [] }

    /// The value of option `long` as an integer in `range`, or `nil` when neither given nor defaulted.
    package func integer(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let spec = specs[long] ?? .option(long, value: "n", help: "")
            throw UsageError.invalidValue(
                text, for: spec, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    package mutating func add(value: String, for option: OptionSpec) {
        optionValues[option.long, default: []].append(value)
    }
    package mutating func add(flag option: OptionSpec) { flags.insert(option.long) }
    /// Adds a warning (once).
    package mutating func add(warning: String) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }
    package mutating func add(argument value: String, for name: String) {
        argumentValues[name, default: []].append(value)
    }
    package mutating func set(sequence tokens: [CapturedToken], for name: String) { sequences[name] = tokens }
}
