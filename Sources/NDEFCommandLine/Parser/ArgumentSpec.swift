/// One positional argument of a command, declared as data.
///
/// A positional is single or repeating (it takes every remaining word), required or optional.
/// A positional with a ``grammar`` takes the rest of the command line as a sequence that
/// may carry options of its own (the record specifications of `encode`).
struct ArgumentSpec: Sendable {
    /// The value name, for example `"file"` for `<file>`; also the key of its values.
    var name: String
    /// A one-line description for help.
    var help: String
    /// Whether the argument may be left out.
    var isOptional: Bool
    /// Whether the argument takes every remaining word.
    var isRepeating: Bool
    /// The value used when the argument is left out, shown in help as `(default: ...)`.
    var defaultValue: String?
    /// The grammar of a sequence argument, which claims options inside the sequence.
    var grammar: (any SequenceGrammar)?

    /// Creates a positional argument.
    init(
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
    var label: String { "<\(name)>" }

    /// The argument as errors name it when it is missing: `<file>`, `<record> ...`.
    var synopsis: String { isRepeating ? "\(label) ..." : label }

    /// The form in a usage line: `<file>`, `[<file>]`, `<record> ...`.
    var usageSynopsis: String { isOptional ? "[\(synopsis)]" : synopsis }

    /// The help abstract followed by the default, as help shows it.
    var helpAbstract: String {
        guard let defaultValue, !defaultValue.isEmpty else { return help }
        return help.isEmpty ? "(default: \(defaultValue))" : "\(help) (default: \(defaultValue))"
    }
}
