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
              ndeftool password set --password-file pw.txt
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

/// `ndeftool password status`: the protection as CFG0 and CFG1 show it; no password needed.
enum PasswordStatusCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show a tag's password protection (no password needed).",
        discussion: """
            Reads CFG0 and CFG1 (NTAG213/215/216 8.5.7, MF0ULX1 8.5.7): the first protected \
            page (AUTH0), whether reading needs the password too (PROT), the attempt limit \
            (AUTHLIM) and the configuration lock (CFGLCK). When reading is protected from a \
            page at or before CFG0, those details cannot be read without the password and \
            show as unknown. Whether the password is disabled is known only from a PWD_AUTH \
            answered NAK 4h ('ndeftool password auth'); the chip does not tell how many \
            attempts are left. No PWD_AUTH is sent.

            Examples:
              ndeftool password status --reader 'sim:ntag215?file=tag.nfc'
              ndeftool password status --json
            """,
        options: [PasswordCommand.json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let connection = try TagConnection(invocation)
        return try await connection.run("reading the password configuration") { tag in
            let report = PasswordReport(tag: tag, status: try await tag.passwordStatus())
            try PasswordCommand.show(report, json: invocation.values.flag(PasswordCommand.json.long), io: invocation.io)
            return .success
        }
    }
}
