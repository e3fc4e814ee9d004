import CommandLineKit
import NFCSession
import Provisioning
import RecordSpecifications
import Synchronization
import SystemSupport

/// `ndeftool batch`: provisions many tags from one plan, exactly once, on one or more readers,
/// with a crash-safe journal (``Provisioning/ProvisioningJob``).
enum BatchCommand {
    /// AUTH0 of the tags' passwords (`password set`'s option, for tags set afresh).
    static let fromPage = OptionSpec.option(
        "from-page", value: "page",
        help: "AUTH0, the first protected page. Default: the first user page (4): the whole NDEF area, "
            + "the dynamic lock bytes and the configuration.")
    /// AUTHLIM of the tags' passwords.
    static let attemptLimit = OptionSpec.option(
        "attempt-limit", value: "n", default: "0",
        help: "AUTHLIM: 1-7 wrong passwords disable the password for good; 0: unlimited.")
    static let plan = OptionSpec.option(
        "plan", value: "file",
        help: "The plan: one row per tag, CSV with a header row (.csv) or JSON Lines (.jsonl).")
    static let from = OptionSpec.option(
        "from", value: "n", help: "A counter plan instead of a file: rows {counter} = <n> to --to.")
    static let to = OptionSpec.option("to", value: "n", help: "The last value of the counter plan.")
    static let width = OptionSpec.option(
        "width", value: "digits", default: "0", help: "Zero-pad {counter} to <digits> digits.")
    static let journal = OptionSpec.option(
        "journal", value: "file",
        help: "The journal of the job (default: the plan's name with .journal, or batch-FROM-TO.journal).")
    static let resume = OptionSpec.option(
        "resume", value: "journal",
        help: "Continue the job of <journal> after a stop or crash (the plan, template and options come from it).")
    static let reader = OptionSpec.option(
        "reader", value: "url", repeatable: true,
        help: "A reader to provision on, one station each; repeat for several; 'all' for every reader "
            + "connected (default: the reader the tag commands choose).")
    static let wait = OptionSpec.option(
        "wait", value: "seconds",
        help: "Stop a reader after <seconds> without a new tag (default: wait until the job is done or Ctrl-C).")
    static let lock = OptionSpec.flag(
        "lock", help: "Make each tag read-only for good after its verified write (confirmed once for the job).")
    static let confirm = OptionSpec.option(
        "confirm", value: "code", help: "The job code that confirms --lock without asking (see --dry-run).")
    static let derivePasswords = OptionSpec.flag(
        "derive-passwords",
        help: "Give each tag its own password, HMAC-SHA256(master secret, UID) (NTAG21x, Ultralight EV1).")
    static let sdmMasterKeyFile = OptionSpec.option(
        "sdm-master-key-file", value: "file",
        help: "Set up NTAG 424 DNA secure messages ({picc} and {mac} in a uri template, {enc:FIELD} between them "
            + "for the row's FIELD as encrypted file data) with each tag's own keys, "
            + "derived from this master key (32 hex characters or 16 raw bytes; AN10922, the UID as input).")
    static let sdmFromMasterKeyFile = OptionSpec.option(
        "sdm-from-master-key-file", value: "file",
        help: "With --sdm-master-key-file: the tags were set up with keys derived from this other master key; each is "
            + "moved to the new master's keys and the template's URL (key rotation).")
    static let sdmLockNDEF = OptionSpec.flag(
        "sdm-lock-ndef", help: "With --sdm-master-key-file: the NDEF file's write access goes to key 0 only.")
    static let report = OptionSpec.option(
        "report", value: "file", help: "The CSV report (default: the journal's name with .report.csv).")
    static let reportJSON = OptionSpec.option(
        "report-json", value: "file", help: "The JSON report (default: the journal's name with .report.json).")
    static let retryFailed = OptionSpec.flag(
        "retry-failed",
        help: "With --resume or --join: rows that failed for good (too large for every tag, values that cannot be "
            + "rendered) go back to the pool and are tried again.")
    static let dryRun = OptionSpec.flag(
        "dry-run", help: "Check the plan and template, show the first message and the job code; touch no reader.")
    static let json = OptionSpec.flag("json", help: "Print the summary as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "batch",
        abstract: "Provision many tags from a plan, exactly once, on one or more readers.",
        discussion: """
            Each tag presented gets the next row of the plan, written with the message the \
            record template makes for it (as 'ndeftool write' takes records, with {field} \
            from the plan, {uid} the tag's UID, {row} the row number; {uid-mirror} and \
            {counter-mirror} set up the NTAG213/215/216 mirror, as 'ndeftool write' does), \
            verified, then locked \
            (--lock) and given its own password (--derive-passwords) when asked. A tag done \
            already in this job is refused, with a red light and a long beep on readers \
            that have them; each success gets green and a short beep.

            Every step is recorded in the journal before and after it happens (fsync), so \
            after a crash, a power cut or kill -9, 'ndeftool batch --resume JOURNAL' goes \
            on: no row is written to two tags and none is skipped; a tag that was being \
            written finishes its row when it is brought back. The journal and the reports \
            never hold a password or the master secret.

            With several --reader options, each reader is a station: rows are handed out so \
            that two stations never write the same row; a reader unplugged mid-job is \
            reconnected and the others go on. Ctrl-C stops after the tags in progress. The \
            reports (CSV and JSON: row, UID, outcome, time) are written at the end.

            --lock asks for the job's code once, up front (a terminal), or takes it with \
            --confirm (scripts; --dry-run shows it). The code depends on the plan, the \
            template and the options. --derive-passwords reads the master secret from \
            --master-secret-file or $NDEFTOOL_MASTER_SECRET, never the command line.

            MIFARE Classic cards take --keys-file (with a 'key-b KEY' line): a card that is \
            not NDEF formatted is formatted first (the MAD, the NFC Forum key A and that \
            key B in every sector, as 'ndeftool format' does), then written, verified and, \
            with --lock, made read-only with key B. Installing a key B is confirmed with the \
            job's code like a lock; the journal holds only the key B's check value, so a \
            resume or a join gives the same keys file again (another key B is refused).

            With --job NAME the job is kept in a PostgreSQL database (--database URL or \
            $NDEFTOOL_DATABASE_URL; libpq's PG* variables and ~/.pgpass work, a password \
            on the command line is refused) instead of a journal: stations on any number \
            of machines run it at once, each joining with 'ndeftool batch --join NAME \
            --reader ...' (the plan, template and options come from the database). Rows \
            are claimed under leases (--lease seconds) with fencing tokens: a station that \
            lost the database for longer stops before the next step on its tag. 'batch \
            status' and 'batch report' read the job from any machine.

            Exit status: 0 every row done; 75 stopped with rows left, or the journal is \
            in use by another run (resume later); 80 rows wait for their tags to come \
            back; 130 Ctrl-C, 143 SIGTERM; 74 the journal could not be written; 79 lock not \
            confirmed; 65 a database job of that name with another plan; 66 no such job \
            to join; 69 the database cannot be reached.

            Examples:
              ndeftool batch uri 'https://example.com/t/{serial}' --plan tags.csv \\
                  --reader 'sim:ntag215?supply=3'
              ndeftool batch uri 'https://example.com/t/{counter}' --from 1000 --to 1049 \\
                  --reader 'sim:ntag215?supply=50' --journal run.journal
              ndeftool batch --resume run.journal
              ndeftool batch text 'Seat {seat}' --plan seats.jsonl \\
                  --reader 'sim:ntag215?supply=2&seed=1' --reader 'sim:ntag213?supply=1&seed=2'
              ndeftool batch uri 'https://x.test/{uid}' --from 1 --to 50 --lock --dry-run
              ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 3 --keys-file keys.txt \\
                  --reader 'sim:classic1k?supply=3' --dry-run
              mkdir -p tags && ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 20 \\
                  --reader 'sim:ntag215?supply=20&file=tags/'
              ndeftool batch uri 'https://x.test/{serial}' --plan tags.csv --lock \\
                  --journal locked.journal --confirm 109-936 \\
                  --derive-passwords --master-secret-file secret.bin --reader 'sim:ntag215?supply=3'
              ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 2 --job hall \\
                  --database postgresql://db.example/provisioning --reader 'sim:ntag215?supply=2&seed=1'
              ndeftool batch --join hall --database postgresql://db.example/provisioning \\
                  --reader 'sim:ntag215?supply=2&seed=2'
            """,
        arguments: [
            ArgumentSpec(
                "record", help: "The message of each tag: record specifications with placeholders.", optional: true,
                grammar: RecordSpecGrammar.standard)
        ],
        options: [
            plan, from, to, width, journal, resume, reader, wait, lock, confirm, ClassicKeysFile.option,
            derivePasswords,
            MasterSecretInput.file, sdmMasterKeyFile, sdmFromMasterKeyFile, sdmLockNDEF, fromPage,
            PasswordSetCommand.readProtect,
            attemptLimit, report, reportJSON, retryFailed, BatchDatabaseOptions.job,
            BatchDatabaseOptions.join, BatchDatabaseOptions.database, BatchDatabaseOptions.lease,
            SignatureKeyOptions.requireGenuine, SignatureKeyOptions.signatureKey, dryRun, json,
            MessageOptions.quiet, MessageOptions.verbose("Show each reader's state changes."),
        ],
        helpSections: [RecordSpecGrammar.standard.kindSection],
        subcommands: [BatchJobStatusCommand.spec, BatchReportCommand.spec, BatchDatabaseCheckCommand.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        if values.isGiven(BatchDatabaseOptions.job.long) || values.isGiven(BatchDatabaseOptions.join.long) {
            return try await BatchDatabaseRun.run(invocation)
        }
        for option in [BatchDatabaseOptions.database, BatchDatabaseOptions.lease] where values.isGiven(option.long) {
            throw .usage("--\(option.long) goes with a job kept in a database: name it with --job NAME or --join NAME")
        }
        if values.isGiven(confirm.long) && !values.flag(lock.long) && !values.isGiven(sdmMasterKeyFile.long)
            && !values.isGiven(ClassicKeysFile.option.long) && values.value(resume.long) == nil
        {
            throw .usage("--confirm goes with --lock, --sdm-master-key-file or --keys-file")
        }
        if values.flag(retryFailed.long) && values.value(resume.long) == nil {
            throw .usage("--retry-failed goes with --resume JOURNAL (or --join NAME): a new job has no failed rows")
        }
        let setup = try BatchJobSetup.make(invocation)
        let (first, lengths) = try setup.template.checkSizes(setup.plan)
        try BatchOutput.checkReportPaths(setup, values: values)
        if values.flag(dryRun.long) {
            return try BatchOutput.dryRun(setup, first: first, lengths: lengths, invocation: invocation)
        }
        if setup.settings.needsConfirmation {
            try await BatchLockConsent.check(
                header: setup.header, rows: setup.plan.count, given: values.value(confirm.long), io: invocation.io,
                arguments: invocation.arguments, settings: setup.settings)
        }
        let level = MessageOptions.level(values)
        let console = TagConsole(
            io: invocation.io,
            settings: TagSettings(reader: nil, wait: .zero, isQuiet: level.isQuiet, isVerbose: level.isVerbose))
        let opened = try await BatchStations.open(invocation, console: console)
        let journal: ProvisioningJournal
        do {
            let (resumes, path, header) = (setup.resumes, setup.journalPath, setup.header)
            // Opening reads, locks and fsyncs the journal: on a dispatch thread, off the pool.
            journal = try await BlockingCall.run { () throws(ProvisioningError) -> ProvisioningJournal in
                resumes
                    ? try ProvisioningJournal.resume(at: path, header: header)
                    // A new job: creates the journal, or replaces one left without its header by a
                    // run killed as it created it.
                    : try ProvisioningJournal.open(at: path, header: header)
            }
        } catch {
            await opened.close()
            let name = InputReader.name(of: setup.journalPath)
            if error.code == .notAJournal { throw BatchJobSetup.notAJournal(setup.journalPath) }
            if error.code == .journalInUse {
                throw CommandLineError(
                    .tryAgain,
                    "the journal \(name) is in use by another run of this job (another ndeftool batch): nothing "
                        + "was written. Let that run finish or stop it (Ctrl-C), then resume")
            }
            throw CommandLineError(.ioError, "the journal \(name): \(error)")
        }
        if values.flag(retryFailed.long) {
            do {
                let rows = try await BlockingCall.run { () throws(ProvisioningError) in try journal.retryFailedRows() }
                console.note(BatchOutput.retriedNote(rows))
            } catch {
                journal.close()
                await opened.close()
                throw CommandLineError(.ioError, "the journal \(InputReader.name(of: setup.journalPath)): \(error)")
            }
        }
        let status = BatchStatus(
            io: invocation.io, level: level, total: setup.plan.count, done: journal.state.doneCount,
            stations: opened.stations.map(\.name))
        if opened.stations.count > 1 {
            for line in status.legend { console.note(line) }
        }
        let template = setup.template
        var settings = setup.settings
        settings.largestTagCapacity = opened.largestTagCapacity
        let job = ProvisioningJob(
            plan: setup.plan, journal: journal, settings: settings,
            buildMirrored: { row, uid in try template.message(row, uid: uid) }, onEvent: { status.handle($0) })
        let (summary, interrupted) = await runUntilInterrupted(job, opened.stations, io: invocation.io)
        status.finish()
        journal.close()
        await opened.close()
        return try BatchOutput.finish(
            summary, setup: setup, journal: journal, interrupted: interrupted, invocation: invocation)
    }

    /// Runs `job` on `stations` until it ends; Ctrl-C (or SIGTERM) stops it after the tags in
    /// progress, and calls `onInterrupt` too. Returns the summary and whether it was interrupted.
    static func runUntilInterrupted(
        _ job: ProvisioningJob, _ stations: [ProvisioningStation], io: any CommandIO,
        onInterrupt: @escaping @Sendable () -> Void = {}
    ) async -> (ProvisioningJobSummary, interrupted: Int32?) {
        let interruption = io.interruption()
        let interrupted = InterruptionFlag()
        let watcher = Task {
            guard let signal = await interruption(), !Task.isCancelled else { return }
            interrupted.set(signal)
            job.stop(reason: "interrupted: the tags in progress were finished")
            onInterrupt()
        }
        let summary = await job.run(stations)
        watcher.cancel()
        return (summary, interrupted.signal)
    }
}

/// Whether Ctrl-C (SIGINT) or SIGTERM stopped the job, and which.
final class InterruptionFlag: Sendable {
    private let value = Mutex<Int32?>(nil)
    /// Records `signal` (the first one counts).
    func set(_ signal: Int32) { value.withLock { $0 = $0 ?? signal } }
    /// The signal that stopped the job, nil when none did.
    var signal: Int32? { value.withLock { $0 } }
    var isSet: Bool { signal != nil }
}

/// The one confirmation a batch that locks needs, given up front for the whole job
/// (``Provisioning/ProvisioningLockConfirmation``): `--confirm CODE` with the job's code, or a
/// person at a terminal typing it back. Anything else refuses with exit status 79 before any
/// reader is opened.
enum BatchLockConsent {
    /// Checks the consent to lock every tag of the job `header` describes (`rows` rows).
    ///
    /// - Parameter given: the code from `--confirm`, if any.
    /// - Throws: ``ExitStatus/confirmationMismatch`` for a wrong or missing code (the message
    ///   shows the job's code and the command that gives it).
    static func check(
        header: JournalHeader, rows: Int, given: String?, io: any CommandIO, arguments: [String],
        settings: ProvisioningJobSettings
    ) async throws(CommandLineError) {
        let what = consequence(of: settings, rows: rows)

        let code: String
        do {
            code = try ProvisioningLockConfirmation.code(for: header)
        } catch {
            throw CommandLineError(.internalError, "The job code: \(error.reason)")
        }
        if let given {
            guard (try? ProvisioningLockConfirmation.matches(given, header: header)) == true else {
                throw CommandLineError(
                    .confirmationMismatch,
                    "--confirm \(given) is not this job's code: nothing was written. The code depends on the "
                        + "plan, the template and the options; 'ndeftool batch ... --dry-run' shows it")
            }
            return
        }
        let again = RepeatCommand.line(arguments, dropping: ["--confirm"], adding: ["--confirm", code])
        guard io.isTerminal(.input), io.isTerminal(.error) else {
            throw CommandLineError(
                .confirmationMismatch,
                "\(what) and nobody confirmed it: nothing was written. To go on, run:\n  \(again)")
        }
        io.writeError("\(what.prefix(1).uppercased() + what.dropFirst()).\nType the job code \(code) to go on: ")
        let answer = await io.typedLine() ?? ""
        guard (try? ProvisioningLockConfirmation.matches(answer, header: header)) == true else {
            throw CommandLineError(.confirmationMismatch, "the code typed is not \(code): nothing was written")
        }
    }

    /// What the job does for good, as the confirmation says it.
    static func consequence(of settings: ProvisioningJobSettings, rows: Int) -> String {
        if settings.sdm != nil {
            return "this job changes the keys of every tag it sets up (\(rows) NTAG 424 DNA tags that only the "
                + "master key's holder can change again)"
        }
        if settings.classicKeys != nil {
            return "this job installs the keys file's key B in every MIFARE Classic card it formats (a card whose "
                + "key B is lost cannot have its sectors changed again)"
                + (settings.locks ? " and locks every tag it writes (\(rows) tags become read-only for good)" : "")
        }
        return "this job locks every tag it writes (\(rows) tags become read-only for good)"
    }
}
