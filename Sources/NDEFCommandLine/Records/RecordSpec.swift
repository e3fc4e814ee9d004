/// One record specification as typed on the command line: a kind word, its values and its
/// options, for example `text Hello --lang en`.
struct RecordSpec: Sendable, Hashable {
    /// The kind word, for example `"text"`.
    var kind: String
    /// The position of the specification among all given, from 0.
    var index: Int
    /// The positional values, by value name.
    var values: [String: String] = [:]
    /// The values of options that take one, by long name, in command-line order.
    var options: [String: [String]] = [:]
    /// The flags given, by long name.
    var flags: Set<String> = []

    /// How errors name the specification: `record 1 (uri)`.
    var label: String { "record \(index) (\(kind))" }

    /// The positional value `name`.
    func value(_ name: String) -> String? { values[name] }

    /// The last value of option `long`.
    func option(_ long: String) -> String? { options[long]?.last }

    /// Every value of the repeatable option `long`.
    func all(_ long: String) -> [String] { options[long] ?? [] }

    /// Whether flag `long` was given.
    func flag(_ long: String) -> Bool { flags.contains(long) }

    /// Whether value or option `member` was given.
    func has(_ member: RecordKind.Member) -> Bool {
        switch member {
        case .value(let name): values[name] != nil
        case .option(let long): options[long] != nil || flags.contains(long)
        }
    }
}
