import CommandLineKit
import HexText
import NDEF
import NFCSession
import TagMemory

/// `ndeftool password set`: sets PWD, PACK, ACCESS and AUTH0 in the safe order.
enum PasswordSetCommand {
    static let fromPage = OptionSpec.option(
        "from-page", value: "page",
        help: "AUTH0, the first protected page. Default: kept on a protected tag; else the first user page "
            + "(4): the whole NDEF area, the dynamic lock bytes and the configuration.")
    static let readProtect = OptionSpec.flag(
        "read-protect",
        help: "PROT: reading the protected pages needs the password too (phones then cannot read them).")
    static let noReadProtect = OptionSpec.flag(
        "no-read-protect",
        help: "PROT off: only writing needs the password. Default: kept on a protected tag; else off.")
    static let attemptLimit = OptionSpec.option(
        "attempt-limit", value: "n",
        help: "AUTHLIM: 1-7 wrong passwords disable the password for good; 0: unlimited. Default: kept on a "
            + "protected tag; else 0.")
    static let tagHolds = OptionSpec.option(
        "tag-holds", value: "old|new",
        help: "Which password the protected tag holds, where nothing else tells (no record of an earlier change "
            + "on this machine, and the tag shows the settings asked for): only that one is tried.")
    static let lockConfig = OptionSpec.flag(
        "lock-config", help: "CFGLCK: fix AUTH0, PROT and the attempt limit for good (irreversible; needs --confirm).")

    static let spec = CommandSpec(
        name: "set",
        abstract: "Set or change a tag's password and what it protects.",
        discussion: """
            On a protected tag first lifts the attempt limit (AUTHLIM 0) and AUTH0 to FFh \
            (protection off); then writes PWD and PACK, selects the tag again and checks \
            the new password with one PWD_AUTH and the PACK, and only then writes CFG1 \
            (PROT, AUTHLIM) and CFG0, whose AUTH0 turns protection on (NTAG213/215/216 \
            8.8, MF0ULX1 8.6). So an interrupted run leaves the tag protected by the old \
            password, unprotected, or protected by the new one, never by a half-written \
            password; run the same command again to finish. The capability container is \
            never written, so phones still read the tag.

            A change keeps the settings its command line leaves out (--from-page, \
            --read-protect or --no-read-protect, --attempt-limit, --pack) as the tag has \
            them, and says which. A record of each change on this machine \
            ($XDG_STATE_HOME/ndeftool/password-changes; no password in it) tells a rerun \
            which password the tag holds. Where neither the record nor the tag tells, and \
            a wrong guess would count (AUTHLIM), nothing is sent: exit status 64, and \
            --tag-holds old or --tag-holds new settles it.

            From page 4 on (the default), writing the message, the dynamic lock bytes and \
            the configuration needs the password; the CC and static lock bytes (pages 2-3) \
            stay one-time programmable by anyone. --from-page 3 covers the CC too. With \
            --read-protect reading the protected pages needs the password as well.

            The new password is asked for twice on a terminal. A tag protected already \
            needs its current password first: --old-password-file, $NDEFTOOL_OLD_PASSWORD \
            or a prompt (one PWD_AUTH; a wrong one exits with status 78); each password is \
            tried once at most, and both only where no attempt counts (AUTHLIM 0). With \
            CFGLCK set the password cannot be changed (exit status 77): AUTH0 cannot be \
            lifted while PWD is written.

            --attempt-limit N: after N wrong passwords the password is disabled for good \
            and the protected pages can never be written (or read) again. --lock-config \
            sets CFGLCK: the settings can then never change and the protection never be \
            removed; like 'ndeftool lock' it asks for the code shown on a terminal, and \
            needs --confirm CODE otherwise (exit status 79, nothing written).

            The PACK (--pack; on a tag without protection 0000, the factory value) is what \
            the tag answers a correct password with; choose one to let readers tell a \
            genuine tag.

            Examples:
              ndeftool password set --password-file pw.txt --reader 'sim:ntag215?file=tag.nfc'
              NDEFTOOL_OLD_PASSWORD=DEADBEEF NDEFTOOL_PASSWORD=n0tE ndeftool password set \\
                --pack 8080 --attempt-limit 3
              NDEFTOOL_OLD_PASSWORD=n0tE ndeftool password set --password-file - --read-protect < pw.txt
              ndeftool password set --password-file pw.txt --old-password-file pw.txt \\
                --no-read-protect --attempt-limit 0 --lock-config --confirm 982-689
            """,
        options: [
            PasswordInput.passwordFile, PasswordInput.oldPasswordFile, PasswordInput.pack, fromPage, readProtect,
            noReadProtect, attemptLimit, tagHolds, lockConfig, LockFlow.confirm, PasswordCommand.json,
        ],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let given = try self.settings(values)
        let code = try LockFlow.code(values)
        let locks = values.flag(lockConfig.long)
        if code != nil && !locks { throw .usage("--confirm confirms --lock-config; give both or neither") }
        if values.value(PasswordInput.passwordFile.long) == "-", values.value(PasswordInput.oldPasswordFile.long) == "-"
        {
            throw .usage("only one of --password-file and --old-password-file can read standard input")
        }
        let holds = try self.tagHolds(values)
        let password = try await PasswordInput.password(.current, invocation, confirming: true)
        let givenOld = try PasswordInput.given(.old, invocation)
        let givenPack = try PasswordInput.acknowledge(values)
        let records = PasswordChangeRecords(io: invocation.io)
        let connection = try TagConnection(invocation, writes: true)
        return try await connection.run("setting the password") { tag in
            let before = try await PasswordCommand.passwordStatus(tag)
            let record = records.load(uid: tag.identifier)
            var opened: PasswordAttempts.Opened?
            if before.isProtected, !(await tag.isAuthenticated) {
                // The settings asked for, as far as they are known before the tag is open.
                let asked = Type2PasswordSettings(
                    password: password, passwordAcknowledge: givenPack ?? [0x00, 0x00],
                    firstProtectedPage: given.page ?? before.protectedPage,
                    protectsReading: given.readProtect ?? before.readProtected ?? false,
                    authenticationLimit: given.limit ?? before.authenticationLimit ?? 0)
                opened = try await PasswordAttempts.openForChange(
                    tag, status: before, wanted: asked, givenOld: givenOld, tagHolds: holds, record: record,
                    invocation: invocation)
            }
            // Open now: the settings as they are, for those the command line leaves out.
            let current = opened == nil ? before : try await PasswordCommand.passwordStatus(tag)
            let resolved = resolve(
                given, pack: givenPack, current: current, opened: opened, record: record, chip: tag.chip)
            let wanted = Type2PasswordSettings(
                password: password, passwordAcknowledge: resolved.pack, firstProtectedPage: resolved.page,
                protectsReading: resolved.readProtect, authenticationLimit: resolved.limit)
            if !resolved.keptFromTag.isEmpty {
                connection.console.note("Kept from the tag: " + resolved.keptFromTag.joined(separator: ", ") + ".")
            }
            if !resolved.keptFromRecord.isEmpty {
                connection.console.note(
                    "As the change that was cut meant them (its record on this machine): "
                        + resolved.keptFromRecord.joined(separator: ", ") + ".")
            }
            if resolved.limit > 0 {
                connection.console.warn(
                    "Warning: after \(resolved.limit) wrong password\(resolved.limit == 1 ? "" : "s") the password is "
                        + "disabled for good (PWD_AUTH answers NAK 4h forever) and the protected pages can never be "
                        + "written\(resolved.readProtect ? " or read" : "") again.")
            }
            var confirmation: NFCLockConfirmation?
            if locks {
                guard let chip = tag.chip else { throw NFCReaderError(.unsupportedFeature, "unidentified chip") }
                if current.isConfigurationLocked == true {
                    throw CommandLineError(.notPermitted, "the configuration is locked already (CFGLCK)")
                }
                let lock = try NFCLockConfirmation(
                    configurationLockOf: tag.identifier, chip: chip, firstProtectedPage: resolved.page,
                    protectsReading: resolved.readProtect, authenticationLimit: resolved.limit)
                let again = RepeatCommand.line(
                    invocation.arguments, dropping: ["--" + LockFlow.confirm.long], adding: ["--confirm", lock.code])
                try await ConfigurationLockFlow.confirm(lock, code: code, console: connection.console, again: again)
                confirmation = lock
            }
            // The record first: a rerun after a cut learns from it which password the tag holds.
            var change = try PasswordChangeRecord(
                uid: tag.identifier, from: opened?.password, to: password,
                settings: .init(
                    firstProtectedPage: resolved.page, protectsReading: resolved.readProtect,
                    authenticationLimit: resolved.limit,
                    pack: Hex.encode(resolved.pack, uppercase: true)))
            try await records.save(change, uid: tag.identifier)
            let uid = tag.identifier
            let checked = change
            do {
                try await tag.setPassword(wanted) { (_: NFCPasswordChangeProgress) throws(NFCReaderError) in
                    var now = checked
                    now.stage = .checked
                    do {
                        try await records.save(now, uid: uid)
                    } catch {
                        throw NFCReaderError(.tagUpdateFailure, "\(error)")
                    }
                }
            } catch let error as NFCReaderError where !error.mayBeHalfWritten {
                // Nothing was written: this change's record would tell a later run of a change
                // that never began. The record as it was comes back.
                await records.restore(record, uid: uid)
                throw error
            }
            change.stage = .done
            try await records.save(change, uid: tag.identifier)
            if let confirmation { try await tag.lockConfiguration(confirmation) }
            // setPassword and lockConfiguration read CFG0 and CFG1 back and compared them: the
            // report shows what they hold without another read, which a tag leaving now could not
            // turn into a failure of a change that is complete.
            let after = NFCPasswordStatus(
                mechanism: .password, protection: .from(page: resolved.page, readProtected: resolved.readProtect),
                authenticationLimit: resolved.limit, isConfigurationLocked: confirmation != nil, isAuthenticated: true)
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

    /// The settings a run sets, and where those the command line leaves out came from.
    struct ResolvedSettings {
        var page: Int
        var readProtect: Bool
        var limit: Int
        var pack: [UInt8]
        /// Those kept as the tag has them.
        var keptFromTag: [String] = []
        /// Those taken from the record of a change that was cut (the tag may hold them only in
        /// part: a cut change lifts AUTHLIM and AUTH0 for its time).
        var keptFromRecord: [String] = []
    }

    /// The settings a run sets: each as given; else as an unfinished change of this machine's
    /// record meant it (the tag may show the cut change's passing values: AUTHLIM 0, AUTH0 FFh);
    /// else as the tag has it (a change keeps what its command line leaves out); else the default
    /// of a first set.
    static func resolve(
        _ given: (page: Int?, readProtect: Bool?, limit: Int?), pack givenPack: [UInt8]?,
        current: NFCPasswordStatus, opened: PasswordAttempts.Opened?, record: PasswordChangeRecord?, chip: Type2Chip?
    ) -> ResolvedSettings {
        let firstUserPage = chip?.userPages.lowerBound ?? 4
        let unfinished = record.flatMap { $0.stage == .done ? nil : $0.settings }
        let onTag = current.isProtected
        var keptFromTag: [String] = []
        var keptFromRecord: [String] = []
        /// The value given, else the record's, else the tag's, else `fallback`; noted unless it
        /// is `quiet`.
        func pick<Value: Equatable>(
            _ given: Value?, record: Value?, tag: Value?, fallback: Value, quiet: Value, _ name: (Value) -> String
        ) -> Value {
            if let given { return given }
            if let record {
                if record != quiet { keptFromRecord.append(name(record)) }
                return record
            }
            if let tag {
                if tag != quiet { keptFromTag.append(name(tag)) }
                return tag
            }
            return fallback
        }
        let page = pick(
            given.page, record: unfinished?.firstProtectedPage, tag: current.protectedPage, fallback: firstUserPage,
            quiet: firstUserPage
        ) { "protected from page \($0)" }
        let readProtect = pick(
            given.readProtect, record: unfinished?.protectsReading, tag: onTag ? current.readProtected : nil,
            fallback: false, quiet: false
        ) { _ in "read protection (PROT)" }
        let limit = pick(
            given.limit, record: unfinished?.authenticationLimit, tag: onTag ? current.authenticationLimit : nil,
            fallback: 0, quiet: 0
        ) { "attempt limit \($0) (AUTHLIM)" }
        let recordPack = unfinished.flatMap { try? Hex.decode($0.pack) }.flatMap { $0.count == 2 ? $0 : nil }
        let tagPack = opened.flatMap { $0.acknowledge.count == 2 ? $0.acknowledge : nil }
        let pack = pick(givenPack, record: recordPack, tag: tagPack, fallback: [0x00, 0x00], quiet: [0x00, 0x00]) {
            _ in "PACK"
        }
        return ResolvedSettings(
            page: page, readProtect: readProtect, limit: limit, pack: pack, keptFromTag: keptFromTag,
            keptFromRecord: keptFromRecord)
    }

    /// `--tag-holds`, if given.
    static func tagHolds(_ values: ParsedValues) throws(CommandLineError) -> PasswordAttempts.TagHolds? {
        guard let text = values.value(tagHolds.long) else { return nil }
        guard let holds = PasswordAttempts.TagHolds(rawValue: text) else {
            throw .invalidValue(
                text, for: tagHolds, reason: "the tag holds the old password or the new one: old or new")
        }
        return holds
    }

    /// AUTH0, PROT and AUTHLIM as the options give them; nil where not given.
    static func settings(_ values: ParsedValues) throws(CommandLineError) -> (
        page: Int?, readProtect: Bool?, limit: Int?
    ) {
        var page: Int?
        if let text = values.value(fromPage.long) {
            guard let number = Int(text), (0...255).contains(number) else {
                throw .invalidValue(text, for: fromPage, reason: "AUTH0 is a page number, 0 to 255")
            }
            page = number
        }
        var limit: Int?
        if let text = values.value(attemptLimit.long) {
            guard let number = Int(text), (0...7).contains(number) else {
                throw .invalidValue(text, for: attemptLimit, reason: "AUTHLIM is 0 (unlimited) to 7")
            }
            limit = number
        }
        let on = values.flag(readProtect.long)
        let off = values.flag(noReadProtect.long)
        if on && off { throw .usage("--read-protect and --no-read-protect ask for opposite things: give one") }
        return (page, on ? true : off ? false : nil, limit)
    }
}
