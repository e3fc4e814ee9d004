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
        try invocation.io.writeOutput(ManPage(root: root).render())
        return .success
    }
}
