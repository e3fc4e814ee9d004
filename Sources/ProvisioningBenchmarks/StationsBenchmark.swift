import BenchmarkSupport
import NDEF
import NFCSession
import Provisioning
import ProvisioningDatabase
import Synchronization
import SystemSupport

/// Many stations on one job, with simulated tags answering at once: the file journal (one
/// process, one file) and a PostgreSQL job (each station with its own connection) side by side,
/// with 1, 4 and 8 stations: aggregate tags per second, each station's time per tag, the
/// database's statements per tag, and the memory of a station over the run.
struct StationsBenchmark {
    /// One measured run.
    struct Run {
        var name: String
        var stations: Int
        var tags: Int
        var elapsed: Duration
        /// The database statements sent (0 for the journal).
        var statements: Int
        /// RSS in KiB after each tenth of the tags.
        var memory: [Int]

        var tagsPerSecond: Double { Double(tags) / max(Statistics.milliseconds(elapsed) / 1000, 1e-9) }
        /// A station's time per tag: the run's time times the stations, over the tags.
        var millisecondsPerTagPerStation: Double {
            Statistics.milliseconds(elapsed) * Double(stations) / Double(max(tags, 1))
        }
        var statementsPerTag: Double { Double(statements) / Double(max(tags, 1)) }

        /// Growth from the first memory sample to the last, per 1,000 tags, in KiB.
        var growthPerThousand: Double {
            guard let first = memory.first, let last = memory.last, memory.count > 1 else { return 0 }
            return Double(last - first) * 1000 / (Double(tags) * Double(memory.count - 1) / Double(memory.count))
        }
    }

    let tags: Int
    let directory: String

    /// The plan and template of every run.
    func planAndTemplate() throws -> (ProvisioningPlan, MessageTemplate) {
        let plan = try ProvisioningPlan.counter(from: 1, to: tags, width: 6)
        return (plan, try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields))
    }

    /// The job on a journal in `directory`, with `count` stations.
    func journal(stations count: Int) async throws -> Run {
        let (plan, template) = try planAndTemplate()
        let path = directory + "/stations-\(getpid())-\(count).journal"
        defer { unlink(path) }
        let journal = try ProvisioningJournal.create(
            at: path, header: JournalHeader(plan: plan, template: template, options: ["lock": "no"]))
        let sampler = Sampler(every: max(1, tags / 10))
        let job = ProvisioningJob(
            plan: plan, journal: journal, settings: Self.settings,
            build: { row, _ in BatchBenchmark.message(row: row.number) },
            onEvent: sampler.handle)
        let summary = await run(job, stations: count)
        journal.close()
        guard summary.isComplete else { throw ProvisioningError(.io, "stopped: \(summary.stopReason ?? "?")") }
        return Run(
            name: "journal, \(count) station\(count == 1 ? "" : "s")", stations: count, tags: tags,
            elapsed: summary.elapsed, statements: 0, memory: sampler.samples)
    }

    /// The job in the database `url`, with `count` stations in this process.
    func database(url: String, stations count: Int) async throws -> Run {
        let (plan, template) = try planAndTemplate()
        let jobs = JobDatabase(try DatabaseTarget(url))
        let header = JournalHeader(
            plan: plan, template: template, options: ["lock": "no", "run": "\(getpid())-\(count)"])
        let (created, _) = try await jobs.createJob(named: "bench-\(getpid())-\(count)", plan: plan, header: header)
        let ledger = DatabaseLedger(job: created, database: jobs, settings: DatabaseLedger.Settings(host: "bench"))
        let sampler = Sampler(every: max(1, tags / 10))
        let job = ProvisioningJob(
            ledger: ledger, settings: Self.settings, build: { row, _ in BatchBenchmark.message(row: row.number) },
            onEvent: sampler.handle)
        let summary = await run(job, stations: count)
        guard summary.isComplete else {
            throw ProvisioningError(.database, "stopped: \(summary.stopReason ?? "?")")
        }
        return Run(
            name: "database, \(count) station\(count == 1 ? "" : "s")", stations: count, tags: tags,
            elapsed: summary.elapsed, statements: ledger.statementCount, memory: sampler.samples)
    }

    /// Runs `job` on `count` endless readers until every row is done.
    private func run(_ job: ProvisioningJob, stations count: Int) async -> ProvisioningJobSummary {
        let readers = (0..<count).map { EndlessTagReader(seed: UInt64(100 + $0)) }
        let summary = await job.run(
            readers.enumerated().map { ProvisioningStation(name: "bench/\($0.offset + 1)", reader: $0.element) })
        for reader in readers { await reader.close() }
        return summary
    }

    /// Stations that poll every millisecond.
    static let settings = ProvisioningJobSettings(
        checkInterval: .milliseconds(20), sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))

    /// Samples the resident memory every `step` rows done.
    final class Sampler: Sendable {
        private let step: Int
        private let state = Mutex<(done: Int, samples: [Int])>((0, []))

        init(every step: Int) { self.step = step }

        var samples: [Int] { state.withLock { $0.samples } }

        @Sendable func handle(_ event: ProvisioningJobEvent) {
            guard case .rowDone = event else { return }
            let sample = state.withLock { state in
                state.done += 1
                return state.done % step == 0
            }
            if sample {
                let kibibytes = ResidentMemory.kibibytes()
                state.withLock { $0.samples.append(kibibytes) }
            }
        }
    }
}

extension StationsBenchmark {
    /// Runs the journal and the database with 1, 4 and 8 stations and prints them side by side;
    /// `sessionLoopMilliseconds` is a bare session loop's time per tag, the tag work alone.
    static func report(
        tags: Int, directory: String, databaseURL: String, sessionLoopMilliseconds: Double, tsvPath: String?
    ) async throws {
        let benchmark = StationsBenchmark(tags: tags, directory: directory)
        var runs: [Run] = []
        for stations in [1, 4, 8] {
            runs.append(try await benchmark.journal(stations: stations))
            runs.append(try await benchmark.database(url: databaseURL, stations: stations))
        }
        print("")
        print("Stations on one job, \(tags) simulated NTAG215 (no reader latency), journal next to PostgreSQL")
        print(
            Statistics.pad("", 24) + Statistics.pad("tags/s", 10) + Statistics.pad("ms/tag/station", 16)
                + Statistics.pad("statements/tag", 16) + Statistics.pad("KiB/1000 tags", 15))
        var tsv =
            "run\tstations\ttags\ttags_per_second\tms_per_tag_per_station\tstatements_per_tag\tgrowth_kib_per_1000\n"
        for run in runs {
            print(
                Statistics.pad(run.name, 24, left: true)
                    + Statistics.pad(String(Int(run.tagsPerSecond.rounded())), 10)
                    + Statistics.pad(Statistics.formatMilliseconds(run.millisecondsPerTagPerStation), 16)
                    + Statistics.pad(run.statements == 0 ? "-" : String(format2(run.statementsPerTag)), 16)
                    + Statistics.pad(String(Int(run.growthPerThousand.rounded())), 15))
            tsv +=
                "\(run.name)\t\(run.stations)\t\(run.tags)\t\(run.tagsPerSecond)\t\(run.millisecondsPerTagPerStation)\t"
                + "\(run.statementsPerTag)\t\(run.growthPerThousand)\n"
        }
        if let single = runs.first(where: { $0.stations == 1 && $0.statements > 0 }) {
            let overhead = single.millisecondsPerTagPerStation - sessionLoopMilliseconds
            print(
                "Database work per tag, 1 station: \(Statistics.formatMilliseconds(overhead)) over the bare session "
                    + "loop (target <= 5 ms), \(format2(single.statementsPerTag)) statements per tag (claim, bind, done)"
            )
        }
        if let eight = runs.last(where: { $0.stations == 8 && $0.statements > 0 }) {
            print("8 stations on the database: \(Int(eight.tagsPerSecond.rounded())) tags/s (target >= 300)")
        }
        if let tsvPath, !Platform.write(Array(tsv.utf8), to: tsvPath) {
            Platform.printError("ProvisioningBenchmarks: cannot write \(tsvPath)")
        }
    }

    /// `value` with two decimals.
    static func format2(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
