import CommandLineKit
import NFCSession

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
