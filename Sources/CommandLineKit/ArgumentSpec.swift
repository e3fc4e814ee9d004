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
    /// The words the argument takes (`bash`, `zsh`, `fish`), for shell completion to offer; empty
    /// when any word goes. The command checks the word itself, with its own message.
    package var allowedValues: [String]

    /// Creates a positional argument.
    package init(
        _ name: String,
        help: String,
        optional: Bool = false,
        repeating: Bool = false,
        default defaultValue: String? = nil,
        values allowedValues: [String] = [],
        grammar: (any SequenceGrammar)? = nil
    ) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating || grammar != nil
        self.defaultValue = defaultValue
        self.grammar = grammar
        self.allowedValues = allowedValues
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

/// The grammar of a positional argument that takes the rest of the command line as a sequence
/// of words and options, such as the record specifications of `encode`.
///
/// While such an argument is being read, each option is first offered to the sequence
/// (``SequenceReader/claim(option:)``): an option the sequence claims belongs to it with its
/// value; an option it yields belongs to the command when the command has an option of that
/// name, and to the sequence otherwise; any other option is the command's.
package protocol SequenceGrammar: Sendable {
    /// A fresh reader for one command line.
    func makeReader() -> any SequenceReader
}

/// The state of one sequence being read; see ``SequenceGrammar``.
package protocol SequenceReader {
    /// Whether the sequence takes the option named `long` (without dashes) at this point.
    func claim(option long: String) -> SequenceClaim

    /// Options the sequence takes at this point, offered as suggestions for a mistyped option.
    var knownOptions: [OptionSpec] { get }

    /// Reads the next word of the sequence.
    mutating func read(word: String) throws(UsageError)

    /// Reads an option that ``claim(option:)`` accepted, with its value when it takes one.
    mutating func read(option: OptionSpec, value: String?) throws(UsageError)

    /// Checks the sequence once the command line has ended.
    mutating func finish() throws(UsageError)
}

/// What a sequence says about an option offered to it.
package enum SequenceClaim: Sendable, Hashable {
    /// The option belongs to the sequence.
    case claims(OptionSpec)
    /// The sequence takes such an option but is already complete without it: the command
    /// has it if the command has an option of that name.
    case yields(OptionSpec)
    /// The sequence does not take the option.
    case ignores
}

/// One element of a sequence argument as the parser split it.
package enum CapturedToken: Sendable, Hashable {
    /// A word (anything not read as an option, and everything after `--`).
    case word(String)
    /// An option the sequence claimed, by long name, with its value when it takes one.
    case option(String, value: String?)
}
