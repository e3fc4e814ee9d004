import CommandLineKit

/// `-q` and `-v`, the options that say how much a command says on standard error, shared by every
/// command that prints messages (the tag commands list them among their ``TagOptions``).
///
/// `-q` leaves out progress and informational messages (warnings included); errors are always
/// printed, and nothing changes on standard output. `-v` adds what detail the command has: each
/// command sent to a tag, the byte offsets of records, the memory of a dump.
enum MessageOptions {
    static let quiet = OptionSpec.flag(
        "quiet", short: "q", help: "Print no progress or other notes (errors still are).")

    /// `-v, --verbose` with the detail `help` says it adds.
    static func verbose(_ help: String) -> OptionSpec {
        .flag("verbose", short: "v", help: help)
    }

    /// `-q` and `-v` (with `verbose` as its help), listed with the command's own options.
    static func group(verbose: String) -> OptionGroup {
        OptionGroup([quiet, Self.verbose(verbose)])
    }

    /// What `values` ask for.
    static func level(_ values: ParsedValues) -> MessageLevel {
        MessageLevel(isQuiet: values.flag(quiet.long), isVerbose: values.flag("verbose"))
    }
}

/// How much a command says on standard error: the settings of ``MessageOptions``.
struct MessageLevel: Sendable, Hashable {
    /// Whether informational messages are left out (`-q`).
    var isQuiet = false
    /// Whether detail is added (`-v`).
    var isVerbose = false
}

/// The messages of a command that talks to no tag (``TagConsole`` is the tag commands'), on
/// standard error, following `-q` and `-v`.
struct CommandMessages {
    let io: any CommandIO
    let level: MessageLevel
    let style: Style

    /// The messages of `invocation`, at the level its options ask for.
    init(_ invocation: CommandInvocation) {
        io = invocation.io
        level = MessageOptions.level(invocation.values)
        style = Style(io: invocation.io)
    }

    /// A message worth a line in a log; left out with `-q`.
    func note(_ text: String) {
        if !level.isQuiet { io.writeError(text + "\n") }
    }

    /// A warning, yellow on a terminal; left out with `-q`.
    func warn(_ text: String) {
        note(style.warning(text))
    }

    /// A detail shown with `-v` (with `-q` too: `-q -v` shows the detail and nothing else).
    func detail(_ text: String) {
        if level.isVerbose { io.writeError(text + "\n") }
    }
}
