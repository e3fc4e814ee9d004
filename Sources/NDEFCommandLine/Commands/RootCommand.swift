import CommandLineKit
import TagInspection

/// The root of the command tree: `ndeftool`, its subcommands and the exit status table.
enum RootCommand {
    /// The exit statuses, as listed in `ndeftool --help`.
    static var exitStatusTable: String {
        "Exit status:\n"
            + ExitStatus.allCases.map { status in
                let code = String(status.rawValue)
                return "  " + code + String(repeating: " ", count: 4 - code.count) + status.meaning
            }.joined(separator: "\n")
    }

    /// The `ndeftool` command.
    static let spec = CommandSpec(
        name: "ndeftool",
        abstract: "Encode, decode and inspect NFC Forum NDEF messages; read, write and lock tags.",
        discussion: """
            Data is read from files or standard input ('-') and written to standard output or \
            a file; messages go to standard error. On a terminal, messages are in colour \
            (errors red, success green, warnings yellow) unless NO_COLOR is set. With --json \
            (every command but encode, whose --json names its input), a failure is also written \
            to standard output as {"error": {"code": "dataError", "exitStatus": 65, "message": \
            "..."}}, code naming the exit status below.

            Examples:
              ndeftool encode uri https://example.com > message.ndef
              ndeftool write --reader sim:ntag215 uri https://example.com
              ndeftool read --reader 1 --json
              ndeftool readers --watch
              ndeftool completions bash

            \(exitStatusTable)
            """,
        version: NDEFToolVersion.current,
        subcommands: [
            EncodeCommand.spec, DecodeCommand.spec, InspectCommand.spec, InfoCommand.spec, ReadCommand.spec,
            WriteCommand.spec, LockCommand.spec, PasswordCommand.spec, FormatCommand.spec, EraseCommand.spec,
            DumpCommand.spec, RawCommand.spec, BatchCommand.spec, ReadersCommand.spec, SimCommand.spec,
            CompletionsCommand.spec,
            HelpCommand.spec, ManPageCommand.spec,
        ]
    )
}

/// `ndeftool help [<subcommands> ...]`: the help of the named command.
enum HelpCommand {
    /// The command; hidden from the subcommand list, as in swift-argument-parser.
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show subcommand help information.",
        discussion: """
            Examples:
              ndeftool help write
              ndeftool help sim serve
            """,
        arguments: [ArgumentSpec("subcommands", help: "The command to describe.", optional: true, repeating: true)],
        isHidden: true,
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        guard let root = invocation.path.first else { return .success }
        var path = [root]
        for name in invocation.values.arguments("subcommands") {
            guard let next = path.last?.subcommand(named: name) else {
                throw .usage("Unknown subcommand '\(name)' of '\(path.map(\.name).joined(separator: " "))'")
            }
            path.append(next)
        }
        try invocation.io.writeOutput(HelpFormatter(path: path).render())
        return .success
    }
}
