import CommandLineKit
import NDEF

/// The grammar of record specifications, the words that say which records a message holds,
/// shared by the command line (`encode`, `write`, `batch`) and batch templates
/// (`Provisioning/MessageTemplate`): `KIND VALUE... [OPTION...]`, repeated, such as
/// `text Hello --lang en uri https://example.com`.
///
/// A specification starts with a kind word (one of ``kindNames``) and takes the kind's values;
/// an option after it belongs to it when its kind takes the option and the specification
/// does not have it (or an alternative to it) yet, and otherwise to the command; the next
/// word that is not a value starts the next record.
public struct RecordSpecGrammar: SequenceGrammar, Sendable {
    /// The kinds understood, in help order.
    package let kinds: [RecordKind]

    /// The grammar of the built-in kinds.
    public static let standard = RecordSpecGrammar(kinds: RecordKind.standard)

    /// The kind words, in help order: `text`, `uri`, `mime`, ...
    public var kindNames: [String] { kinds.map(\.name) }

    /// The records that `words` specify, in order, with the files and variables they name
    /// read from `inputs`.
    ///
    /// The words are read as a shell passes them to the command line, except that
    /// `--option=value` is not split (write it as two words).
    ///
    /// - Throws: ``RecordSpecError`` naming the specification and the word at fault.
    public func records(from words: [String], inputs: some RecordInputs = RecordFiles()) throws(RecordSpecError)
        -> [NFCNDEFPayload]
    {
        let structure: [WordToken]
        do {
            structure = try self.structure(of: words)
        } catch {
            throw RecordSpecError(error)
        }
        return try build(parse(tokens(structure, rendered: words)), inputs: inputs)
    }

    /// The message that `words` specify (``records(from:inputs:)``).
    ///
    /// - Throws: ``RecordSpecError``, also when the words specify no record.
    public func message(from words: [String], inputs: some RecordInputs = RecordFiles()) throws(RecordSpecError)
        -> NFCNDEFMessage
    {
        let records = try records(from: words, inputs: inputs)
        guard !records.isEmpty else { throw .usage("The specifications make no record") }
        return NFCNDEFMessage(records: records)
    }

    /// A reader for the command-line parser. A sequence whose first word is not a kind word
    /// is kept as plain words (`encode --from-json FILE`); ``parse(_:)`` rejects it when records
    /// are expected.
    package func makeReader() -> any SequenceReader { Reader(kinds: kinds, allowsPlainWords: true) }

    /// The kind named `word`.
    package func kind(named word: String) -> RecordKind? { kinds.first { $0.isNamed(word) } }

    /// Parses the elements the command-line parser captured into specifications.
    package func parse(_ tokens: [CapturedToken]) throws(RecordSpecError) -> [RecordSpec] {
        do {
            return try parseSpecs(tokens)
        } catch {
            throw RecordSpecError(error)
        }
    }

    private func parseSpecs(_ tokens: [CapturedToken]) throws(UsageError) -> [RecordSpec] {
        var reader = Reader(kinds: kinds, allowsPlainWords: false)
        for token in tokens {
            switch token {
            case .word(let word):
                try reader.read(word: word)
            case .option(let long, let value):
                switch reader.claim(option: long) {
                case .claims(let spec), .yields(let spec): try reader.read(option: spec, value: value)
                case .ignores:
                    let known = reader.knownOptions.map { "--" + $0.long }
                    throw UsageError.unknownOption("--\(long)", suggestion: closestName(to: "--\(long)", among: known))
                }
            }
        }
        try reader.finish()
        return reader.specs
    }

    /// Builds the records of `specs`, in order, with their IDs.
    package func build(_ specs: [RecordSpec], inputs: some RecordInputs) throws(RecordSpecError) -> [NFCNDEFPayload] {
        var records: [NFCNDEFPayload] = []
        for spec in specs {
            guard let kind = kind(named: spec.kind) else { throw .usage("Unknown record kind '\(spec.kind)'") }
            var built = try kind.build(spec, inputs)
            if let identifier = try RecordData.identifier(of: spec, kind: kind) {
                guard built.count == 1 else {
                    throw .usage("\(spec.label) holds \(built.count) records; --id sets the ID of a single record")
                }
                built[0].identifier = identifier[...]
            }
            records += built
        }
        return records
    }

    /// The state of one sequence of specifications being read.
    package struct Reader: SequenceReader {
        package let kinds: [RecordKind]
        /// Whether a first word that is not a kind word makes the sequence plain words.
        package let allowsPlainWords: Bool
        private(set) var specs: [RecordSpec] = []
        private var current: (kind: RecordKind, spec: RecordSpec)?
        private var nextValue = 0
        private var optionsStarted = false
        private var isPlain = false

        init(kinds: [RecordKind], allowsPlainWords: Bool) {
            self.kinds = kinds
            self.allowsPlainWords = allowsPlainWords
        }

        /// A record's option is claimed unless the record already has it, or an alternative to
        /// it, in which case it is yielded to the command (`mime text/plain hi --hex`).
        package func claim(option long: String) -> SequenceClaim {
            guard let kind = current?.kind, let spec = current?.spec, let option = kind.option(long) else {
                return .ignores
            }
            if !option.isRepeatable && spec.has(.option(option.long)) { return .yields(option) }
            let choices = kind.choices + RecordKind.sharedChoices
            if let choice = choices.first(where: { $0.members.contains(.option(option.long)) }),
                choice.members.contains(where: { spec.has($0) })
            {
                return .yields(option)
            }
            return .claims(option)
        }

        package var knownOptions: [OptionSpec] { current?.kind.allOptions ?? [] }

        package mutating func read(word: String) throws(UsageError) {
            if isPlain { return }
            if allowsPlainWords && current == nil && specs.isEmpty && !kinds.contains(where: { $0.isNamed(word) }) {
                isPlain = true
                return
            }
            if let kind = current?.kind, var spec = current?.spec, nextValue < kind.values.count {
                let slot = kind.values[nextValue]
                let takesWord =
                    switch slot.presence {
                    case .required: true
                    case .optional: !optionsStarted
                    case .optionalUnlessKind: !optionsStarted && !kinds.contains { $0.isNamed(word) }
                    }
                if takesWord {
                    spec.values[slot.name] = word
                    current = (kind, spec)
                    nextValue += 1
                    return
                }
            }
            let previous = current?.spec
            try closeCurrent()
            guard let kind = kinds.first(where: { $0.isNamed(word) }) else {
                var message = "Unknown record kind '\(word)'"
                if let previous, let kind = kinds.first(where: { $0.name == previous.kind }) {
                    message += " after \(previous.label), which takes \(kind.values.isEmpty ? "no values" : "only ")"
                    message += kind.values.map(\.label).joined(separator: " ")
                    message += " (quote a value that contains spaces)"
                }
                if let suggestion = closestName(to: word, among: kinds.map(\.name)) {
                    message += ". Did you mean '\(suggestion)'?"
                }
                let kindNames = kinds.map(\.name).joined(separator: ", ")
                throw UsageError(message, help: "<record>  A record starts with one of: \(kindNames).")
            }
            current = (kind, RecordSpec(kind: kind.name, index: specs.count))
            nextValue = 0
            optionsStarted = false
        }

        package mutating func read(option: OptionSpec, value: String?) throws(UsageError) {
            guard let kind = current?.kind, var spec = current?.spec else { return }
            if nextValue < kind.requiredValueCount {
                let missing = kind.values[nextValue].label
                throw UsageError(
                    "Missing expected argument '\(missing)' for \(spec.label) before '--\(option.long)'",
                    help: kind.synopsis
                )
            }
            optionsStarted = true
            if let value {
                if !option.isRepeatable && spec.options[option.long] != nil {
                    throw UsageError("The option '\(option.synopsis)' can be given only once for \(spec.label)")
                }
                if !option.allowedValues.isEmpty && !option.allowedValues.contains(value) {
                    throw UsageError.invalidValue(value, for: option)
                }
                spec.options[option.long, default: []].append(value)
            } else {
                spec.flags.insert(option.long)
            }
            current = (kind, spec)
        }

        package mutating func finish() throws(UsageError) {
            try closeCurrent()
        }

        /// Checks the specification being read and adds it to ``specs``.
        private mutating func closeCurrent() throws(UsageError) {
            guard let (kind, spec) = current else { return }
            if nextValue < kind.requiredValueCount {
                let missing = kind.values[nextValue].label
                throw UsageError("Missing expected argument '\(missing)' for \(spec.label)", help: kind.synopsis)
            }
            try kind.checkChoices(of: spec)
            specs.append(spec)
            current = nil
        }
    }
}

/// Record specifications from plain words, as a batch template holds them.
extension RecordSpecGrammar {
    /// One element of a specification, with the places of its text among the words.
    package enum WordToken: Sendable, Hashable {
        /// The word at `index`.
        case word(index: Int)
        /// The option `long` (written at some index), with its value at `valueIndex` when it
        /// takes one.
        case option(String, valueIndex: Int?)
    }

    /// The structure of `words` (a record kind word, its values, `--option value`...), read as
    /// the command line reads them: an option is one the current record takes; `--opt=value`
    /// is not split (write it as two words). The words are read as written, so a placeholder
    /// `{field}` can be a value or an option's value, never a kind or an option.
    ///
    /// - Throws: a usage error naming the word that does not fit.
    package func structure(of words: [String]) throws(UsageError) -> [WordToken] {
        var reader = Reader(kinds: kinds, allowsPlainWords: false)
        var tokens: [WordToken] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--"), word.count > 2 {
                let long = String(word.dropFirst(2))
                switch reader.claim(option: long) {
                case .claims(let spec), .yields(let spec):
                    var valueIndex: Int?
                    if spec.takesValue {
                        guard index + 1 < words.count else {
                            throw UsageError("The template's \(word) needs a value after it")
                        }
                        valueIndex = index + 1
                        index += 1
                    }
                    try reader.read(option: spec, value: valueIndex.map { words[$0] })
                    tokens.append(.option(long, valueIndex: valueIndex))
                case .ignores:
                    let known = reader.knownOptions.map { "--" + $0.long }
                    throw UsageError.unknownOption(word, suggestion: closestName(to: word, among: known))
                }
            } else {
                try reader.read(word: word)
                tokens.append(.word(index: index))
            }
            index += 1
        }
        try reader.finish()
        return tokens
    }

    /// The captured tokens of `structure` with the words `rendered` (the template's words with
    /// their placeholders substituted, one for one).
    package func tokens(_ structure: [WordToken], rendered: [String]) -> [CapturedToken] {
        structure.map { token in
            switch token {
            case .word(let index): .word(rendered[index])
            case .option(let long, let valueIndex): .option(long, value: valueIndex.map { rendered[$0] })
            }
        }
    }
}
