/// One positional argument of a command, declared as data.
///
/// A positional is single or repeating (it takes every remaining word), required or optional.
/// A positional with a ``grammar`` takes the rest of the command line as a sequence that
/// may carry options of its own (the record specifications of `encode`).
package struct ArgumentSpec: Sendable {
    /// The value name, for example `"file"` for `<file>`; also the key of its values.
    package var name: String
    /// A one-line description for help.
    package var help: String
    /// Whether the argument may be left out.
    package var isOptional: Bool
    /// Whether the argument takes every remaining word.
    package var isRepeating: Bool
    /// The value used when the argument is left out, shown in help as `(default: ...)`.
    package var defaultValue: String?
    /// The grammar of a sequence argument, which claims options inside the sequence.
    package var grammar: (any SequenceGrammar)?

    /// Creates a positional argument.
    package init(
        _ name: String,
        help: String,
        optional: Bool = false,
        repeating: Bool = false,
        default defaultValue: String? = nil,
        grammar: (any SequenceGrammar)? = nil
    ) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating || grammar != nil
        self.defaultValue = defaultValue
        self.grammar = grammar
    }

    /// The label in a help section: `<file>`.
    package var label: String { "<\(name)>" }

    /// The argument as errors name it when it is missing: `<file>`, `<record> ...`.
    package var synopsis: String { isRepeating ? "\(label) ..." : label }

    /// The form in a usage line: `<file>`, `[<file>]`, `<record> ...`.
    package var usageSynopsis: String { isOptional ? "[\(synopsis)]" : synopsis }

    /// The help abstract followed by the default, as help shows it.
    package var helpAbstract: String {
        guard let defaultValue, !defaultValue.isEmpty else { return help }
        return help.isEmpty ? "(default: \(defaultValue))" : "\(help) (default: \(defaultValue))"
    }
}
