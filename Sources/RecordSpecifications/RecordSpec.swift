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
