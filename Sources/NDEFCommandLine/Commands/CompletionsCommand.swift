import CommandLineKit

/// `ndeftool completions bash|zsh|fish`: prints a shell completion script.
enum CompletionsCommand {
    /// The command.
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            The script completes commands, subcommands, options, the values of options that \
            list them, and file names where a command takes a file; after encode and write \
            the record kinds and the options of the last kind typed; for --reader the \
            prefixes sim:, pcsc:, libnfc: and the simulated chips. It is generated from the \
            same command definitions as --help, so it always matches this version.

            Examples:
              source <(ndeftool completions bash)
              ndeftool completions bash > ndeftool.bash
              mkdir -p ~/.zfunc && ndeftool completions zsh > ~/.zfunc/_ndeftool
              mkdir -p ~/.config/fish/completions
              ndeftool completions fish > ~/.config/fish/completions/ndeftool.fish
            """,
        arguments: [
            ArgumentSpec(
                "shell",
                help: "The shell: " + CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
                    + ".",
                values: CompletionScript.Shell.allCases.map(\.rawValue))
        ],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let name = invocation.values.argument("shell") ?? ""
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            throw .invalidValue(
                name, for: "<shell>",
                reason: "expected " + CommandLineError.quotedList(CompletionScript.Shell.allCases.map(\.rawValue)))
        }
        guard let root = invocation.path.first else { return .success }
        try invocation.io.writeOutput(CompletionScript(root: root).script(for: shell))
        return .success
    }
}

/// `ndeftool manpage`: prints the manual page, ndeftool.1, in roff (`Scripts/man` saves it).
enum ManPageCommand {
    /// The command; hidden from the subcommand list.
    static let spec = CommandSpec(
        name: "manpage",
        abstract: "Print the manual page (roff, for ndeftool.1).",
        discussion: """
            The page is made from the same text as --help: every command with its usage, \
            description, arguments, options and examples.

            Examples:
              ndeftool manpage > ndeftool.1 && man -l ndeftool.1
            """,
        isHidden: true,
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        guard let root = invocation.path.first else { return .success }
        try invocation.io.writeOutput(
            ManPage(root: root, description: RootCommand.overview, sections: RootCommand.manPageSections).render())
        return .success
    }
}
