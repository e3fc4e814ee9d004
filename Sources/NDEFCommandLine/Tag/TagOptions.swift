import CommandLineKit
import NFCReaders

/// The options every tag command shares: which reader, how long to wait for a tag, and how
/// much to say on standard error.
enum TagOptions {
    /// The environment variable read when `--reader` is not given.
    static let readerVariable = "NDEFTOOL_READER"
    /// The wait for a tag when `--wait` is not given, in seconds.
    static let defaultWait = 15
    /// The longest wait accepted, in seconds (one hour).
    static let maximumWait = 3600

    static let reader = OptionSpec.option(
        "reader",
        value: "url",
        help:
            "The reader: a number from 'ndeftool readers', pcsc:NAME (a PC/SC reader: a name, its prefix or an index; pcsc: is the first), "
            + "libnfc:CONNSTRING (a libnfc device, such as libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first "
            + "it lists), sim:CHIP[?file=PATH&...] (a simulated tag). Default: $\(readerVariable), else the reader "
            + "used last if it is connected, else the only one, else a question on a terminal ('ndeftool readers' "
            + "lists them)."
    )
    static let wait = OptionSpec.option(
        "wait",
        value: "seconds",
        default: String(defaultWait),
        help: "How long to wait for a tag; 0 looks once."
    )
    static let quiet = MessageOptions.quiet
    static let verbose = MessageOptions.verbose("Print each command sent to the tag and its answer, and the count.")

    /// The group, listed under its own heading in help.
    static let group = OptionGroup(title: "Tag options", [reader, wait, quiet, verbose])

    /// The settings parsed from `values` and the environment.
    static func settings(_ invocation: CommandInvocation) throws(CommandLineError) -> TagSettings {
        let values = invocation.values
        let text = values.value(wait.long) ?? String(defaultWait)
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= Double(maximumWait) else {
            throw .invalidValue(
                text, for: wait, reason: "expected a number of seconds from 0 to \(maximumWait), such as 15 or 0.5")
        }
        var address: ReaderAddress?
        var number: Int?
        let named: (text: String, origin: String)? =
            values.value(reader.long).map { ($0, "--reader") }
            ?? invocation.io.environment(readerVariable).flatMap { $0.isEmpty ? nil : ($0, readerVariable) }
        if let named {
            if !named.text.isEmpty, named.text.allSatisfy(\.isASCII), named.text.allSatisfy(\.isNumber) {
                guard let value = Int(named.text), value >= 1 else {
                    throw .usage("Invalid reader '\(named.text)' in \(named.origin): readers are numbered from 1")
                }
                number = value
            } else {
                address = try ReaderAddress(parsing: named.text, origin: named.origin)
            }
        }
        return TagSettings(
            reader: address,
            readerNumber: number,
            wait: .milliseconds(Int((seconds * 1000).rounded())),
            isQuiet: values.flag(quiet.long),
            isVerbose: values.flag(verbose.long)
        )
    }
}

/// What the shared tag options ask for.
struct TagSettings: Sendable {
    /// The reader given; nil to choose one (``ReaderChoice``).
    var reader: ReaderAddress?
    /// The reader given by its number in `ndeftool readers` (from 1); nil when not given so.
    var readerNumber: Int? = nil
    /// How long to wait for a tag.
    var wait: Duration
    /// Whether progress messages are left out.
    var isQuiet: Bool
    /// Whether every command to the tag is shown.
    var isVerbose: Bool
}
