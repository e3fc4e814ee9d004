import NDEF
import NFCSession
import Provisioning
import SimulatedReader
import Synchronization
import TestSupport
import Testing

@testable import ProvisioningDatabase

/// A counter job (`https://example.com/t/{counter}`) in a test database of its own.
struct DatabaseCounterJob {
    let database: TestDatabase
    let jobs: JobDatabase
    let plan: ProvisioningPlan
    let header: JournalHeader

    /// A job of `rows` rows, not yet created; the database is new and empty.
    init(
        rows: Int, options: [String: String] = ["lock": "no", "password": "none"], in server: PostgresTestServer? = nil
    )
        async throws
    {
        database = try await TestDatabase.create(in: server)
        jobs = JobDatabase(try DatabaseTarget(database.url))
        plan = try ProvisioningPlan.counter(from: 1, to: rows, width: 4)
        let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
        header = JournalHeader(plan: plan, template: template, options: options)
    }

    /// Creates (or joins) the job `name`.
    func create(_ name: String = "tags", leaseSeconds: Int = 60) async throws -> DatabaseJob {
        try await jobs.createJob(named: name, plan: plan, header: header, leaseSeconds: leaseSeconds).job
    }

    /// The job's ledger for stations on `host`, its connection events collected in `events`.
    func ledger(
        _ job: DatabaseJob, host: String = "test-host", events: EventLog = EventLog(),
        heartbeat: Duration? = nil
    ) -> DatabaseLedger {
        DatabaseLedger(
            job: job, database: jobs,
            settings: DatabaseLedger.Settings(
                host: host, firstBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200), heartbeat: heartbeat),
            onEvent: { events.append($0) })
    }

    /// Runs a job on `ledger` with `stations`, collecting its events.
    func run(
        _ ledger: DatabaseLedger, _ stations: [ProvisioningStation], events: EventLog = EventLog(),
        settings: ProvisioningJobSettings = DatabaseCounterJob.settings
    ) async -> (ProvisioningJobSummary, [ProvisioningJobEvent]) {
        let job = ProvisioningJob(
            ledger: ledger, settings: settings, build: { row, _ in Self.message(row: row.number) },
            onEvent: { events.append($0) })
        let summary = await job.run(stations)
        return (summary, events.events)
    }

    /// The message of row `row`.
    static func message(row: Int) -> NFCNDEFMessage {
        let digits = String(row)
        let counter = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        guard let record = try? URIRecord(uri: "https://example.com/t/" + counter).makeRecord() else {
            return NFCNDEFMessage(records: [])
        }
        return NFCNDEFMessage(records: [record])
    }

    /// Settings for stations with a supply: they stop when it is used up.
    static let settings = ProvisioningJobSettings(
        checkInterval: .milliseconds(20), sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(5)))

    /// Rows by state, from the database.
    func states() async throws -> [String: Int] {
        var states: [String: Int] = [:]
        for line in try await database.psql("SELECT state, count(*) FROM ndeftool_rows GROUP BY state") {
            let parts = line.split(separator: "|")
            if parts.count == 2 { states[String(parts[0])] = Int(parts[1]) }
        }
        return states
    }

    /// Every done row's UID (upper-case hex), by row.
    func doneUIDs() async throws -> [Int: String] {
        var uids: [Int: String] = [:]
        let rows = try await database.psql(
            "SELECT row_number, upper(encode(uid, 'hex')) FROM ndeftool_rows WHERE state = 'done'")
        for line in rows {
            let parts = line.split(separator: "|")
            if parts.count == 2, let row = Int(parts[0]) { uids[row] = String(parts[1]) }
        }
        return uids
    }
}
