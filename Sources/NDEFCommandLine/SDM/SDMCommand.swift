import CommandLineKit

/// `ndeftool sdm`: NTAG 424 DNA secure dynamic messaging (NT4H2421Gx 9.3; AN12196).
enum SDMCommand {
    /// The command group.
    static let spec = CommandSpec(
        name: "sdm",
        abstract: "NTAG 424 DNA secure unique messages: set a tag up, check the URLs it produces, show its status.",
        discussion: """
            An NTAG 424 DNA with secure dynamic messaging (SDM) puts into every URL a phone \
            reads its UID and read counter, encrypted (PICCData), and a MAC over them \
            (SDMMAC): a server that holds the keys tells a genuine tap from a copied link. \
            'ndeftool sdm verify' is that server side.

            Examples:
              ndeftool sdm verify --picc-param e --mac-param c \\
                  --meta-read-key-file sdm-zero-key.hex --file-read-key-file sdm-zero-key.hex \\
                  'https://x.test/?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086'
            """,
        subcommands: [SDMSetupCommand.spec, SDMVerifyCommand.spec, SDMStatusCommand.spec]
    )
}
