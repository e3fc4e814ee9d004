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

    /// The description of the tool and its examples: the top of `--help` and the manual page's
    /// DESCRIPTION.
    static let overview = """
        Data is read from files or standard input ('-') and written to standard output or \
        a file; messages go to standard error. On a terminal, messages are in colour \
        (errors red, success green, warnings yellow) unless NO_COLOR is set. With --json \
        (every command but encode, whose --json names its input), a failure is also written \
        to standard output as {"error": {"code": "dataError", "exitStatus": 65, "message": \
        "..."}}, code naming the exit status below.

        Examples:
          ndeftool encode uri https://example.com > message.ndef
          ndeftool write --reader sim:ntag215 uri https://example.com
          ndeftool read --reader sim:ntag215 --json
          ndeftool readers --watch
          ndeftool completions bash
        """

    /// The manual page's sections after the commands: ENVIRONMENT, FILES and EXIT STATUS.
    static let manPageSections: [ManPage.Section] = [
        ManPage.Section(
            title: "Environment",
            entries: [
                (TagOptions.readerVariable, "The reader of the tag commands and batch when --reader is not given."),
                (
                    "NDEFTOOL_PASSWORD",
                    "A tag's password (8 hex digits or 4 ASCII characters) when --password-file is not given."
                ),
                ("NDEFTOOL_OLD_PASSWORD", "The current password, for 'password set' on a protected tag."),
                ("NDEFTOOL_MASTER_SECRET", "The master secret of 'batch --derive-passwords' (at least 16 bytes)."),
                (
                    BatchDatabaseOptions.variable,
                    "The database of batch jobs kept in PostgreSQL (--job, --join, batch status, report, db) "
                        + "when --database is not given: a libpq URI or keyword string, which may hold a password. "
                        + "Not read by sdm verify, whose counter store is named by --database only."
                ),
                (
                    "PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGPASSFILE, PGSSLMODE",
                    "libpq's own: what the database URL leaves out, and its password (never on the command line)."
                ),
                ("NO_COLOR", "When set, no colour on a terminal."),
                ("COLUMNS", "The width of help text."),
                ("XDG_CONFIG_HOME", "Where the remembered reader is kept (default ~/.config)."),
                ("LIBNFC_DEVICE", "libnfc's own: the devices libnfc opens (libnfc:CONNSTRING readers)."),
                (
                    "NDEFTOOL_LIBNFC_TIMEOUT_MS",
                    "How long to wait for a libnfc device's answer to a command, 1 to 600000 ms (default "
                        + "1000): more for a device on a slow link."
                ),
                ("PCSCLITE_CSOCK_NAME", "pcsc-lite's own: the socket of the pcscd to use."),
            ]),
        ManPage.Section(
            title: "Files",
            entries: [
                (
                    "$XDG_CONFIG_HOME/ndeftool/last-reader",
                    "The reader used last (default ~/.config/ndeftool/last-reader): the tag commands' "
                        + "reader when neither --reader nor NDEFTOOL_READER names one."
                ),
                (
                    "PLAN.journal",
                    "A batch job's journal (JSON Lines, one event per line; keys in snake_case, a file "
                        + "format kept stable): resumed with 'batch --resume'."
                ),
                ("PLAN.report.csv, PLAN.report.json", "A batch job's report: row, UID, outcome, time."),
                (
                    "~/.pgpass",
                    "libpq's passwords of database servers (batch jobs kept in PostgreSQL, the counter store of "
                        + "sdm verify --database)."
                ),
                ("/etc/nfc/libnfc.conf", "libnfc's devices."),
                (
                    "sim:...?file=PATH",
                    "A simulated tag kept in a file: a Flipper .nfc file (Type 2), a text file (Type 4)."
                ),
            ]),
        ManPage.Section(
            title: "Exit status",
            entries: ExitStatus.allCases.map { (String($0.rawValue), $0.meaning) }),
    ]

    /// The `ndeftool` command.
    static let spec = CommandSpec(
        name: "ndeftool",
        abstract: "Encode, decode and inspect NFC Forum NDEF messages; read, write and lock tags.",
        discussion: overview + "\n\n" + exitStatusTable,
        version: NDEFToolVersion.current,
        subcommands: [
            EncodeCommand.spec, DecodeCommand.spec, InspectCommand.spec, InfoCommand.spec, ReadCommand.spec,
            WriteCommand.spec, LockCommand.spec, PasswordCommand.spec, FormatCommand.spec, EraseCommand.spec,
            DumpCommand.spec, RawCommand.spec, BatchCommand.spec, SDMCommand.spec, ReadersCommand.spec, SimCommand.spec,
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
