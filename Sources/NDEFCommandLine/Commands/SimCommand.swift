/// `ndeftool sim`: the simulated tags, served to other programs.
enum SimCommand {
    /// The command group.
    static let spec = CommandSpec(
        name: "sim",
        abstract: "Serve simulated tags to real reader stacks.",
        discussion: """
            A simulated tag is named as a reader URL, sim:CHIP?OPTIONS (see 'ndeftool help \
            info' for the chips and options, such as file=PATH to keep the tag in a file).
            """,
        subcommands: [SimServeCommand.spec]
    )
}
