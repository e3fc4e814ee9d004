import CommandLineKit
import NDEF
import NFCSession
import NTAG424

/// `ndeftool sdm setup`: a factory NTAG 424 DNA made into a tag whose every read gives a URL
/// with encrypted PICCData and an SDMMAC (NT4H2421Gx 9.3, 10.6.1, 10.7.1; AN12196 4-5), with
/// ``NFCSession/NFCNTAG424Tag/setUpSDM(_:from:confirmation:progress:)``; a set-up tag moved to
/// new keys and a new URL (`--from-keys-file`), or returned to the factory (`--factory`).
enum SDMSetupCommand {
    static let url = OptionSpec.option(
        "url", value: "url",
        help: "The URL with {picc} where PICCData goes (32 characters) and {mac} where the SDMMAC goes (16); "
            + "optionally {enc} between them, where the encrypted --enc-data goes.")
    static let encData = OptionSpec.option(
        "enc-data", value: "text",
        help: "The data {enc} holds (1-64 bytes of text, padded with spaces to whole 16-byte blocks): the tag "
            + "encrypts it afresh on every read (SDMENCFileData), the SDMMAC covers it, 'sdm verify' decrypts it.")
    static let keysFile = OptionSpec.option(
        "keys-file", value: "file",
        help: "The keys the tag gets, as JSON ({\"k0\": \"32 hex\", ..., \"k4\": \"32 hex\"}).")
    static let masterKeyFile = OptionSpec.option(
        "master-key-file", value: "file",
        help: "A master key (32 hex characters or 16 raw bytes) from which the tag's own keys are derived "
            + "(AN10922, the tag's UID as input), in place of --keys-file.")
    static let metaReadKey = OptionSpec.option(
        "meta-read-key", value: "n", default: "1", help: "The key that encrypts PICCData (1-4).")
    static let fileReadKey = OptionSpec.option(
        "file-read-key", value: "n", default: "2", help: "The key that the SDMMAC is made with (1-4).")
    static let keyVersion = OptionSpec.option(
        "key-version", value: "n", default: "1",
        help: "The version every changed key gets (1-255): it marks the keys this set-up changed.")
    static let fromKeysFile = OptionSpec.option(
        "from-keys-file", value: "file",
        help: "The keys the tag holds now (an earlier set-up's), as JSON like --keys-file: the tag is moved from "
            + "them to the new keys, URL and settings.")
    static let fromMasterKeyFile = OptionSpec.option(
        "from-master-key-file", value: "file",
        help: "The master key the tag's present keys were derived from, in place of --from-keys-file.")
    static let fromMetaReadKey = OptionSpec.option(
        "from-meta-read-key", value: "n", default: "1",
        help: "With --from-master-key-file: the key number that holds the master's shared SDMMetaRead key (1-4).")
    static let factory = OptionSpec.flag(
        "factory",
        help: "Return the tag from the keys of --from-keys-file (or --from-master-key-file) to its factory keys "
            + "and NDEF file settings (SDM off), with an empty NDEF file.")
    static let lrp = OptionSpec.flag(
        "lrp",
        help: "Switch the tag to LRP secure messaging (NXP's Leakage Resilient Primitive, AN12304) for good, and "
            + "set SDM up in LRP: PICCData takes 48 characters. Irreversible: confirmed with the set-up code.")
    static let tagTamper = OptionSpec.flag(
        "tag-tamper",
        help: "On an NTAG 424 DNA TT: enable TagTamper (for good) and mirror its status (permanent and current: "
            + "C closed, O open) into the first two bytes of the encrypted file data ({enc}), where 'sdm verify "
            + "--tag-tamper' reads it.")
    static let lockNDEF = OptionSpec.flag(
        "lock-ndef",
        help: "Give the NDEF file's write access to key 0 only: the URL can no longer be changed "
            + "without it.")
    static let dryRun = OptionSpec.flag("dry-run", help: "Print the plan and the set-up code; change nothing.")
    static let json = OptionSpec.flag("json", help: "Print the tag, the plan, the code and the steps as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "setup",
        abstract: "Set up secure unique messages on an NTAG 424 DNA: URL, SDM settings and new keys.",
        discussion: """
            On a factory NTAG 424 DNA: writes the URL with 0s for its placeholders, sets SDM \
            on the NDEF file (PICCData and SDMMAC offsets from the placeholders, UID and read \
            counter mirrored; ChangeFileSettings), changes keys 1-4 and then key 0 from the \
            factory keys to those of --keys-file (or derived from --master-key-file) with \
            --key-version, and checks that the URL the tag then gives verifies with them. \
            Keys are read from files only, never from the command line, and are never shown.

            With {enc} in the URL (between {picc} and {mac}) and --enc-data TEXT, the tag \
            also encrypts TEXT (padded with spaces to whole 16-byte blocks) afresh on every \
            read and mirrors it there, twice as many hex characters as bytes (SDMENCFileData); \
            the SDMMAC's input then runs from the data to the MAC, so it covers the data.

            With --lrp the tag is switched to LRP secure messaging (SetConfiguration, NXP \
            AN12304) before SDM is set: for good, as key 0's session in AES is the last one \
            it takes. Its URLs then carry 48 characters of PICCData, which 'sdm verify' \
            tells apart by their length. A tag in LRP is set up, moved and reset with --lrp \
            only (a reset keeps LRP).

            On an NTAG 424 DNA TT, --tag-tamper enables TagTamper (SetConfiguration, for \
            good) and mirrors the tamper loop's status into the first two bytes of the \
            encrypted file data: 'sdm verify --tag-tamper' shows CC (not tampered), OC \
            (opened, closed now) or OO (open).

            Whoever lacks the new key 0 can never change the tag again, so the set-up needs a \
            confirmation as 'ndeftool lock' does: a 6-digit code that stands for this tag and \
            this plan (URL, settings, keys). --dry-run shows the plan and the code; --confirm \
            CODE sets up without asking; a person at a terminal is asked to type it.

            Every step is checked. A set-up cut short (the tag left) is found out from the key \
            versions, the file settings and the message, each changed key proven by \
            authenticating with the plan's key, and the same command finishes it (with another \
            --key-version too). A tag holding keys of another keys file or master key is \
            refused before anything is sent: it never ends with keys of two files. Running it \
            on a tag set up already changes nothing.

            A tag set up already is moved to new keys, a new URL and new SDM settings with \
            --from-keys-file (or --from-master-key-file) naming the keys it holds now: the \
            message and settings first, then keys 1-4 and key 0, each changed from the old key \
            (key rotation). Every key is old or new after any cut, the same command finishes \
            it, proving each key by authenticating with the old and the new one. --factory \
            with --from-keys-file returns the tag to its factory keys (version 0) and settings \
            with an empty NDEF file, so that any tool can set it up again; it is confirmed with \
            its own code. Keys neither old nor new (another keys file) are refused before \
            anything is sent.

            Exit status: 0; 79 when not confirmed; 78 when the tag holds keys that are neither \
            those it starts from (the factory's, or --from-keys-file's) nor the plan's; 80 \
            when the set-up stopped part way (run it again); 75 when the tag left before \
            anything was changed; 76 when the tag is not an NTAG 424 DNA (or speaks LRP, and \
            --lrp is not given); 64 for a URL without \
            both placeholders, or options that do not go together.

            Examples:
              ndeftool sdm setup --reader 'sim:ntag424?file=t424.t4t' --dry-run \\
                  --url 'https://x.example/t?picc_data={picc}&cmac={mac}' --keys-file sdm-keys.json
              ndeftool sdm setup --reader 'sim:ntag424?file=t424.t4t' --dry-run \\
                  --url 'https://y.example/v2?p={picc}&m={mac}' \\
                  --from-keys-file sdm-keys.json --keys-file new-keys.json --key-version 2
              ndeftool sdm setup --reader 'sim:ntag424?file=t424.t4t' --dry-run --keys-file sdm-keys.json \\
                  --url 'https://x.example/t?picc_data={picc}&enc={enc}&cmac={mac}' --enc-data 'lot 2026-12'
              ndeftool sdm setup --reader 'sim:ntag424?file=t424.t4t' --dry-run --factory \\
                  --from-keys-file new-keys.json
            """,
        options: [
            url, encData, lrp, tagTamper, keysFile, masterKeyFile, metaReadKey, fileReadKey, keyVersion, lockNDEF,
            fromKeysFile,
            fromMasterKeyFile, fromMetaReadKey, factory, LockFlow.confirm, dryRun, json,
        ],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let code = try LockFlow.code(values)
        let isDryRun = values.flag(dryRun.long)
        if code != nil && isDryRun { throw .usage("--dry-run changes nothing; leave out --confirm") }
        let request = try Request(values)
        let connection = try TagConnection(invocation, writes: !isDryRun)
        return try await connection.runOnTag(request.isFactoryReset ? "resetting the NTAG 424 DNA" : "setting up SDM") {
            tag in
            guard let ntag = NFCNTAG424Tag.commands(of: tag) else {
                throw CommandLineError(
                    .tagError, "this is \(tag.chipName ?? "a tag") without ISO-DEP, not an NTAG 424 DNA")
            }
            if request.isFactoryReset {
                return try await SDMFactoryReset(
                    invocation: invocation, request: request, connection: connection, code: code
                ).run(on: ntag)
            }
            let plan = try request.plan(for: ntag.identifier)
            let from = try request.from.keySet(for: ntag.identifier)
            let confirmation = try ntag.prepareSDMSetUp(plan, from: from)
            let again = RepeatCommand.line(
                invocation.arguments, dropping: ["--confirm", "--dry-run"], adding: ["--confirm", confirmation.code])
            let progress: NTAG424SDMProgress
            do {
                progress = try await ntag.sdmProgress(plan, from: from)
            } catch let error as NFCReaderError where error.code == .tagNotSupported {
                throw CommandLineError(.tagError, "this Type 4 tag is not an NTAG 424 DNA: \(error.reason)")
            }
            var report = SDMSetupReport(
                uid: ntag.identifier, url: request.url ?? "", plan: plan, keySource: request.keys.description,
                code: confirmation.code, progress: progress)
            if !request.from.isFactory { report.fromKeySource = request.from.description }
            report.isDryRun = isDryRun
            if !values.flag(json.long) { try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n") }
            if isDryRun {
                try invocation.io.writeOutput(
                    values.flag(json.long)
                        ? try MessageJSON.text(of: report) + "\n"
                        : "Nothing was changed (--dry-run). To set up this tag:\n  \(again)\n")
                return .success
            }
            if plan.template.tagTamperOffset != nil && !progress.hasTagTamper {
                throw CommandLineError(
                    .tagError, "--tag-tamper: the tag has no TagTamper (an NTAG 424 DNA, not a TT). Nothing was sent.")
            }
            if progress.tagMode == .lrp && plan.template.mode == .aes {
                throw CommandLineError(
                    .tagError,
                    "the tag speaks LRP (for good): a plan in AES does not fit it (its PICCData is 48 characters, "
                        + "not 32). Run the command with --lrp. Nothing was sent.")
            }
            let records = SDMSetupRecords(io: invocation.io)
            let keys = plan.keys
            if !progress.foreignKeys.isEmpty {
                throw foreignKeys(
                    progress.foreignKeys, record: records.load(uid: ntag.identifier), keys: keys,
                    from: from.isFactory ? nil : from.keys)
            }
            try await confirm(confirmation, code: code, console: connection.console, again: again)
            // The record first: a later run with other files is told which ones finish the tag.
            var record = SDMSetupRecords.started(
                uid: ntag.identifier, keys: keys, option: request.keys.option, path: request.keys.path,
                from: from.isFactory ? nil : (from.keys, request.from.option, request.from.path))
            try await records.save(record, uid: ntag.identifier)
            do {
                report.steps = try await ntag.setUpSDM(
                    plan, from: from, confirmation: confirmation, progress: report.progress)
            } catch let error as NFCReaderError {
                throw failure(error, again: again, moving: !from.isFactory)
            }
            record.stage = .done
            try? await records.save(record, uid: ntag.identifier)
            report.isComplete = true
            if values.flag(json.long) {
                try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
            } else {
                try invocation.io.writeOutput(report.resultLines.joined(separator: "\n") + "\n")
            }
            return .success
        }
    }

    /// The refusal of a tag whose keys `numbers` are neither `keys` (the plan's) nor those the
    /// change starts from (`from`; nil: the factory's), naming this machine's record of the
    /// change that left them when it is not this run's.
    static func foreignKeys(
        _ numbers: [Int], record: SDMSetupRecord?, keys: [[UInt8]], from: [[UInt8]]?
    ) -> CommandLineError {
        let list = numbers.map(String.init).joined(separator: ", ")
        var message = "key\(numbers.count == 1 ? "" : "s") \(list) " + (numbers.count == 1 ? "holds" : "hold")
        message +=
            from == nil
            ? " another set-up's key (its version says changed, this plan's key does not open it): this plan cannot "
                + "finish that set-up, and nothing was written. "
            : " a key that is neither the one the move starts from nor the new one (both were refused): nothing "
                + "was written. "
        if let record, !record.isOf(keys: keys, from: from) {
            let state = (record.stage == .done ? "complete" : "cut part way") + ", \(record.time)"
            if record.fromOption != nil || record.option.isEmpty {
                message +=
                    "This machine last changed the tag's keys with \(record.options) (\(state)): run the command "
                    + "with those files to finish it, or give the keys it holds now with --from-keys-file"
            } else {
                message +=
                    "This machine last set the tag up with \(record.option) \(record.path) (\(state)): run the "
                    + "command with that file to finish it"
                if from == nil, record.stage == .done {
                    message += ", or move the tag from it with --from-keys-file"
                }
            }
        } else {
            message += "Finish it with the keys file or master key it was started with"
        }
        return CommandLineError(.authenticationFailed, message)
    }

    /// The failure of a confirmed set-up. Once confirmed, any step may have been taken before the
    /// error, so all but a refused key 0 (no rerun helps) and a refused confirmation end with
    /// ``ExitStatus/incompleteWrite`` and the command that finishes the set-up.
    static func failure(_ error: NFCReaderError, again: String, moving: Bool = false) -> CommandLineError {
        switch error.code {
        case .authenticationFailed, .confirmationMismatch:
            return CommandLineError(
                TagFailure.status(for: error.code), "setting up SDM: \(error.reason) (\(error.code.rawValue))")
        case .tagNotSupported:
            // A tag in LRP met by a plan in AES (its keys untouched; the message may be this plan's).
            return CommandLineError(
                .tagError,
                "setting up SDM: \(error.reason) (\(error.code.rawValue)). No key was changed: run the command with "
                    + "--lrp.")
        default:
            return CommandLineError(
                .incompleteWrite,
                "setting up SDM: \(error.reason) (\(error.code.rawValue))\nThe set-up may have stopped part way; "
                    + "the tag's keys are " + (moving ? "the old ones or the new ones" : "the factory's or the plan's")
                    + ". To finish it, hold the "
                    + "tag to the reader again and run:\n  \(again)")
        }
    }

    /// Returns when `confirmation` is confirmed: `code` is its code, or a person at a terminal
    /// typed it back; else ``ExitStatus/confirmationMismatch``, before any change.
    static func confirm(
        _ confirmation: NFCLockConfirmation, code: String?, console: TagConsole, again: String
    ) async throws(CommandLineError) {
        try await ConfirmationPrompt(
            refusal: "set-up refused", standsFor: "this tag and this plan (URL, settings, keys)",
            nothingDone: "nothing was changed", whyAsked: "changing the keys needs a confirmation",
            warning: "The keys change: whoever lacks the new key 0 can never change this tag again.",
            action: "set up tag", rerun: "set up this tag with this plan"
        ).confirm(confirmation, code: code, console: console, again: again)
    }
}
