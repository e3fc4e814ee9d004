import CommandLineKit

/// What a command of `ndeftool` does when it runs: it returns the exit status or throws a failure.
struct CommandRun: Sendable {
    /// The function that runs the command.
    let body: @Sendable (CommandInvocation) async throws(CommandLineError) -> ExitStatus
}

/// A command of `ndeftool`: the command-line kit's `CommandDefinition`, run by a ``CommandRun``.
typealias CommandSpec = CommandDefinition<CommandRun>
/// The parser of `ndeftool`'s command line.
typealias CommandParser = CommandLineParser<CommandRun>
/// The help of `ndeftool`'s commands.
typealias HelpFormatter = CommandHelp<CommandRun>

extension CommandDefinition where Action == CommandRun {
    /// A command that `body` runs (the kit's initializer with the function as its action).
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
        hiddenOptions: [OptionSpec] = [],
        isHidden: Bool = false,
        run body: @escaping @Sendable (CommandInvocation) async throws(CommandLineError) -> ExitStatus
    ) {
        self.init(
            name: name, abstract: abstract, discussion: discussion, version: version, arguments: arguments,
            options: options, groups: groups, helpSections: helpSections, subcommands: subcommands,
            hiddenOptions: hiddenOptions, isHidden: isHidden, run: CommandRun(body: body))
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

extension ParsedValues {
    /// The value of option `long` as an integer in `range` (the kit's `integer(_:in:)`), a
    /// usage error (64) when it is not one.
    func integerValue(_ long: String, in range: ClosedRange<Int>) throws(CommandLineError) -> Int? {
        do {
            return try integer(long, in: range)
        } catch {
            throw CommandLineError(error)
        }
    }
}
