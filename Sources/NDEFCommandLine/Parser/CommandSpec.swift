import CommandLineKit

/// One command of the tool, declared as data: its names, help texts, arguments, options,
/// subcommands and the function that runs it.
///
/// Commands nest: `ndeftool sim serve` is the `serve` command among the subcommands of `sim`,
/// itself a subcommand of the root. Options shared by several commands are declared once as
/// an ``OptionGroup`` and listed in each command's ``groups``.
struct CommandSpec: Sendable {
    /// What a command does when it runs; it returns the exit status or throws a failure.
    typealias Run = @Sendable (CommandInvocation) async throws(CommandLineError) -> ExitStatus

    /// The name typed on the command line, for example `"encode"`.
    var name: String
    /// A one-line summary, shown after `OVERVIEW:` and in the parent's subcommand list.
    var abstract: String
    /// Longer help shown under the abstract; lines are kept as written, long ones wrapped.
    var discussion: String
    /// The tool's version; set on the root command, printed by `--version`.
    var version: String?
    /// The positional arguments, in order.
    var arguments: [ArgumentSpec]
    /// The options, in groups; the first untitled group holds the command's own options.
    var groups: [OptionGroup]
    /// Extra sections of help that do not belong to the command's own options, such as the
    /// options of record specifications; shown between the arguments and the options.
    var helpSections: [HelpSection]
    /// The subcommands, in the order help lists them.
    var subcommands: [CommandSpec]
    /// Whether the command is left out of its parent's subcommand list (it still runs).
    var isHidden: Bool
    /// The function that runs the command, or `nil` to show help.
    var run: Run?

    /// Creates a command.
    init(
        name: String,
        abstract: String,
        discussion: String = "",
        version: String? = nil,
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        groups: [OptionGroup] = [],
        helpSections: [HelpSection] = [],
        subcommands: [CommandSpec] = [],
        isHidden: Bool = false,
        run: Run? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.arguments = arguments
        self.groups = options.isEmpty ? groups : [OptionGroup(options)] + groups
        self.helpSections = helpSections
        self.subcommands = subcommands
        self.isHidden = isHidden
        self.run = run
    }

    /// Every option the command declares, in help order.
    var options: [OptionSpec] { groups.flatMap(\.options) }

    /// The subcommand named `name`.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

/// A command being run: where it sits in the command tree, what was parsed, and its I/O.
struct CommandInvocation {
    /// The commands from the root to the one running.
    var path: [CommandSpec]
    /// The arguments and options parsed for it.
    var values: ParsedValues
    /// Standard input, output, error and environment.
    var io: any CommandIO
    /// The command line as typed, without the program name (to show how to run it again).
    var arguments: [String] = []
}
