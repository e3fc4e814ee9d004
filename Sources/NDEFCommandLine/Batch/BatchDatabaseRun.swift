import CommandLineKit
import NFCSession
import Provisioning
import ProvisioningDatabase
import SystemSupport

/// `ndeftool batch ... --job NAME` and `ndeftool batch --join NAME`: a batch job kept in
/// PostgreSQL (``ProvisioningDatabase/DatabaseLedger``), whose stations run in any number of
/// processes on any number of machines.
///
/// `--job` creates the job from the plan, the record template and the options (or joins it when
/// the database has it with the same plan, template and options; another job of that name is
/// refused with 65, saying what differs). `--join` takes all of that from the database. Either
/// way this process's readers become stations of the job until it is done, stopped, or their
/// tags run out.
enum BatchDatabaseRun {
    /// What a run works with.
    struct Setup {
        var job: DatabaseJob
        var template: BatchRecordTemplate
        var settings: ProvisioningJobSettings
        /// Whether this run created the job.
        var created: Bool
    }

    /// Runs the stations of this process on the database's job.
    static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        try checkOptions(values)
        let target = try BatchDatabaseOptions.target(values, io: invocation.io)
        let jobs = JobDatabase(target)
        let setup: Setup
        if let name = values.value(BatchDatabaseOptions.join.long) {
            setup = try await joined(
                try BatchDatabaseOptions.jobName(name, option: BatchDatabaseOptions.join), jobs, invocation)
        } else {
            guard let created = try await created(jobs, invocation) else { return .success }
            setup = created
        }
        let level = MessageOptions.level(values)
        let console = TagConsole(
            io: invocation.io,
            settings: TagSettings(reader: nil, wait: .zero, isQuiet: level.isQuiet, isVerbose: level.isVerbose))
        console.note(
            (setup.created ? "Created" : "Joined") + " job \(setup.job.name) in the \(target.display): "
                + "\(setup.job.header.planRowCount) rows")
        if values.flag(BatchCommand.retryFailed.long) {
            do {
                let job = setup.job
                let rows = try await patiently(invocation) { () async throws(DatabaseError) in
                    try await jobs.retryFailedRows(of: job)
                }
                console.note(BatchOutput.retriedNote(rows))
            } catch {
                throw BatchDatabaseOptions.error(error)
            }
        }
        var opened = try await BatchStations.open(invocation, console: console)
        let host = BatchDatabaseOptions.hostName()
        for index in opened.stations.indices {
            opened.stations[index].name = host + "/" + opened.stations[index].name
        }
        let done: Int
        do {
            let job = setup.job
            done = try await patiently(invocation) { () async throws(DatabaseError) in
                try await jobs.status(of: job).done
            }
        } catch {
            await opened.close()
            throw BatchDatabaseOptions.error(error)
        }
        let status = BatchStatus(
            io: invocation.io, level: level, total: setup.job.header.planRowCount, done: done,
            stations: opened.stations.map(\.name))
        if opened.stations.count > 1 {
            for line in status.legend { console.note(line) }
        }
        var settings = setup.settings
        settings.largestTagCapacity = opened.largestTagCapacity
        let ledger = DatabaseLedger(
            job: setup.job, database: jobs, settings: DatabaseLedger.Settings(host: host),
            onEvent: { status.handle($0) })
        let template = setup.template
        let job = ProvisioningJob(
            ledger: ledger, settings: settings, buildMirrored: { row, uid in try template.message(row, uid: uid) },
            onEvent: { status.handle($0) })
        let (summary, interrupted) = await BatchCommand.runUntilInterrupted(
            job, opened.stations, io: invocation.io, onInterrupt: { ledger.stop() })
        status.finish()
        await opened.close()
        return try await BatchDatabaseOutput.finish(
            summary, setup: setup, jobs: jobs, interrupted: interrupted, invocation: invocation)
    }

    /// Refuses options that do not go with a database job.
    static func checkOptions(_ values: ParsedValues) throws(CommandLineError) {
        let isJoin = values.value(BatchDatabaseOptions.join.long) != nil
        if isJoin && values.value(BatchDatabaseOptions.job.long) != nil {
            throw .usage("Give --job NAME (create or join with a plan) or --join NAME (join), not both")
        }
        for option in [BatchCommand.journal, BatchCommand.resume, BatchCommand.report, BatchCommand.reportJSON]
        where values.isGiven(option.long) {
            throw .usage(
                "--\(option.long) is for a job kept in a journal file: a database job's record is the database "
                    + "('ndeftool batch report --job NAME' writes its report)")
        }
        guard isJoin else { return }
        for option in [BatchCommand.plan, BatchCommand.from, BatchCommand.to, BatchDatabaseOptions.lease]
        where values.isGiven(option.long) {
            throw .usage(
                "--join takes the plan, the template and the options from the database: leave out --\(option.long)")
        }
        if !values.sequence("record").isEmpty {
            throw .usage("--join takes the record template from the database: give no records")
        }
        if values.flag(BatchCommand.dryRun.long) {
            throw .usage("--dry-run goes with the command that creates the job, not with --join")
        }
    }

    /// The job `--job NAME` creates (or joins when it is the same), after the checks of a new
    /// job; nil after a dry run, which touches neither the database nor a reader.
    private static func created(
        _ jobs: JobDatabase, _ invocation: CommandInvocation
    ) async throws(CommandLineError) -> Setup? {
        let values = invocation.values
        guard let text = values.value(BatchDatabaseOptions.job.long) else {
            throw CommandLineError(.internalError, "a database run without --job or --join")
        }
        let name = try BatchDatabaseOptions.jobName(text, option: BatchDatabaseOptions.job)
        let lease =
            try values.integerValue(BatchDatabaseOptions.lease.long, in: DatabaseJob.leaseRange)
            ?? DatabaseJob.defaultLeaseSeconds
        var setup = try BatchJobSetup.make(invocation, database: true)
        setup.databaseJob = name
        let (first, lengths) = try setup.template.checkSizes(setup.plan)
        if values.flag(BatchCommand.dryRun.long) {
            _ = try BatchOutput.dryRun(setup, first: first, lengths: lengths, invocation: invocation)
            return nil
        }
        var code: String?
        if setup.settings.needsConfirmation {
            try await BatchLockConsent.check(
                header: setup.header, rows: setup.plan.count, given: values.value(BatchCommand.confirm.long),
                io: invocation.io, arguments: invocation.arguments, settings: setup.settings)
            code = try? ProvisioningLockConfirmation.code(for: setup.header)
        }
        do {
            let plan = setup.plan
            let header = setup.header
            let (job, created) = try await patiently(invocation) { () async throws(DatabaseError) in
                try await jobs.createJob(named: name, plan: plan, header: header, leaseSeconds: lease, lockCode: code)
            }
            return Setup(job: job, template: setup.template, settings: setup.settings, created: created)
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
    }

    /// The job `--join NAME` names, checked against the options given (a master secret, a lock
    /// consent) before any reader opens.
    private static func joined(
        _ name: String, _ jobs: JobDatabase, _ invocation: CommandInvocation
    ) async throws(CommandLineError) -> Setup {
        let job: DatabaseJob
        do {
            job = try await patiently(invocation) { () async throws(DatabaseError) in try await jobs.job(named: name) }
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
        let template = try BatchRecordTemplate(text: job.header.template, fields: job.fields)
        let settings = try BatchJobSetup.makeSettings(invocation, recorded: job.header)
        var given = job.header
        given.options = settings.journalOptions
        let differences = job.differences(from: given)
        if !differences.isEmpty {
            let secretCheck = ProvisioningPasswordPlan.secretCheckOption
            if differences.count == 1, job.header.options[secretCheck] != given.options[secretCheck] {
                throw CommandLineError(
                    .dataError,
                    "the master secret given is not the one job \(name) started with (the database's check value of "
                        + "it differs): its tags have passwords derived from that one. Nothing was touched. Give the "
                        + "job's own secret with --master-secret-file FILE or $\(MasterSecretInput.variable)")
            }
            throw CommandLineError(
                .dataError,
                "job \(name) is not what these options describe: " + differences.joined(separator: "; ")
                    + ". Join it with --join \(name) and the job's own options; nothing was touched")
        }
        if settings.needsConfirmation {
            try await BatchLockConsent.check(
                header: job.header, rows: job.header.planRowCount,
                given: invocation.values.value(BatchCommand.confirm.long), io: invocation.io,
                arguments: invocation.arguments, settings: settings)
            // The creator stored the code's SHA-256: a job whose rows say it locks but whose code
            // was never recorded, or another code, was not created by ndeftool as it stands.
            guard let code = try? ProvisioningLockConfirmation.code(for: job.header), job.confirms(lockCode: code)
            else {
                throw CommandLineError(
                    .dataError,
                    "job \(name) locks tags, but the database's digest of its lock code is not this job's code: "
                        + "nothing was touched")
            }
        }
        return Setup(job: job, template: template, settings: settings, created: false)
    }

    /// How many times a station starting up tries to reach the database before it gives up.
    static let startAttempts = 10

    /// Runs `body`, trying again after a connection failure (the server restarting, the
    /// network down for a moment) with a doubling pause from 0.1 s to 5 s, at most
    /// ``startAttempts`` times (about 20 s in all).
    static func patiently<Value: Sendable>(
        _ invocation: CommandInvocation, _ body: () async throws(DatabaseError) -> Value
    ) async throws(DatabaseError) -> Value {
        var pause = Duration.milliseconds(100)
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                guard error.isTransient, attempt < startAttempts else { throw error }
                if attempt == 1 {
                    invocation.io.writeError("Waiting for the database: \(error.reason)\n")
                }
                try? await DispatchTimerClock().sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
                attempt += 1
            }
        }
    }
}
