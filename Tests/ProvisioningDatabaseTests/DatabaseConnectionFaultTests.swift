import NFCSession
import Provisioning
import SimulatedReader
import TestSupport
import Testing

@testable import ProvisioningDatabase

/// A station's connection lost under it (a server restart, `pg_terminate_backend`, a server down
/// for longer than the lease), against servers of these tests' own.
@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct DatabaseConnectionFaultTests {
    static let tag: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    static let digest = [UInt8](repeating: 0xAB, count: 32)

    /// Runs `body` with a 5-row job in a database of `server` (the shared one when nil).
    func withJob(
        in server: PostgresTestServer? = nil, leaseSeconds: Int = 60,
        _ body: (DatabaseCounterJob, DatabaseLedger, EventLog) async throws -> Void
    ) async throws {
        let job = try await DatabaseCounterJob(rows: 5, in: server)
        do {
            let created = try await job.create(leaseSeconds: leaseSeconds)
            let events = EventLog()
            let ledger = job.ledger(created, events: events, heartbeat: .seconds(3600))
            try await body(job, ledger, events)
            await ledger.stationStopped("test-host/a", reason: "test")
            await job.database.drop()
        } catch {
            await job.database.drop()
            throw error
        }
    }

    /// The database connection events of `events`.
    static func connectionEvents(_ events: EventLog) -> [String] {
        events.events.compactMap { event in
            guard case .database(_, let change) = event else { return nil }
            switch change {
            case .reconnectStarted: return "started"
            case .reconnectSucceeded: return "succeeded"
            case .reconnectFailed: return "failed"
            }
        }
    }

    @Test("pg_terminate_backend ends a station's connection: the next step reconnects, is reported, and goes on")
    func terminatedConnection() async throws {
        try await withJob { job, ledger, events in
            guard case .provision(let claim) = try await ledger.assign(uid: Self.tag, station: "test-host/a") else {
                Issue.record("no row")
                return
            }
            let ended = try await job.database.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 'ndeftool station' AND datname = current_database()")
            #expect(ended == ["t"])
            try await ledger.bind(claim, uid: Self.tag, digest: Self.digest)
            try await ledger.advance(claim, uid: Self.tag, recording: .written, next: .done(outcome: "written"))
            #expect(Self.connectionEvents(events) == ["started", "succeeded"])
            #expect(try await job.states() == ["done": 1, "pending": 4])
        }
    }

    @Test("The server restarted between two steps: the station reconnects and the job goes on")
    func serverRestart() async throws {
        try await PostgresTestServer.running { server in
            try await withJob(in: server) { job, ledger, events in
                guard case .provision(let claim) = try await ledger.assign(uid: Self.tag, station: "test-host/a")
                else {
                    Issue.record("no row")
                    return
                }
                try await ledger.bind(claim, uid: Self.tag, digest: Self.digest)
                try await server.restart()
                try await ledger.advance(claim, uid: Self.tag, recording: .written, next: .lock)
                try await ledger.advance(
                    claim, uid: Self.tag, recording: .locked, next: .done(outcome: "written+locked"))
                #expect(Self.connectionEvents(events) == ["started", "succeeded"])
                #expect(try await job.states() == ["done": 1, "pending": 4])
            }
        }
    }

    @Test("The server down for longer than the lease between bind and lock: the station does not lock")
    func downLongerThanTheLease() async throws {
        try await PostgresTestServer.running { server in
            // A lease no scheduling delay can use up; it runs out while the server is down, by an
            // update of the server's own record, so the verdict does not depend on the clock.
            try await withJob(in: server, leaseSeconds: 3600) { job, ledger, events in
                guard case .provision(let claim) = try await ledger.assign(uid: Self.tag, station: "test-host/a")
                else {
                    Issue.record("no row")
                    return
                }
                try await ledger.bind(claim, uid: Self.tag, digest: Self.digest)
                try await server.stop()
                // The station tries to announce its lock while the server is down.
                let announce = Task {
                    try await ledger.advance(claim, uid: Self.tag, recording: .written, next: .lock)
                }
                #expect(await eventually(within: .seconds(60)) { Self.connectionEvents(events).contains("started") })
                try await server.runWhileStopped(
                    "UPDATE ndeftool_rows SET lease_expires_at = now() - interval '1 second' WHERE row_number = 1",
                    database: job.database.name)
                try await server.startAgain()
                await #expect(throws: ProvisioningError(.leaseLost, "")) { try await announce.value }
                #expect(Self.connectionEvents(events) == ["started", "succeeded"])
                #expect(
                    try await job.database.value(
                        "SELECT state, cardinality(steps) FROM ndeftool_rows WHERE row_number = 1") == "writing|0")
            }
        }
    }
}
