import CommandLineKit
import NFCSession
import TagMemory

/// `ndeftool password`: PWD_AUTH password protection of NTAG21x and MIFARE Ultralight EV1 tags
/// (NTAG213/215/216 8.8, MF0ULX1 8.6).
enum PasswordCommand {
    static let json = OptionSpec.flag("json", help: "Print the report as JSON.")

    /// The command group.
    static let spec = CommandSpec(
        name: "password",
        abstract: "Set, check, remove or show a tag's password.",
        discussion: """
            NTAG213/215/216 and MIFARE Ultralight EV1 protect pages from AUTH0 on with a \
            4-byte password (PWD_AUTH) answered by a 2-byte PACK: writing only, or reading \
            too (PROT). An attempt limit (AUTHLIM 1-7) disables the password for good once \
            that many wrong passwords were tried. A wrong password is never retried.

            \(PasswordInput.sources) A password is 8 hex digits (DEADBEEF) or exactly 4 \
            ASCII characters (their bytes). It is never printed: -v shows PWD_AUTH and the \
            writes of PWD and PACK as **.

            Exit status 78: password needed, wrong, or disabled; 77: the configuration is \
            locked (CFGLCK); 79: --lock-config not confirmed; 69: the reader cannot send \
            PWD_AUTH (a PC/SC reader with the generic profile) or the chip has no password.

            Examples:
              ndeftool password status --reader 'sim:ntag215?file=tag.nfc'
              ndeftool password set --password-file pw.txt --reader pcsc:ACS
              NDEFTOOL_PASSWORD=DEADBEEF ndeftool password auth --json
              ndeftool password remove --password-file pw.txt
            """,
        subcommands: [
            PasswordSetCommand.spec, PasswordAuthCommand.spec, PasswordRemoveCommand.spec,
            PasswordStatusCommand.spec,
        ]
    )

    /// Prints `report` as JSON or as text lines, then `closing` (text only).
    static func show(
        _ report: PasswordReport, json: Bool, closing: String? = nil, io: any CommandIO
    ) throws(CommandLineError) {
        if json {
            try io.writeOutput(try MessageJSON.text(of: report) + "\n")
        } else {
            try io.writeOutput((report.lines + (closing.map { [$0] } ?? [])).joined(separator: "\n") + "\n")
        }
    }

    /// The chip's password status, refusing a chip without PWD_AUTH (``ExitStatus/unavailable``).
    static func passwordStatus(_ tag: NFCMiFareTag) async throws -> NFCPasswordStatus {
        let status = try await tag.passwordStatus()
        guard status.mechanism == .password else {
            throw NFCReaderError(
                .unsupportedFeature,
                "\(tag.chip?.name ?? "this unidentified chip") has no PWD_AUTH password protection "
                    + "(NTAG213/215/216 and MIFARE Ultralight EV1 have)")
        }
        return status
    }
}
