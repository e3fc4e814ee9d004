import CommandLineKit
import NDEF

/// One kind of record specification, declared as data: its kind word, the values that follow
/// it, its options, which of them exclude each other, and how to build its records.
///
/// The grammar of a specification is `KIND VALUE... [OPTION...]`: the required values are
/// taken whatever they look like; an optional value is taken only right after them.
package struct RecordKind: Sendable {
    /// Builds the records of a parsed specification.
    package typealias Build = @Sendable (RecordSpec, any RecordInputs) throws(RecordSpecError) -> [NFCNDEFPayload]

    /// A positional value of a specification.
    package struct Value: Sendable, Hashable {
        /// When a value is taken.
        package enum Presence: Sendable, Hashable {
            /// Always: the next word is the value, whatever it is.
            case required
            /// When the next word follows the required values before any option.
            case optional
            /// As ``optional``, unless the word is a kind word (which starts the next record).
            case optionalUnlessKind
        }

        /// The value name, for example `"uri"` for `<uri>`.
        package var name: String
        /// When the value is taken.
        package var presence: Presence

        /// The value as help shows it: `<uri>`.
        package var label: String { "<\(name)>" }
    }

    /// A value or option of the specification, as named in a ``Choice``.
    package enum Member: Sendable, Hashable {
        /// The positional value with this name.
        case value(String)
        /// The option with this long name.
        case option(String)
    }

    /// Members that exclude each other (at most one may be given); when required, one must be.
    package struct Choice: Sendable, Hashable {
        /// The alternatives.
        package var members: [Member]
        /// Whether one of them must be given.
        package var isRequired: Bool
    }

    /// The kind word, for example `"text"`.
    package var name: String
    /// Other words for the kind (Python ndeftool's `txt` for `text`); help lists only ``name``.
    package var synonyms: [String] = []
    /// A one-line description for help.
    package var abstract: String
    /// The positional values, in order.
    package var values: [Value]
    /// The kind's own options, in help order.
    package var options: [OptionSpec]
    /// Alternatives that exclude each other.
    package var choices: [Choice]
    /// Builds the records.
    package var build: Build

    /// Options every kind takes: the record ID (NFC Forum NDEF 1.0, section 3.2.7).
    package static let sharedOptions: [OptionSpec] = [
        .option("id", value: "id", help: "The record ID, as UTF-8 text."),
        .option("id-hex", value: "hex", help: "The record ID, as hex."),
    ]

    /// The shared choice between `--id` and `--id-hex`.
    package static let sharedChoices = [Choice(members: [.option("id"), .option("id-hex")], isRequired: false)]

    /// The kind's options and the shared ones.
    package var allOptions: [OptionSpec] { options + Self.sharedOptions }

    /// Whether `word` names the kind: its name or a synonym.
    package func isNamed(_ word: String) -> Bool { word == name || synonyms.contains(word) }

    /// The kind with `words` as other names.
    package func alsoNamed(_ words: String...) -> RecordKind {
        var copy = self
        copy.synonyms += words
        return copy
    }

    /// How many values are always taken.
    package var requiredValueCount: Int { values.prefix { $0.presence == .required }.count }

    /// The option with long name `long`, among the kind's own and the shared ones.
    package func option(_ long: String) -> OptionSpec? {
        allOptions.first { $0.long == long } ?? allOptions.first { $0.answers(to: long) }
    }

    /// A member as errors and help name it: `<data>`, `--file <path>`.
    package func display(_ member: Member) -> String {
        switch member {
        case .value(let name): "<\(name)>"
        case .option(let long): option(long)?.synopsis ?? "--\(long)"
        }
    }

    /// The synopsis of the kind: `mime <type> (<data> | --file <path> | --hex <hex>)`.
    package var synopsis: String { synopsisParts.joined(separator: " ") }

    /// The synopsis in parts that are not to be broken across lines.
    package var synopsisParts: [String] {
        var parts = [name]
        var shown: Set<Member> = []
        let items = values.map { Member.value($0.name) } + options.map { Member.option($0.long) }
        for item in items where !shown.contains(item) {
            if let choice = choices.first(where: { $0.members.contains(item) }) {
                shown.formUnion(choice.members)
                let alternatives = choice.members.map { display($0) }.joined(separator: " | ")
                if !choice.isRequired {
                    parts.append("[\(alternatives)]")
                } else {
                    parts.append(choice.members.count > 1 ? "(\(alternatives))" : alternatives)
                }
                continue
            }
            shown.insert(item)
            switch item {
            case .value(let valueName):
                let required = values.first { $0.name == valueName }?.presence == .required
                parts.append(required ? "<\(valueName)>" : "[<\(valueName)>]")
            case .option(let long):
                if let spec = option(long) { parts.append(spec.usageSynopsis) }
            }
        }
        return parts
    }

    /// Checks the exclusive and required alternatives of a completed specification.
    package func checkChoices(of spec: RecordSpec) throws(UsageError) {
        for choice in choices + Self.sharedChoices {
            let given = choice.members.filter { spec.has($0) }
            let names = choice.members.map { display($0) }
            if given.count > 1 {
                let list = UsageError.quotedList(given.map { display($0) })
                throw UsageError("\(spec.label) takes only one of \(list)")
            }
            if given.isEmpty && choice.isRequired {
                if names.count == 1, let only = names.first {
                    throw UsageError("Missing expected argument '\(only)' for \(spec.label)", help: synopsis)
                }
                throw UsageError("\(spec.label) needs one of \(UsageError.quotedList(names))", help: synopsis)
            }
        }
    }
}

/// One record specification as typed on the command line: a kind word, its values and its
/// options, for example `text Hello --lang en`.
package struct RecordSpec: Sendable, Hashable {
    /// The kind word, for example `"text"`.
    package var kind: String
    /// The position of the specification among all given, from 0.
    package var index: Int
    /// The positional values, by value name.
    package var values: [String: String] = [:]
    /// The values of options that take one, by long name, in command-line order.
    package var options: [String: [String]] = [:]
    /// The flags given, by long name.
    package var flags: Set<String> = []

    /// How errors name the specification: `record 1 (uri)`.
    package var label: String { "record \(index) (\(kind))" }

    /// The positional value `name`.
    package func value(_ name: String) -> String? { values[name] }

    /// The last value of option `long`.
    package func option(_ long: String) -> String? { options[long]?.last }

    /// Every value of the repeatable option `long`.
    package func all(_ long: String) -> [String] { options[long] ?? [] }

    /// Whether flag `long` was given.
    package func flag(_ long: String) -> Bool { flags.contains(long) }

    /// Whether value or option `member` was given.
    package func has(_ member: RecordKind.Member) -> Bool {
        switch member {
        case .value(let name): values[name] != nil
        case .option(let long): options[long] != nil || flags.contains(long)
        }
    }
}
