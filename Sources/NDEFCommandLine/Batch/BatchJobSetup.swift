import CommandLineKit
import NFCSession
import NTAG424
import Provisioning
import SystemSupport
import TagMemory

/// Everything a batch run is made of, from the command line or, with `--resume`, from the
/// journal's header: the plan, the record template, what is done to each tag, and the files.
struct BatchJobSetup {
    /// The plan.
    let plan: ProvisioningPlan
    /// The message template.
    let template: BatchRecordTemplate
    /// The job's identity, the journal's first line.
    let header: JournalHeader
    /// What is done to each tag, and how long readers wait.
    let settings: ProvisioningJobSettings
    /// The journal.
    let journalPath: String
    /// Whether the journal is continued (`--resume`) rather than created.
    let resumes: Bool
    /// The name of the job in a database (`--job`), for a job kept there instead of a journal.
    var databaseJob: String?

    /// The prefix of `counter:` plan sources.
    static let counterSource = "counter:"

    /// The setup `invocation` describes; with `database`, for a job kept in a database (no journal).
    ///
    /// - Throws: usage errors for missing or contradicting options; ``ExitStatus/noInput`` for a
    ///   plan or journal that cannot be read; ``ExitStatus/dataError`` for a malformed plan or
    ///   journal, or a journal of another job.
    static func make(_ invocation: CommandInvocation, database: Bool = false) throws(CommandLineError) -> BatchJobSetup
    {
        let values = invocation.values
        let resumePath = database ? nil : values.value(BatchCommand.resume.long)
        var recorded: JournalHeader?
        if let resumePath {
            guard FileAccess.exists(resumePath) else {
                throw CommandLineError(.noInput, "the journal \(InputReader.name(of: resumePath)) does not exist")
            }
            try checkJournalIsAFile(resumePath)
            do {
                recorded = try ProvisioningJournal.recover(resumePath).header
            } catch {
                if error.code == .notAJournal { throw notAJournal(resumePath) }
                if error.code == .missingJournalHeader {
                    throw CommandLineError(
                        .dataError,
                        "the journal \(InputReader.name(of: resumePath)) has no complete header: the run that "
                            + "created it stopped before writing it, and nothing was written to a tag. Start the "
                            + "job again with its first command (it replaces this journal)")
                }
                throw CommandLineError(.dataError, "the journal \(InputReader.name(of: resumePath)): \(error)")
            }
        }
        let (plan, source) = try loadPlan(values, recorded: recorded)
        let template = try makeTemplate(values, plan: plan, recorded: recorded)
        let settings = try makeSettings(invocation, recorded: recorded)
        try checkSecureMessages(template, plan: plan, settings: settings)
        var header = JournalHeader(
            plan: plan, template: template.template, options: settings.journalOptions, planSource: source)
        let secretCheck = ProvisioningPasswordPlan.secretCheckOption
        if let recorded, recorded.options[secretCheck] == nil {
            // A journal of an older ndeftool, which did not record the secret's check value.
            header.options[secretCheck] = nil
        }
        if let recorded, !recorded.isSameJob(as: header) {
            var withRecordedSecret = header
            withRecordedSecret.options[secretCheck] = recorded.options[secretCheck]
            if recorded.isSameJob(as: withRecordedSecret) {
                throw CommandLineError(
                    .dataError,
                    "the master secret given is not the one this job started with (the journal's check value of it "
                        + "differs): the tags done so far have passwords derived from that one. Nothing was touched. "
                        + "Give the job's own secret with --master-secret-file FILE or $\(MasterSecretInput.variable)")
            }
            let keyCheck = ProvisioningSDMPlan.keyCheckOption
            var withRecordedKey = header
            withRecordedKey.options[keyCheck] = recorded.options[keyCheck]
            if recorded.options[keyCheck] != nil, recorded.isSameJob(as: withRecordedKey) {
                throw CommandLineError(
                    .dataError,
                    "the master key given is not the one this job started with (the journal's check value of it, "
                        + "\(recorded.options[keyCheck] ?? ""), differs): the tags set up so far have keys derived "
                        + "from that one. Nothing was touched. Give the job's own key with "
                        + "--\(BatchCommand.sdmMasterKeyFile.long) FILE")
            }
            let fromCheck = ProvisioningSDMPlan.fromKeyCheckOption
            var withRecordedFromKey = header
            withRecordedFromKey.options[fromCheck] = recorded.options[fromCheck]
            if recorded.options[fromCheck] != nil, recorded.isSameJob(as: withRecordedFromKey) {
                throw CommandLineError(
                    .dataError,
                    "the master key given with --\(BatchCommand.sdmFromMasterKeyFile.long) is not the one this job "
                        + "started with (the journal's check value of it, \(recorded.options[fromCheck] ?? ""), "
                        + "differs): the job moves tags from that key's keys. Nothing was touched. Give the job's "
                        + "own key with --\(BatchCommand.sdmFromMasterKeyFile.long) FILE")
            }
            let planFromJournal = values.value(BatchCommand.plan.long) == nil && !values.isGiven(BatchCommand.from.long)
            throw CommandLineError(.dataError, mismatch(recorded, header, planFromJournal: planFromJournal))
        }
        let journalPath: String
        if database {
            // The job is kept in the database: no journal.
            journalPath = ""
        } else if let resumePath {
            journalPath = resumePath
        } else {
            journalPath =
                values.value(BatchCommand.journal.long)
                ?? defaultJournal(values.value(BatchCommand.plan.long) ?? source)
            try checkJournalIsAFile(journalPath)
            let problem = FileAccess.exists(journalPath) ? replayProblem(journalPath) : nil
            if problem == .notAJournal { throw notAJournal(journalPath) }
            if FileAccess.exists(journalPath), !values.flag(BatchCommand.dryRun.long), problem != .missingJournalHeader
            {
                throw .usage(
                    "The journal \(InputReader.name(of: journalPath)) exists: continue that job with --resume "
                        + "\(ShellQuoting.word(journalPath)), or name another with --journal")
            }
        }
        return BatchJobSetup(
            plan: plan, template: template, header: header, settings: settings, journalPath: journalPath,
            resumes: resumePath != nil)
    }

    /// A template with `{picc}` and `{mac}` only in a job with a master key, and then each row's
    /// URL one that makes an NTAG 424 DNA file (both placeholders once, `{picc}` first, 256 bytes).
    static func checkSecureMessages(
        _ template: BatchRecordTemplate, plan: ProvisioningPlan, settings: ProvisioningJobSettings
    ) throws(CommandLineError) {
        let has = template.template.hasSecureMessage
        if has && settings.sdm == nil {
            throw .usage(
                "the template holds {picc} or {mac}, NTAG 424 DNA secure messages: give the master key the tags' "
                    + "keys come from with --sdm-master-key-file FILE")
        }
        if !has && settings.sdm != nil {
            throw .usage(
                "--sdm-master-key-file sets up NTAG 424 DNA secure messages: the template is one URI with {picc} and "
                    + "{mac}, as uri 'https://x.example/t?picc_data={picc}&cmac={mac}'")
        }
        guard has, let numbers = plan.rowNumbers else { return }
        for number in numbers {
            guard let row = plan.row(number) else { continue }
            do {
                let url = try template.template.secureMessageURL(for: row, uid: MessageTemplate.sampleUID)
                _ = try NTAG424SDMTemplate(url: url, fileData: try template.template.secureMessageFileData(for: row))
            } catch let error as ProvisioningError {
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(error.reason)")
            } catch let error as NTAG424Error {
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(error.reason)")
            } catch {
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(error)")
            }
        }
    }

    /// Refuses a journal path naming a FIFO, a device, a socket or a folder (65) before anything
    /// opens it: a FIFO would block the run in `open(2)`.
    static func checkJournalIsAFile(_ path: String) throws(CommandLineError) {
        guard let kind = RegularFile.kind(at: path) else { return }
        throw CommandLineError(
            .dataError,
            "the journal \(InputReader.name(of: path)): it is \(kind), not a regular file. It was left as it is and "
                + "no tag was touched: name a file with --journal")
    }

    /// The refusal of a file named as the journal that is no journal (it does not begin with a
    /// journal header): it is never replaced nor appended to.
    static func notAJournal(_ path: String) -> CommandLineError {
        CommandLineError(
            .dataError,
            "\(InputReader.name(of: path)) is not a batch journal (it does not begin with a journal header): it "
                + "was left as it is and no tag was touched. Name a new file with --journal, or the job's journal "
                + "with --resume")
    }

    /// Why the journal at `path` cannot be replayed (nil when it can): `notAJournal` for a file
    /// that does not begin as a journal does; `missingJournalHeader` for one without a complete
    /// header line, left by a run killed before its first line was written, before any tag was
    /// touched (``Provisioning/ProvisioningJournal/open(at:header:)`` replaces such a journal).
    static func replayProblem(_ path: String) -> ProvisioningError.Code? {
        do {
            _ = try ProvisioningJournal.recover(path)
            return nil
        } catch {
            return error.code
        }
    }

    /// The plan of `--plan FILE`, `--from N --to M` or the journal, and its source for the header.
    private static func loadPlan(
        _ values: ParsedValues, recorded: JournalHeader?
    ) throws(CommandLineError) -> (ProvisioningPlan, String) {
        let path = values.value(BatchCommand.plan.long)
        let from = try values.integerValue(BatchCommand.from.long, in: 0...Int(Int32.max))
        let to = try values.integerValue(BatchCommand.to.long, in: 0...Int(Int32.max))
        let width = try values.integerValue(BatchCommand.width.long, in: 0...18) ?? 0
        if path != nil && (from != nil || to != nil) {
            throw .usage("Give the plan either as --plan FILE or as --from N --to M, not both")
        }
        if let from, let to {
            let text = "\(from)...\(to)/\(width)"
            do {
                return (try ProvisioningPlan.counter(from: from, to: to, width: width), counterSource + text)
            } catch {
                throw .usage("--from \(from) --to \(to): \(error.reason)")
            }
        }
        if from != nil || to != nil { throw .usage("A counter plan needs both --from N and --to M") }
        if let path { return (try readPlan(path), absolute(path)) }
        guard let source = recorded?.planSource else {
            throw .missingArgument(
                "--plan <file> | --from <n> --to <m>",
                help: "The plan: a CSV or JSON Lines file with one row per tag, or a counter range.")
        }
        if source.hasPrefix(counterSource) {
            do {
                return (try ProvisioningPlan.counter(parsing: String(source.dropFirst(counterSource.count))), source)
            } catch {
                throw CommandLineError(.dataError, "The journal's plan \(source): \(error.reason)")
            }
        }
        return (try readPlan(source), source)
    }

    /// The plan in the file at `path`: JSON Lines when its name ends in .jsonl, .ndjson or
    /// .json or its first character is `{`, else CSV.
    static func readPlan(_ path: String) throws(CommandLineError) -> ProvisioningPlan {
        let bytes = try FileAccess.readFile(path: path, limit: ProvisioningPlan.maximumFileBytes)
        let lower = path.lowercased()
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let isJSON =
            lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".json")
            || (!lower.hasSuffix(".csv") && first == UInt8(ascii: "{"))
        do {
            return isJSON ? try ProvisioningPlan.jsonLines(bytes) : try ProvisioningPlan.csv(bytes)
        } catch {
            throw CommandLineError(.dataError, "The plan \(InputReader.name(of: path)): \(error)")
        }
    }

    /// The template of the record arguments, or the journal's.
    private static func makeTemplate(
        _ values: ParsedValues, plan: ProvisioningPlan, recorded: JournalHeader?
    ) throws(CommandLineError) -> BatchRecordTemplate {
        let tokens = values.sequence("record")
        guard !tokens.isEmpty else {
            guard let recorded else {
                throw .missingArgument(
                    "<record> ...",
                    help: "<record>  The message of each tag, as for 'ndeftool write', with {field}, {uid}, {row}.")
            }
            return try BatchRecordTemplate(text: recorded.template, fields: plan.fields)
        }
        var words: [String] = []
        for token in tokens {
            switch token {
            case .word(let word): words.append(word)
            case .option(let long, let value): words += ["--" + long] + (value.map { [$0] } ?? [])
            }
        }
        return try BatchRecordTemplate(words: words, fields: plan.fields)
    }

    /// What is done to each tag: the options given, or the journal's when resuming.
    static func makeSettings(
        _ invocation: CommandInvocation, recorded: JournalHeader?
    ) throws(CommandLineError) -> ProvisioningJobSettings {
        let values = invocation.values
        let options = recorded?.options ?? [:]
        let locks = values.flag(BatchCommand.lock.long) || options["lock"] == "yes"
        var settings = ProvisioningJobSettings(locks: locks)
        if values.flag(BatchCommand.derivePasswords.long) || options["password"] == "derived" {
            // On a resume the journal's values count, unless given again (then they must agree):
            // an option's default is not a value given.
            let page =
                recorded == nil || values.isGiven(BatchCommand.fromPage.long)
                ? try values.integerValue(BatchCommand.fromPage.long, in: 0...255)
                : options["password-from-page"].flatMap { Int($0) }
            let limit =
                recorded == nil || values.isGiven(BatchCommand.attemptLimit.long)
                ? try values.integerValue(BatchCommand.attemptLimit.long, in: 0...7) ?? 0
                : options["password-attempt-limit"].flatMap { Int($0) } ?? 0
            settings.password = ProvisioningPasswordPlan(
                derivation: try MasterSecretInput.derivation(invocation), firstProtectedPage: page,
                protectsReading: values.flag(PasswordSetCommand.readProtect.long)
                    || options["password-read-protect"] == "yes",
                authenticationLimit: limit)
        } else if values.isGiven(MasterSecretInput.file.long) {
            throw .usage("--master-secret-file goes with --derive-passwords")
        }
        settings.sdm = try makeSDMPlan(values, options: options)
        settings.classicKeys = try makeClassicKeys(values, options: options)
        if settings.sdm != nil {
            if settings.locks {
                throw .usage(
                    "--lock makes a tag read-only for good, which an NTAG 424 DNA does through its access rights: "
                        + "with --sdm-master-key-file give --sdm-lock-ndef")
            }
            if settings.password != nil {
                throw .usage("--derive-passwords sets NTAG21x passwords, not NTAG 424 DNA keys")
            }
        }
        // A job that refuses tags that are not genuine keeps doing so on every resume and join,
        // with the keys it started with (the journal holds only their check value).
        let recordedGenuine = options[ProvisioningJobSettings.requireGenuineOption] == "yes"
        if values.flag(SignatureKeyOptions.requireGenuine.long) || recordedGenuine {
            let keys = try SignatureKeyOptions.keys(values)
            if recordedGenuine {
                let recordedCheck = options[ProvisioningJobSettings.signatureKeysOption]
                let givenCheck = ProvisioningJobSettings.keysCheck(keys)
                if recordedCheck != givenCheck {
                    throw CommandLineError(
                        .dataError,
                        recordedCheck == nil
                            ? "this job accepts only signatures of NXP's keys: leave --signature-key out (nothing "
                                + "was touched)"
                            : "this job refuses tags whose originality signature its own keys (--signature-key, "
                                + "check value \(recordedCheck ?? "")) do not verify: give the same key files again "
                                + "(nothing was touched)")
                }
            }
            settings.genuineKeys = keys
        } else if values.isGiven(SignatureKeyOptions.signatureKey.long) {
            throw .usage("--signature-key goes with --require-genuine")
        }
        if let text = values.value(BatchCommand.wait.long) {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw .invalidValue(text, for: BatchCommand.wait, reason: "expected seconds from 0.1 to 86400")
            }
            settings.tagWait = .milliseconds(Int((seconds * 1000).rounded()))
        }
        return settings
    }

    /// The MIFARE Classic keys of `--keys-file`, which must name the key B a format installs; on
    /// a resume or join, the journal's job's own (the journal holds only the key B's check value:
    /// a key B other than the one the job's cards got would leave a card cut part way with two).
    static func makeClassicKeys(
        _ values: ParsedValues, options: [String: String]
    ) throws(CommandLineError) -> MifareClassicKeyring? {
        let recordedCheck = options[ProvisioningJobSettings.classicKeysOption]
        guard let keys = try ClassicKeysFile.keyring(values) else {
            if recordedCheck != nil {
                throw .usage(
                    "this job formats MIFARE Classic cards with the key B of a keys file: give it again with "
                        + "--\(ClassicKeysFile.option.long) FILE (the journal holds only the key B's check value)")
            }
            return nil
        }
        guard let keyB = keys.keyBToInstall else {
            throw .usage(
                "a batch job formats MIFARE Classic cards that are not NDEF formatted yet and locks with key B: the "
                    + "keys file must name the key B ('key-b KEY' line, or \"keyB\" in JSON)")
        }
        if let recordedCheck, recordedCheck != ProvisioningJobSettings.classicKeysCheck(keyB) {
            throw CommandLineError(
                .dataError,
                "the keys file's key B is not the one this job started with (the journal's check value of it, "
                    + "\(recordedCheck), differs): the cards formatted so far have that one. Nothing was touched. "
                    + "Give the job's own keys file with --\(ClassicKeysFile.option.long) FILE")
        }
        return keys
    }

    /// The NTAG 424 DNA set-up of `--sdm-master-key-file` (and `--sdm-lock-ndef`), or the
    /// journal's (whose master key must be given again: the journal holds only its check value).
    static func makeSDMPlan(
        _ values: ParsedValues, options: [String: String]
    ) throws(CommandLineError) -> ProvisioningSDMPlan? {
        let option = BatchCommand.sdmMasterKeyFile
        guard let path = values.value(option.long) else {
            if options["sdm"] == "master-key" {
                throw .usage(
                    "this job sets up NTAG 424 DNA secure messages with keys derived from a master key: give it "
                        + "again with --\(option.long) FILE (the journal holds only its check value)")
            }
            if values.flag(BatchCommand.sdmLockNDEF.long) { throw .usage("--sdm-lock-ndef goes with --\(option.long)") }
            if values.isGiven(BatchCommand.sdmFromMasterKeyFile.long) {
                throw .usage("--\(BatchCommand.sdmFromMasterKeyFile.long) goes with --\(option.long)")
            }
            return nil
        }
        let fromOption = BatchCommand.sdmFromMasterKeyFile
        let fromKey = try values.value(fromOption.long).map { path throws(CommandLineError) in
            try SDMKeyFile.read(path, option: fromOption)
        }
        if fromKey == nil, options[ProvisioningSDMPlan.fromKeyCheckOption] != nil {
            throw .usage(
                "this job moves NTAG 424 DNA tags from the keys of another master key: give that key again with "
                    + "--\(fromOption.long) FILE (the journal holds only its check value)")
        }
        let key = try SDMKeyFile.read(path, option: option)
        let metaRead = options["sdm-meta-read-key"].flatMap { Int($0) } ?? 1
        let fileRead = options["sdm-file-read-key"].flatMap { Int($0) } ?? 2
        let version = options["sdm-key-version"].flatMap { UInt8($0) } ?? 1
        let locksNDEF = values.flag(BatchCommand.sdmLockNDEF.long) || options["sdm-lock-ndef"] == "yes"
        do {
            // The tags were set up by a job of this tool or 'sdm setup --master-key-file' with the
            // default key numbers: the shared SDMMetaRead key is key 1.
            let from = try fromKey.map { key throws(NTAG424Error) in try NTAG424MasterKey(key) }
            return try ProvisioningSDMPlan(
                masterKey: try NTAG424MasterKey(key, metaReadKey: metaRead, fileReadKey: fileRead),
                keyVersion: version, locksNDEF: locksNDEF, from: from)
        } catch let error as ProvisioningError {
            throw CommandLineError(.dataError, "--\(option.long): \(error.reason)")
        } catch {
            throw CommandLineError(.dataError, "--\(option.long): \(error)")
        }
    }

    /// Why the journal's job is not the one the command line describes; `planFromJournal` when
    /// the plan was read from the file the journal names (its content changed since).
    private static func mismatch(_ recorded: JournalHeader, _ given: JournalHeader, planFromJournal: Bool) -> String {
        let planDiffers = recorded.planDigest != given.planDigest || recorded.planRowCount != given.planRowCount
        if planDiffers, planFromJournal, let source = recorded.planSource {
            return "the plan \(InputReader.name(of: source)) changed since the job started (its content is not "
                + "the one the journal records, \(recorded.planRowCount) rows): the rows done would no longer match "
                + "their tags. Put the plan back as it was to resume, or start a new job with another --journal"
        }
        var differences: [String] = []
        if planDiffers {
            differences.append("the plan's content differs (\(recorded.planRowCount) rows recorded)")
        }
        if recorded.template != given.template {
            differences.append("the template differs (recorded: \(recorded.template))")
        }
        for key in Set(recorded.options.keys).union(given.options.keys).sorted()
        where recorded.options[key] != given.options[key] {
            differences.append("\(key) is \(recorded.options[key] ?? "unset"), not \(given.options[key] ?? "unset")")
        }
        // What a resume needs besides the journal: the secret and the key files it does not keep.
        var needs: [String] = []
        if recorded.options["password"] == "derived" { needs.append("the job's master secret") }
        if recorded.options["lock"] == "yes" { needs.append("the job's --confirm code") }
        if recorded.options["sdm"] == "master-key" { needs.append("its --sdm-master-key-file") }
        if recorded.options[ProvisioningSDMPlan.fromKeyCheckOption] != nil {
            needs.append("its --\(BatchCommand.sdmFromMasterKeyFile.long)")
        }
        if recorded.options[ProvisioningJobSettings.signatureKeysOption] != nil {
            needs.append("its --signature-key files")
        }
        return "the journal records another job: " + differences.joined(separator: "; ")
            + ". Resume with the journal and no other job options (ndeftool batch --resume JOURNAL"
            + (needs.isEmpty ? "" : ", with " + needs.joined(separator: ", ")) + "), or start a new journal"
    }

    /// `tags.csv` → `tags.journal`; a counter range → `batch-FROM-TO.journal`.
    static func defaultJournal(_ source: String) -> String {
        if source.hasPrefix(counterSource) {
            let range = source.dropFirst(counterSource.count).split(separator: "/").first ?? ""
            return "batch-" + range.replacing("...", with: "-") + ".journal"
        }
        let name = source.split(separator: "/").last.map(String.init) ?? source
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        let directory = source.contains("/") ? String(source[..<(source.lastIndex(of: "/") ?? source.endIndex)]) : "."
        return directory + "/" + (stem.isEmpty ? name : stem) + ".journal"
    }

    /// `path` from the root, so a resume from another directory finds the plan.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (directory == "/" ? "" : directory) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
