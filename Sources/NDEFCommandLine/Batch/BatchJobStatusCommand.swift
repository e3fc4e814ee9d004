import CommandLineKit
import Provisioning
import ProvisioningDatabase

/// `ndeftool batch status --job NAME`: where a database job stands, from any machine.
enum BatchJobStatusCommand {
    static let job = OptionSpec.option("job", value: "name", help: "The job in the database.")
    static let watch = OptionSpec.flag(
        "watch", help: "Show the status again every --interval seconds until the job is complete or Ctrl-C.")
    static let interval = OptionSpec.option(
        "interval", value: "seconds", default: "2", help: "With --watch: the seconds between two looks (0.2 to 3600).")
    static let json = OptionSpec.flag("json", help: "Print JSON (with --watch, one object per line).")

    /// The command.
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show where a batch job kept in a database stands: rows and stations.",
        discussion: """
            Rows done, claimed (a station works on them now), pending (not yet given to a \
            tag), waiting for their tag (bound to a tag that left before its row was \
            finished: bringing it to any station of the job finishes it) and failed; then \
            each station: its machine and reader, what it does, when it was last heard of, \
            the rows it finished and its rate over the last minute. Read from any machine \
            that reaches the database; it changes nothing.

            Exit status: 0 (with --watch: the job is complete, or 130 after Ctrl-C, 143 after SIGTERM); 66 no \
            such job; 69 the database cannot be reached.

            Examples:
              ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 3 --job tags \\
                  --database postgresql://db.example/provisioning --reader 'sim:ntag215?supply=3'
              ndeftool batch status --job tags --database postgresql://db.example/provisioning
              NDEFTOOL_DATABASE_URL=postgresql://db.example/provisioning ndeftool batch status --job tags --json
              ndeftool batch status --job tags --watch --database postgresql://db.example/provisioning
            """,
        options: [job, BatchDatabaseOptions.database, watch, interval, json],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        guard let text = values.value(job.long) else {
            throw .missingArgument("--job <name>", help: "The job in the database.")
        }
        let name = try BatchDatabaseOptions.jobName(text, option: job)
        let jobs = JobDatabase(try BatchDatabaseOptions.target(values, io: invocation.io))
        let seconds = try BatchDatabaseCommandSupport.seconds(values, interval, in: 0.2...3600)
        let asJSON = values.flag(json.long)
        let found: DatabaseJob
        do {
            found = try await jobs.job(named: name)
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
        guard values.flag(watch.long) else {
            try show(try await status(found, jobs), json: asJSON, io: invocation.io)
            return .success
        }
        let interrupted = InterruptionFlag()
        let interruption = invocation.io.interruption()
        let watcher = Task {
            guard let signal = await interruption() else { return }
            interrupted.set(signal)
        }
        defer { watcher.cancel() }
        while true {
            let current = try await status(found, jobs)
            try show(current, json: asJSON, io: invocation.io)
            if current.isComplete { return .success }
            if await BatchDatabaseCommandSupport.wait(seconds, unless: interrupted), let signal = interrupted.signal {
                return .stopped(by: signal)
            }
        }
    }

    /// The job's status, or the error of the database.
    static func status(_ job: DatabaseJob, _ jobs: JobDatabase) async throws(CommandLineError) -> DatabaseJobStatus {
        do {
            return try await jobs.status(of: job)
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
    }

    /// The status as JSON.
    struct StatusJSON: Encodable {
        struct Station: Encodable {
            var name: String
            var host: String
            var reader: String
            var state: String
            var secondsSinceSeen: Double
            var tagsDone: Int
            var tagsPerMinute: Int
            var started: String
        }

        var job: String
        var created: String
        var rows: Int
        var done: Int
        var claimed: Int
        var pending: Int
        var waitingForTag: Int
        var failed: Int
        var complete: Bool
        var stations: [Station]
    }

    /// Prints `status` as text or JSON.
    static func show(_ status: DatabaseJobStatus, json: Bool, io: any CommandIO) throws(CommandLineError) {
        if json {
            let value = StatusJSON(
                job: status.job.name, created: status.job.header.time, rows: status.rows, done: status.done,
                claimed: status.claimed, pending: status.pending, waitingForTag: status.waitingForTag,
                failed: status.failed, complete: status.isComplete,
                stations: status.stations.map {
                    StatusJSON.Station(
                        name: $0.name, host: $0.host, reader: $0.reader, state: $0.state,
                        secondsSinceSeen: ($0.secondsSinceSeen * 10).rounded() / 10, tagsDone: $0.tagsDone,
                        tagsPerMinute: $0.tagsLastMinute, started: $0.started)
                })
            try io.writeOutput(try MessageJSON.text(of: value, pretty: false) + "\n")
            return
        }
        var lines = [
            "Job \(status.job.name) (created \(status.job.header.time)): \(status.done) of \(status.rows) rows done"
                + (status.isComplete ? ", complete" : ""),
            "  claimed \(status.claimed), pending \(status.pending), waiting for their tag \(status.waitingForTag), "
                + "failed \(status.failed)",
        ]
        if status.stations.isEmpty {
            lines.append("No station has joined yet.")
        } else {
            lines.append("Stations:")
            for station in status.stations {
                let seen = station.secondsSinceSeen < 1 ? "now" : "\(Int(station.secondsSinceSeen)) s ago"
                lines.append(
                    "  \(station.name): \(station.state); seen \(seen); \(station.tagsDone) done, "
                        + "\(station.tagsLastMinute) tags/min")
            }
        }
        try io.writeOutput(lines.joined(separator: "\n") + "\n")
    }
}

/// What the database subcommands of `batch` share.
enum BatchDatabaseCommandSupport {
    /// The seconds of `option`, in `range`.
    static func seconds(
        _ values: ParsedValues, _ option: OptionSpec, in range: ClosedRange<Double>
    ) throws(CommandLineError) -> Double {
        let text = values.value(option.long) ?? option.defaultValue ?? "1"
        guard let seconds = Double(text), seconds.isFinite, range.contains(seconds) else {
            throw .invalidValue(
                text, for: option, reason: "expected seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        return seconds
    }

    /// Waits `seconds`, or until `flag` is set; whether it was.
    static func wait(_ seconds: Double, unless flag: InterruptionFlag) async -> Bool {
        var left = Int((seconds * 1000).rounded())
        while left > 0 {
            if flag.isSet { return true }
            let step = min(left, 100)
            try? await Task.sleep(for: .milliseconds(step))
            left -= step
        }
        return flag.isSet
    }
}
