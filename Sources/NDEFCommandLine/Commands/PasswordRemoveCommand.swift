import CommandLineKit
import NFCSession

/// `ndeftool password remove`: protection off, the password back to the factory value.
enum PasswordRemoveCommand {
    static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove a tag's password protection.",
        discussion: """
            Authenticates once with the password when the configuration is protected (a \
            wrong one: exit status 78, not retried), then writes AUTH0 FFh first (no page \
            protected), clears PROT and the attempt limit, and puts PWD and PACK back to \
            their factory values FF FF FF FF and 00 00 (NTAG213/215/216 8.5.7), so the tag \
            is as delivered: a later AUTH0 write by anyone protects with the well-known \
            factory password, not a forgotten one. A tag without protection needs no \
            password. With the configuration locked (CFGLCK) nothing can be removed: exit \
            status 77.

            Examples:
              ndeftool password set --password-file pw.txt
              ndeftool password remove --password-file pw.txt --reader 'sim:ntag215?file=tag.nfc'
              ndeftool password set --password-file pw.txt
              NDEFTOOL_PASSWORD=DEADBEEF ndeftool password remove --json
            """,
        options: [PasswordInput.passwordFile, PasswordInput.pack, PasswordCommand.json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let expected = try PasswordInput.acknowledge(values)
        let given = try PasswordInput.given(.current, invocation)
        let connection = try TagConnection(invocation, writes: true)
        return try await connection.run("removing the password") { tag in
            let before = try await PasswordCommand.passwordStatus(tag)
            if before.isConfigurationLocked == true, before.isProtected {
                throw CommandLineError(
                    .notPermitted,
                    "the configuration is locked for good (CFGLCK): the protection cannot be removed; nothing "
                        + "was written")
            }
            var password = given
            if password == nil, before.isProtected {
                password = try await PasswordInput.password(.current, invocation)
            }
            if let password, before.isProtected {
                try PasswordAttempts.checkAgainstRecord(
                    password, uid: tag.identifier, status: before, invocation: invocation)
            }
            // A removal makes the record of the last change untrue from its first write on: it
            // goes first, and comes back only when nothing was written.
            let records = PasswordChangeRecords(io: invocation.io)
            let record = records.load(uid: tag.identifier)
            await records.remove(uid: tag.identifier)
            do {
                try await tag.removePassword(currentPassword: password, expectedPasswordAcknowledge: expected)
            } catch let error as NFCReaderError {
                if !error.mayBeHalfWritten { await records.restore(record, uid: tag.identifier) }
                throw PasswordAttempts.counted(error, limit: before.authenticationLimit)
            }
            // removePassword read CFG0 and CFG1 back: no other read, which a tag leaving now could
            // not turn into a failure of a change that is complete.
            let after = NFCPasswordStatus(
                mechanism: .password, protection: .off, authenticationLimit: 0,
                isConfigurationLocked: before.isConfigurationLocked ?? false, isAuthenticated: await tag.isAuthenticated
            )
            var report = PasswordReport(tag: tag, status: after)
            report.action = "removed"
            try PasswordCommand.show(
                report, json: values.flag(PasswordCommand.json.long),
                closing: "Password protection removed; PWD and PACK are back to their factory values.",
                io: invocation.io)
            return .success
        }
    }
}
