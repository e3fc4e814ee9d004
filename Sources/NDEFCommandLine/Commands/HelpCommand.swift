import CommandLineKit

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
