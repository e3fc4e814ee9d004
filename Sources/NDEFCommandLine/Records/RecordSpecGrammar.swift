import NDEF

/// The grammar of record specifications, shared by every command that takes records
/// (`encode`, and later `write`): `KIND VALUE... [OPTION...]`, repeated.
///
/// A specification starts with a kind word (``RecordKind``) and takes the kind's values;
/// an option after it belongs to it when its kind takes the option and the specification
/// does not have it (or an alternative to it) yet, and otherwise to the command; the next
/// word that is not a value starts the next record.
struct RecordSpecGrammar: SequenceGrammar {
    /// The kinds understood, in help order.
    let kinds: [RecordKind]

    /// The grammar of the built-in kinds.
    static let standard = RecordSpecGrammar(kinds: RecordKind.standard)

    /// A reader for the command-line parser. A sequence whose first word is not a kind word
    /// is kept as plain words (`encode --json FILE`); ``parse(_:)`` rejects it when records
    /// are expected.
    func makeReader() -> any SequenceReader { Reader(kinds: kinds, allowsPlainWords: true) }

    /// The kind named `word`.
    func kind(named word: String) -> RecordKind? { kinds.first { $0.name == word } }

    /// Parses the elements the command-line parser captured into specifications.
    func parse(_ tokens: [CapturedToken]) throws(CommandLineError) -> [RecordSpec] {
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
                    throw .unknownOption("--\(long)", suggestion: closestName(to: "--\(long)", among: known))
                }
            }
        }
        try reader.finish()
        return reader.specs
    }

    /// Builds the records of `specs`, in order, with their IDs.
    func build(_ specs: [RecordSpec], context: inout InputReader) throws(CommandLineError) -> [NFCNDEFPayload] {
        var records: [NFCNDEFPayload] = []
        for spec in specs {
            guard let kind = kind(named: spec.kind) else { throw .usage("Unknown record kind '\(spec.kind)'") }
            var built = try kind.build(spec, &context)
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

    /// Help lines: one synopsis per kind, continuation lines indented under the first value.
    var synopses: String {
        let width = HelpFormatter.screenWidth - 2
        return kinds.map { kind in
            let indent = String(repeating: " ", count: kind.name.count + 3)
            var lines: [String] = []
            var line = "  "
            for part in kind.synopsisParts {
                if line.count + 1 + part.count > width && !line.trimmingPrefix(" ").isEmpty {
                    lines.append(line)
                    line = indent
                }
                line += (line.last == " " ? "" : " ") + part
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A help section listing every kind with its description.
    var kindSection: HelpSection {
        HelpSection(
            title: "Record kinds", elements: kinds.map { HelpSection.Element(label: $0.name, abstract: $0.abstract) })
    }

    /// A help section listing every record option, prefixed by the kinds that take it.
    var optionSection: HelpSection {
        var elements: [HelpSection.Element] = []
        var owners: [[String]] = []
        let entries =
            kinds.flatMap { kind in kind.options.map { (kind: kind.name, option: $0) } }
            + RecordKind.sharedOptions.map { (kind: "all", option: $0) }
        for entry in entries {
            let element = HelpSection.Element(label: entry.option.helpLabel, abstract: entry.option.helpAbstract)
            if let index = elements.firstIndex(of: element) {
                owners[index].append(entry.kind)
            } else {
                elements.append(element)
                owners.append([entry.kind])
            }
        }
        for index in elements.indices {
            elements[index].abstract = owners[index].joined(separator: ", ") + ": " + elements[index].abstract
        }
        return HelpSection(title: "Record options", elements: elements)
    }

    /// The state of one sequence of specifications being read.
    struct Reader: SequenceReader {
        let kinds: [RecordKind]
        /// Whether a first word that is not a kind word makes the sequence plain words.
        let allowsPlainWords: Bool
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
        func claim(option long: String) -> SequenceClaim {
            guard let kind = current?.kind, let spec = current?.spec, let option = kind.option(long) else {
                return .ignores
            }
            if !option.isRepeatable && spec.has(.option(long)) { return .yields(option) }
            let choices = kind.choices + RecordKind.sharedChoices
            if let choice = choices.first(where: { $0.members.contains(.option(long)) }),
                choice.members.contains(where: { spec.has($0) })
            {
                return .yields(option)
            }
            return .claims(option)
        }

        var knownOptions: [OptionSpec] { current?.kind.allOptions ?? [] }

        mutating func read(word: String) throws(CommandLineError) {
            if isPlain { return }
            if allowsPlainWords && current == nil && specs.isEmpty && !kinds.contains(where: { $0.name == word }) {
                isPlain = true
                return
            }
            if let kind = current?.kind, var spec = current?.spec, nextValue < kind.values.count {
                let slot = kind.values[nextValue]
                let takesWord =
                    switch slot.presence {
                    case .required: true
                    case .optional: !optionsStarted
                    case .optionalUnlessKind: !optionsStarted && !kinds.contains { $0.name == word }
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
            guard let kind = kinds.first(where: { $0.name == word }) else {
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
                throw .usage(message, help: "<record>  A record starts with one of: \(kindNames).")
            }
            current = (kind, RecordSpec(kind: kind.name, index: specs.count))
            nextValue = 0
            optionsStarted = false
        }

        mutating func read(option: OptionSpec, value: String?) throws(CommandLineError) {
            guard let kind = current?.kind, var spec = current?.spec else { return }
            if nextValue < kind.requiredValueCount {
                let missing = kind.values[nextValue].label
                throw .usage(
                    "Missing expected argument '\(missing)' for \(spec.label) before '--\(option.long)'",
                    help: kind.synopsis
                )
            }
            optionsStarted = true
            if let value {
                if !option.isRepeatable && spec.options[option.long] != nil {
                    throw .usage("The option '\(option.synopsis)' can be given only once for \(spec.label)")
                }
                if !option.allowedValues.isEmpty && !option.allowedValues.contains(value) {
                    throw .invalidValue(value, for: option)
                }
                spec.options[option.long, default: []].append(value)
            } else {
                spec.flags.insert(option.long)
            }
            current = (kind, spec)
        }

        mutating func finish() throws(CommandLineError) {
            try closeCurrent()
        }

        /// Checks the specification being read and adds it to ``specs``.
        private mutating func closeCurrent() throws(CommandLineError) {
            guard let (kind, spec) = current else { return }
            if nextValue < kind.requiredValueCount {
                let missing = kind.values[nextValue].label
                throw .usage("Missing expected argument '\(missing)' for \(spec.label)", help: kind.synopsis)
            }
            try kind.checkChoices(of: spec)
            specs.append(spec)
            current = nil
        }
    }
}
