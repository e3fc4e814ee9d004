/// `ndeftool sim`: the simulated tags, served to other programs.
enum SimCommand {
    /// The command group.
    static let spec = CommandSpec(
        name: "sim",
        abstract: "Serve simulated tags to real reader stacks.",
        discussion: """
            A simulated tag is named as a reader URL, sim:CHIP?OPTIONS, as for --reader: \
            chips ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralight-c, \
            ultralight-ev1, ultralight-ev1-128 and type4; options file=PATH (keep the tag in \
            a file), uid=HEX and the faults remove-after=N, in-flight=complete|none|tear, \
            second-tag=1, latency-ms=N and corrupt-every=N (the README has them all).

            Examples:
              ndeftool sim serve 'sim:ntag215?file=tag.nfc'
              ndeftool sim serve --pn532 /tmp/pn532 sim:ntag213
            """,
        subcommands: [SimServeCommand.spec]
    )
}
