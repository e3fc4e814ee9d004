import CommandLineKit
import NFCSession
import TagMemory

/// `ndeftool password set`: sets PWD, PACK, ACCESS and AUTH0 in the safe order.
enum PasswordSetCommand {
    static let fromPage = OptionSpec.option(
        "from-page", value: "page",
        help: "AUTH0, the first protected page. Default: the first user page (4): the whole NDEF area, "
            + "the dynamic lock bytes and the configuration.")
    static let readProtect = OptionSpec.flag(
        "read-protect",
        help: "PROT: reading the protected pages needs the password too (phones then cannot read them).")
    static let attemptLimit = OptionSpec.option(
        "attempt-limit", value: "n", default: "0",
        help: "AUTHLIM: 1-7 wrong passwords disable the password for good; 0: unlimited.")
    static let lockConfig = OptionSpec.flag(
        "lock-config", help: "CFGLCK: fix AUTH0, PROT and the attempt limit for good (irreversible; needs --confirm).")

    static let spec = CommandSpec(
        name: "set",
        abstract: "Set or change a tag's password and what it protects.",
        discussion: """
            On a protected tag first lifts AUTH0 to FFh (protection off); then writes PWD, \
            PACK and CFG1 (PROT, AUTHLIM), selects the tag again and checks the new \
            password with one PWD_AUTH and the PACK, and only then writes CFG0, whose AUTH0 \
            turns protection on (NTAG213/215/216 8.8, MF0ULX1 8.6). So an interrupted run \
            leaves the tag protected by the old password, unprotected, or protected by the \
            new one, never by a half-written password; run the same command again to \
            finish. The capability container is never written, so phones still read the \
            tag.

            From page 4 on (the default), writing the message, the dynamic lock bytes and \
            the configuration needs the password; the CC and static lock bytes (pages 2-3) \
            stay one-time programmable by anyone. --from-page 3 covers the CC too. With \
            --read-protect reading the protected pages needs the password as well.

            The new password is asked for twice on a terminal. A tag protected already \
            needs its current password first: --old-password-file, $NDEFTOOL_OLD_PASSWORD \
            or a prompt (one PWD_AUTH; a wrong one exits with status 78). When the tag \
            shows the protection asked for already (a run that was cut after its last \
            write), the new password is tried first; each password is tried once at most. \
            With CFGLCK set the password cannot be changed (exit status 77): AUTH0 cannot \
            be lifted while PWD is written.

            --attempt-limit N: after N wrong passwords the password is disabled for good \
            and the protected pages can never be written (or read) again. --lock-config \
            sets CFGLCK: the settings can then never change and the protection never be \
            removed; like 'ndeftool lock' it asks for the code shown on a terminal, and \
            needs --confirm CODE otherwise (exit status 79, nothing written).

            The PACK (--pack, default 0000, the factory value) is what the tag answers a \
            correct password with; choose one to let readers tell a genuine tag.

            Examples:
              ndeftool password set --password-file pw.txt --reader 'sim:ntag215?file=tag.nfc'
              NDEFTOOL_OLD_PASSWORD=DEADBEEF NDEFTOOL_PASSWORD=n0tE ndeftool password set \\
                --pack 8080 --attempt-limit 3
              NDEFTOOL_OLD_PASSWORD=n0tE ndeftool password set --password-file - --read-protect < pw.txt
              ndeftool password set --password-file pw.txt --old-password-file pw.txt \\
                --lock-config --confirm 982-689
            """,
        options: [
            PasswordInput.passwordFile, PasswordInput.oldPasswordFile, PasswordInput.pack, fromPage, readProtect,
            attemptLimit, lockConfig, LockFlow.confirm, PasswordCommand.json,
        ],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let settings = try self.settings(values)
        let code = try LockFlow.code(values)
        let locks = values.flag(lockConfig.long)
        if code != nil && !locks { throw .usage("--confirm confirms --lock-config; give both or neither") }
        if values.value(PasswordInput.passwordFile.long) == "-", values.value(PasswordInput.oldPasswordFile.long) == "-"
        {
            throw .usage("only one of --password-file and --old-password-file can read standard input")
        }
        let password = try await PasswordInput.password(.current, invocation, confirming: true)
        let givenOld = try PasswordInput.given(.old, invocation)
        let packBytes = try PasswordInput.acknowledge(values) ?? [0x00, 0x00]
        let connection = try TagConnection(invocation, writes: true)
        if settings.limit > 0 {
            connection.console.write(
                "Warning: after \(settings.limit) wrong password\(settings.limit == 1 ? "" : "s") the password is "
                    + "disabled for good (PWD_AUTH answers NAK 4h forever) and the protected pages can never be "
                    + "written\(settings.readProtect ? " or read" : "") again.")
        }
        return try await connection.run("setting the password") { tag in
            let before = try await PasswordCommand.passwordStatus(tag)
            var confirmation: NFCLockConfirmation?
            if locks {
                guard let chip = tag.chip else { throw NFCReaderError(.unsupportedFeature, "unidentified chip") }
                if before.isConfigurationLocked == true {
                    throw CommandLineError(.notPermitted, "the configuration is locked already (CFGLCK)")
                }
                let lock = try NFCLockConfirmation(
                    configurationLockOf: tag.identifier, chip: chip,
                    firstProtectedPage: settings.page ?? chip.userPages.lowerBound,
                    protectsReading: settings.readProtect, authenticationLimit: settings.limit)
                let again = RepeatCommand.line(
                    invocation.arguments, dropping: ["--" + LockFlow.confirm.long], adding: ["--confirm", lock.code])
                try await ConfigurationLockFlow.confirm(lock, code: code, console: connection.console, again: again)
                confirmation = lock
            }
            let wanted = Type2PasswordSettings(
                password: password, passwordAcknowledge: packBytes, firstProtectedPage: settings.page,
                protectsReading: settings.readProtect, authenticationLimit: settings.limit)
            if before.isProtected, !(await tag.isAuthenticated) {
                try await PasswordAttempts.openForChange(
                    tag, status: before, wanted: wanted, givenOld: givenOld, invocation: invocation)
            }
            try await tag.setPassword(wanted)
            if let confirmation { try await tag.lockConfiguration(confirmation) }
            // setPassword and lockConfiguration read CFG0 and CFG1 back and compared them: the
            // report shows what they hold without another read, which a tag leaving now could not
            // turn into a failure of a change that is complete.
            let chip = tag.chip
            let after = NFCPasswordStatus(
                mechanism: .password,
                protection: .from(
                    page: wanted.firstProtectedPage ?? chip?.userPages.lowerBound ?? 4,
                    readProtected: wanted.protectsReading),
                authenticationLimit: wanted.authenticationLimit, isConfigurationLocked: confirmation != nil,
                isAuthenticated: true)
            var report = PasswordReport(tag: tag, status: after)
            report.action = "set"
            report.acknowledgeCheck = "matches (checked with one PWD_AUTH after the writes)"
            try PasswordCommand.show(
                report, json: values.flag(PasswordCommand.json.long),
                closing: "Password set and checked" + (confirmation == nil ? "." : "; the configuration is locked."),
                io: invocation.io)
            return .success
        }
    }

    /// AUTH0, PROT and AUTHLIM as the options give them.
    static func settings(_ values: ParsedValues) throws(CommandLineError) -> (page: Int?, readProtect: Bool, limit: Int)
    {
        var page: Int?
        if let text = values.value(fromPage.long) {
            guard let number = Int(text), (0...255).contains(number) else {
                throw .invalidValue(text, for: fromPage, reason: "AUTH0 is a page number, 0 to 255")
            }
            page = number
        }
        let limitText = values.value(attemptLimit.long) ?? "0"
        guard let limit = Int(limitText), (0...7).contains(limit) else {
            throw .invalidValue(limitText, for: attemptLimit, reason: "AUTHLIM is 0 (unlimited) to 7")
        }
        return (page, values.flag(readProtect.long), limit)
    }
}
