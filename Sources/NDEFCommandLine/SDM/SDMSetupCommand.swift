import CommandLineKit
import NDEF
import NFCSession
import NTAG424

/// `ndeftool sdm setup`: a factory NTAG 424 DNA made into a tag whose every read gives a URL
/// with encrypted PICCData and an SDMMAC (NT4H2421Gx 9.3, 10.6.1, 10.7.1; AN12196 4-5), with
/// ``NFCSession/NFCNTAG424Tag/setUpSDM(_:confirmation:progress:)``.
enum SDMSetupCommand {
    static let url = OptionSpec.option(
        "url", value: "url",
        help: "The URL with {picc} where PICCData goes (32 characters) and {mac} where the SDMMAC goes (16).")
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

            Exit status: 0; 79 when not confirmed; 78 when the tag holds keys that are neither \
            the factory's nor the plan's; 80 when the set-up stopped part way (run it again); 75 \
            when the tag left before anything was changed; 76 when the tag is not an NTAG 424 \
            DNA; 64 for a URL without both placeholders.

            Examples:
              ndeftool sdm setup --reader 'sim:ntag424?file=t424.t4t' --dry-run \\
                  --url 'https://x.example/t?picc_data={picc}&cmac={mac}' --keys-file sdm-keys.json
            """,
        options: [
            url, keysFile, masterKeyFile, metaReadKey, fileReadKey, keyVersion, lockNDEF, LockFlow.confirm, dryRun,
            json,
        ],
        groups: [TagOptions.group],
        run: run
    )

    /// Where the keys come from.
    enum Keys {
        case file([[UInt8]])
        case master(NTAG424MasterKey)

        func keys(for uid: [UInt8]) throws(CommandLineError) -> [[UInt8]] {
            switch self {
            case .file(let keys): return keys
            case .master(let master):
                do {
                    return try master.keys(uid: uid)
                } catch {
                    throw CommandLineError(.tagError, "the tag's keys cannot be derived: \(error.reason)")
                }
            }
        }

        var source: String {
            if case .master = self { "derived from --master-key-file (AN10922)" } else { "from --keys-file" }
        }
    }

    /// The options, checked before a reader is opened.
    struct Request {
        var url: String
        var template: NTAG424SDMTemplate
        var keys: Keys
        var metaReadKey: Int
        var fileReadKey: Int
        var keyVersion: UInt8
        var locksNDEF: Bool
        /// The option the keys came from (`--keys-file` or `--master-key-file`) and its file.
        var keysOption = ""
        var keysPath = ""

        init(_ values: ParsedValues) throws(CommandLineError) {
            guard let text = values.value(SDMSetupCommand.url.long) else {
                throw .usage("--url is needed: the URL with {picc} and {mac}")
            }
            do {
                template = try NTAG424SDMTemplate(url: text)
                url = text
            } catch {
                throw .invalidValue(text, for: SDMSetupCommand.url, reason: error.reason)
            }
            metaReadKey = try Self.number(values, SDMSetupCommand.metaReadKey, in: 1...4)
            fileReadKey = try Self.number(values, SDMSetupCommand.fileReadKey, in: 1...4)
            keyVersion = UInt8(try Self.number(values, SDMSetupCommand.keyVersion, in: 1...255))
            locksNDEF = values.flag(lockNDEF.long)
            switch (values.value(keysFile.long), values.value(masterKeyFile.long)) {
            case (let path?, nil):
                keys = .file(try SDMKeysFile.read(path, option: keysFile))
                (keysOption, keysPath) = ("--" + keysFile.long, path)
            case (nil, let path?):
                let key = try SDMKeyFile.read(path, option: masterKeyFile)
                (keysOption, keysPath) = ("--" + masterKeyFile.long, path)
                do {
                    keys = .master(try NTAG424MasterKey(key, metaReadKey: metaReadKey, fileReadKey: fileReadKey))
                } catch {
                    throw .usage("--master-key-file: \(error.reason)")
                }
            case (.some, .some): throw .usage("give --keys-file or --master-key-file, not both")
            case (nil, nil): throw .usage("--keys-file or --master-key-file is needed: the keys the tag gets")
            }
        }

        static func number(_ values: ParsedValues, _ option: OptionSpec, in range: ClosedRange<Int>)
            throws(CommandLineError) -> Int
        {
            let text = values.value(option.long) ?? option.defaultValue ?? ""
            guard let number = Int(text), range.contains(number) else {
                throw .invalidValue(text, for: option, reason: "expected \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        func plan(for uid: [UInt8]) throws(CommandLineError) -> NTAG424SDMPlan {
            do {
                return try NTAG424SDMPlan(
                    template: template, keys: try keys.keys(for: uid), keyVersion: keyVersion,
                    metaReadKey: metaReadKey, fileReadKey: fileReadKey, locksNDEF: locksNDEF)
            } catch let error as NFCReaderError {
                throw .usage(error.reason)
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw CommandLineError(.internalError, "\(error)")
            }
        }
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let code = try LockFlow.code(values)
        let isDryRun = values.flag(dryRun.long)
        if code != nil && isDryRun { throw .usage("--dry-run changes nothing; leave out --confirm") }
        let request = try Request(values)
        let connection = try TagConnection(invocation, writes: !isDryRun)
        return try await connection.runOnTag("setting up SDM") { tag in
            guard let ntag = NFCNTAG424Tag.commands(of: tag) else {
                throw CommandLineError(
                    .tagError, "this is \(tag.chipName ?? "a tag") without ISO-DEP, not an NTAG 424 DNA")
            }
            let plan = try request.plan(for: ntag.identifier)
            let confirmation = try ntag.prepareSDMSetUp(plan)
            let again = RepeatCommand.line(
                invocation.arguments, dropping: ["--confirm", "--dry-run"], adding: ["--confirm", confirmation.code])
            let progress: NTAG424SDMProgress
            do {
                progress = try await ntag.sdmProgress(plan)
            } catch let error as NFCReaderError where error.code == .tagNotSupported {
                throw CommandLineError(.tagError, "this Type 4 tag is not an NTAG 424 DNA: \(error.reason)")
            }
            var report = SDMSetupReport(
                uid: ntag.identifier, url: request.url, plan: plan, keySource: request.keys.source,
                code: confirmation.code, progress: progress)
            report.isDryRun = isDryRun
            if !values.flag(json.long) { try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n") }
            if isDryRun {
                try invocation.io.writeOutput(
                    values.flag(json.long)
                        ? try MessageJSON.text(of: report) + "\n"
                        : "Nothing was changed (--dry-run). To set up this tag:\n  \(again)\n")
                return .success
            }
            let records = SDMSetupRecords(io: invocation.io)
            let keys = try request.keys.keys(for: ntag.identifier)
            if !progress.foreignKeys.isEmpty {
                throw foreignKeys(progress.foreignKeys, record: records.load(uid: ntag.identifier), keys: keys)
            }
            try await confirm(confirmation, code: code, console: connection.console, again: again)
            // The record first: a later run with another file is told which one finishes the tag.
            var record = SDMSetupRecords.started(
                uid: ntag.identifier, keys: keys, option: request.keysOption, path: request.keysPath)
            try await records.save(record, uid: ntag.identifier)
            do {
                report.steps = try await ntag.setUpSDM(plan, confirmation: confirmation, progress: report.progress)
            } catch let error as NFCReaderError {
                throw failure(error, again: again)
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

    /// The refusal of a tag whose keys `numbers` hold another set-up's keys, naming the file of
    /// this machine's record of that set-up when it is not this run's (`keys`).
    static func foreignKeys(_ numbers: [Int], record: SDMSetupRecord?, keys: [[UInt8]]) -> CommandLineError {
        var message =
            "key\(numbers.count == 1 ? "" : "s") \(numbers.map(String.init).joined(separator: ", ")) "
            + (numbers.count == 1 ? "holds" : "hold")
            + " another set-up's key (its version says changed, this plan's key does not open it): this plan cannot "
            + "finish that set-up, and nothing was written. "
        if let record, record.keyCheck != SDMSetupRecord.keyCheck(keys) {
            message +=
                "This machine last set the tag up with \(record.option) \(record.path) ("
                + (record.stage == .done ? "complete" : "cut part way") + ", \(record.time)): run the command with "
                + "that file to finish it"
        } else {
            message += "Finish it with the keys file or master key it was started with"
        }
        return CommandLineError(.authenticationFailed, message)
    }

    /// The failure of a confirmed set-up. Once confirmed, any step may have been taken before the
    /// error, so all but a refused key 0 (no rerun helps) and a refused confirmation end with
    /// ``ExitStatus/incompleteWrite`` and the command that finishes the set-up.
    static func failure(_ error: NFCReaderError, again: String) -> CommandLineError {
        switch error.code {
        case .authenticationFailed, .confirmationMismatch:
            return CommandLineError(
                TagFailure.status(for: error.code), "setting up SDM: \(error.reason) (\(error.code.rawValue))")
        default:
            return CommandLineError(
                .incompleteWrite,
                "setting up SDM: \(error.reason) (\(error.code.rawValue))\nThe set-up may have stopped part way; "
                    + "the tag's keys are the factory's or the plan's. To finish it, hold the "
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
