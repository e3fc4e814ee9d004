/// One command of a tool, declared as data: its names, help texts, arguments, options,
/// subcommands and what runs it (an `Action` of the tool's choosing, typically a closure).
///
/// Commands nest: `ndeftool sim serve` is the `serve` command among the subcommands of `sim`,
/// itself a subcommand of the root. Options shared by several commands are declared once as
/// an ``OptionGroup`` and listed in each command's ``groups``.
package struct CommandDefinition<Action: Sendable>: Sendable {
    /// The name typed on the command line, for example `"encode"`.
    package var name: String
    /// A one-line summary, shown after `OVERVIEW:` and in the parent's subcommand list.
    package var abstract: String
    /// Longer help shown under the abstract; lines are kept as written, long ones wrapped.
    package var discussion: String
    /// The tool's version; set on the root command, printed by `--version`.
    package var version: String?
    /// The positional arguments, in order.
    package var arguments: [ArgumentSpec]
    /// The options, in groups; the first untitled group holds the command's own options.
    package var groups: [OptionGroup]
    /// Extra sections of help that do not belong to the command's own options, such as the
    /// options of record specifications; shown between the arguments and the options.
    package var helpSections: [HelpSection]
    /// The subcommands, in the order help lists them.
    package var subcommands: [CommandDefinition]
    /// Options that work but that help, completions and the manual page leave out: old
    /// spellings kept for scripts written before a rename (the command warns when one is used).
    package var hiddenOptions: [OptionSpec]
    /// Whether the command is left out of its parent's subcommand list (it still runs).
    package var isHidden: Bool
    /// What runs the command, or `nil` to show help.
    package var run: Action?

    /// Creates a command.
    package init(
        name: String,
        abstract: String,
        discussion: String = "",
        version: String? = nil,
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        groups: [OptionGroup] = [],
        helpSections: [HelpSection] = [],
        subcommands: [CommandDefinition] = [],
        hiddenOptions: [OptionSpec] = [],
        isHidden: Bool = false,
        run: Action? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.arguments = arguments
        self.groups = options.isEmpty ? groups : [OptionGroup(options)] + groups
        self.helpSections = helpSections
        self.subcommands = subcommands
        self.hiddenOptions = hiddenOptions
        self.isHidden = isHidden
        self.run = run
    }

    /// Every option the command declares, in help order.
    package var options: [OptionSpec] { groups.flatMap(\.options) }

    /// The subcommand named `name`.
    package func subcommand(named name: String) -> CommandDefinition? {
        subcommands.first { $0.name == name }
    }
}
