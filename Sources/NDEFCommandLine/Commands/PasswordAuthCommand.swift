import CommandLineKit
import NFCSession

/// `ndeftool password auth`: one PWD_AUTH, never repeated.
enum PasswordAuthCommand {
    static let spec = CommandSpec(
        name: "auth",
        abstract: "Check a password against a tag: one PWD_AUTH, never retried.",
        discussion: """
            Sends PWD_AUTH once (NTAG213/215/216 8.8). A correct password is answered with \
            the PACK, which is checked against --pack when given. A wrong one exits with \
            status 78 and says whether the attempt counted against the attempt limit; the \
            chip does not tell how many attempts are left. A password disabled for good \
            (the attempt limit reached: PWD_AUTH answers NAK 4h) exits with status 78 too, \
            saying so. On a tag that protects no page (AUTH0 past its last page) with an \
            attempt limit set, nothing is sent: no password is needed, and a wrong one would \
            still count (exit status 0, saying so). The authentication ends with the command.

            Examples:
              ndeftool password set --password-file pw.txt --pack 8080
              ndeftool password auth --password-file pw.txt --reader 'sim:ntag215?file=tag.nfc'
              NDEFTOOL_PASSWORD=DEADBEEF ndeftool password auth --pack 8080 --json
            """,
        options: [PasswordInput.passwordFile, PasswordInput.pack, PasswordCommand.json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let expected = try PasswordInput.acknowledge(values)
        let password = try await PasswordInput.password(.current, invocation)
        let json = values.flag(PasswordCommand.json.long)
        let connection = try TagConnection(invocation)
        return try await connection.run("authenticating") { tag in
            let status = try await PasswordCommand.passwordStatus(tag)
            var report = PasswordReport(tag: tag, status: status)
            if status.protection == .off, let limit = status.authenticationLimit, limit > 0 {
                // Nothing to unlock, and a wrong password would still count toward AUTHLIM.
                report.action = "notNeeded"
                try PasswordCommand.show(
                    report, json: json,
                    closing: "The tag protects no page (AUTH0 is past its last page): no password is needed, and "
                        + "none was sent (a wrong one would count toward the attempt limit, \(limit)).",
                    io: invocation.io)
                return .success
            }
            try PasswordAttempts.checkAgainstRecord(
                password, uid: tag.identifier, status: status, invocation: invocation)
            let acknowledge: [UInt8]
            do {
                acknowledge = try await tag.authenticate(password: password)
            } catch let error as NFCReaderError
                where error.code == .authenticationFailed || error.code == .passwordDisabled
            {
                let disabled = error.code == .passwordDisabled
                report.action = disabled ? "disabled" : "refused"
                if disabled { report.isPasswordDisabled = true }
                if json { try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n") }
                throw CommandLineError(
                    .authenticationFailed,
                    disabled
                        ? "the password is disabled for good: the attempt limit (AUTHLIM) is reached and PWD_AUTH "
                            + "answers NAK 4h to every password, the right one too"
                        : "the tag refused the password (not retried). "
                            + PasswordAttempts.note(limit: report.attemptLimit))
            }
            report.action = "authenticated"
            report.isPasswordDisabled = false
            if let expected {
                guard expected == acknowledge else {
                    report.acknowledgeCheck = "differs from --pack"
                    if json { try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n") }
                    throw CommandLineError(
                        .authenticationFailed,
                        "the tag accepted the password but answered another PACK than --pack: it may not be genuine")
                }
                report.acknowledgeCheck = "matches --pack"
            } else {
                report.acknowledgeCheck = "not checked (no --pack given)"
            }
            try PasswordCommand.show(report, json: json, closing: "Password accepted.", io: invocation.io)
            return .success
        }
    }
}
