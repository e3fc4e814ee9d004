/// The grammar of a positional argument that takes the rest of the command line as a sequence
/// of words and options, such as the record specifications of `encode`.
///
/// While such an argument is being read, each option is first offered to the sequence: when
/// ``SequenceReader/claim(option:)`` returns a specification the option and its value belong
/// to the sequence; otherwise the option is the command's.
protocol SequenceGrammar: Sendable {
    /// A fresh reader for one command line.
    func makeReader() -> any SequenceReader
}

/// The state of one sequence being read; see ``SequenceGrammar``.
protocol SequenceReader {
    /// The option named `long` (without dashes) if the sequence takes it at this point.
    func claim(option long: String) -> OptionSpec?

    /// Options the sequence takes at this point, offered as suggestions for a mistyped option.
    var knownOptions: [OptionSpec] { get }

    /// Reads the next word of the sequence.
    mutating func read(word: String) throws(CommandLineError)

    /// Reads an option that ``claim(option:)`` accepted, with its value when it takes one.
    mutating func read(option: OptionSpec, value: String?) throws(CommandLineError)

    /// Checks the sequence once the command line has ended.
    mutating func finish() throws(CommandLineError)
}

/// One element of a sequence argument as the parser split it.
enum CapturedToken: Sendable, Hashable {
    /// A word (anything not read as an option, and everything after `--`).
    case word(String)
    /// An option the sequence claimed, by long name, with its value when it takes one.
    case option(String, value: String?)
}
