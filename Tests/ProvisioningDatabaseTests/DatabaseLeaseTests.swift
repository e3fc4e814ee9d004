import NDEF
import NFCSession
import Provisioning
import TestSupport
import Testing

@testable import ProvisioningDatabase

/// Claims as leases with fencing tokens, through the ledger's calls against a real server:
/// what a station may still do once its lease ran out or another station took the row.
@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct DatabaseLeaseTests {
    static let firstTag: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    static let secondTag: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x77]
    static let digest = [UInt8](repeating: 0xAB, count: 32)

    /// Runs `body` with a 5-row job and its ledger, then drops the database.
    func withJob(
        leaseSeconds: Int = 60, _ body: (DatabaseCounterJob, DatabaseJob, DatabaseLedger) async throws -> Void
    ) async throws {
        let job = try await DatabaseCounterJob(rows: 5)
        do {
            let created = try await job.create(leaseSeconds: leaseSeconds)
            let ledger = job.ledger(created, heartbeat: .seconds(3600))
            try await body(job, created, ledger)
            for station in ["test-host/a", "test-host/b"] { await ledger.stationStopped(station, reason: "test") }
            await job.database.drop()
        } catch {
            await job.database.drop()
            throw error
        }
    }

    /// Makes every lease of the job's rows run out now (the server's clock decides).
    func expireLeases(_ job: DatabaseCounterJob) async throws {
        try await job.database.psql(
            "UPDATE ndeftool_rows SET lease_expires_at = now() - interval '1 second' WHERE lease_expires_at IS NOT NULL"
        )
    }

    /// The claim of a `.provision` assignment.
    func claim(_ assignment: ProvisioningAssignment) throws -> ProvisioningClaim {
        guard case .provision(let claim) = assignment else {
            throw TestDatabaseError("expected a fresh row, got \(assignment)")
        }
        return claim
    }

    @Test("Two tags at two stations get two rows; the claim carries the row's plan values")
    func twoClaims() async throws {
        try await withJob { _, _, ledger in
            let first = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            let second = try claim(try await ledger.assign(uid: Self.secondTag, station: "test-host/b"))
            #expect(first.row == 1 && second.row == 2)
            #expect(first.values.values == ["counter": "0001"] && first.values.line == 1)
            #expect(first.generation == 1 && second.generation == 1)
        }
    }

    @Test("A claim no tag was bound to returns to the pool when its lease runs out; its old token is refused")
    func unboundClaimExpires() async throws {
        try await withJob { job, _, ledger in
            let stale = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            try await expireLeases(job)
            let again = try claim(try await ledger.assign(uid: Self.secondTag, station: "test-host/b"))
            #expect(again.row == stale.row && again.generation == stale.generation + 1)
            await #expect(throws: ProvisioningError(.leaseLost, "")) {
                try await ledger.bind(stale, uid: Self.firstTag, digest: Self.digest)
            }
            try await ledger.bind(again, uid: Self.secondTag, digest: Self.digest)
            #expect(
                try await job.database.value("SELECT upper(encode(uid, 'hex')) FROM ndeftool_rows WHERE row_number = 1")
                    == hexText(Self.secondTag))
        }
    }

    @Test("A station started again (its process died) takes back at once the claim it held without a tag")
    func sameStationTakesItsClaimBack() async throws {
        try await withJob { _, _, ledger in
            let orphan = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            let other = try claim(try await ledger.assign(uid: Self.secondTag, station: "test-host/b"))
            #expect(other.row == orphan.row + 1)
            let again = try claim(try await ledger.assign(uid: Self.secondTag, station: "test-host/a"))
            #expect(again.row == orphan.row && again.generation == orphan.generation + 1)
        }
    }

    @Test("A station whose lease ran out after binding does not lock: the row stays bound to its tag")
    func expiredLeaseStopsTheNextStep() async throws {
        try await withJob { job, _, ledger in
            let claim = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            try await ledger.bind(claim, uid: Self.firstTag, digest: Self.digest)
            try await expireLeases(job)
            await #expect(throws: ProvisioningError(.leaseLost, "")) {
                try await ledger.advance(claim, uid: Self.firstTag, recording: .written, next: .lock)
            }
            await #expect(throws: ProvisioningError(.leaseLost, "")) {
                try await ledger.advance(claim, uid: Self.firstTag, recording: nil, next: .password)
            }
            #expect(try await job.database.value("SELECT state FROM ndeftool_rows WHERE row_number = 1") == "writing")
            // The tag, brought to another station, finishes its own row under a new token.
            let resumed = try await ledger.assign(uid: Self.firstTag, station: "test-host/b")
            guard case .finish(let taken, let progress) = resumed else {
                Issue.record("expected the tag's own row, got \(resumed)")
                return
            }
            #expect(taken.row == claim.row && taken.generation == claim.generation + 1)
            #expect(progress.digest == Self.digest && progress.steps.isEmpty)
            try await ledger.advance(taken, uid: Self.firstTag, recording: .written, next: .done(outcome: "written"))
            #expect(try await job.states() == ["done": 1, "pending": 4])
        }
    }

    @Test(
        "Recording a verified step needs only the token: a lease that ran out with nobody taking over still records done"
    )
    func recordAfterExpiry() async throws {
        try await withJob { job, _, ledger in
            let claim = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            try await ledger.bind(claim, uid: Self.firstTag, digest: Self.digest)
            try await expireLeases(job)
            try await ledger.advance(claim, uid: Self.firstTag, recording: .written, next: .done(outcome: "written"))
            // Sent again (its answer lost): nothing changes, and it is not an error.
            try await ledger.advance(claim, uid: Self.firstTag, recording: .written, next: .done(outcome: "written"))
            #expect(
                try await job.database.value("SELECT tags_done FROM ndeftool_stations WHERE name = 'test-host/a'")
                    == "1")
        }
    }

    @Test(
        "A tag whose row is in progress at another station is refused there while the lease runs; the same station takes it back"
    )
    func busyRow() async throws {
        try await withJob { _, _, ledger in
            let claim = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            try await ledger.bind(claim, uid: Self.firstTag, digest: Self.digest)
            let elsewhere = try await ledger.assign(uid: Self.firstTag, station: "test-host/b")
            #expect(elsewhere == .refuse(reason: "its row 1 is being finished at test-host/a", doneRow: nil))
            // The same station (a process restarted after a crash) finishes it at once.
            let again = try await ledger.assign(uid: Self.firstTag, station: "test-host/a")
            guard case .finish(let taken, _) = again else {
                Issue.record("expected the row back, got \(again)")
                return
            }
            #expect(taken.generation == claim.generation + 1)
            await #expect(throws: ProvisioningError(.leaseLost, "")) {
                try await ledger.advance(claim, uid: Self.firstTag, recording: .written, next: .lock)
            }
        }
    }

    @Test("Two tags with one UID at two stations at once: the second bind is refused, the first row keeps its tag")
    func cloneRefused() async throws {
        try await withJob { job, _, ledger in
            let first = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            let second = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/b"))
            #expect(first.row != second.row)
            try await ledger.bind(first, uid: Self.firstTag, digest: Self.digest)
            await #expect(throws: ProvisioningError(.refusedEvent, "")) {
                try await ledger.bind(second, uid: Self.firstTag, digest: Self.digest)
            }
            #expect(ledger.failure == nil)
            #expect(try await job.database.value("SELECT count(*) FROM ndeftool_rows WHERE uid IS NOT NULL") == "1")
        }
    }

    @Test("A ledger whose stations never saw a tag still tells that the job is complete")
    func completeWithoutATag() async throws {
        try await withJob { job, created, ledger in
            #expect(await ledger.isComplete() == false)
            try await job.database.psql("UPDATE ndeftool_rows SET state = 'done', outcome = 'written'")
            let fresh = job.ledger(created)
            #expect(await fresh.isComplete())
        }
    }

    @Test("A tag done in the job is refused with its row; a job with every row bound says so")
    func refusals() async throws {
        try await withJob { _, _, ledger in
            let claim = try claim(try await ledger.assign(uid: Self.firstTag, station: "test-host/a"))
            try await ledger.bind(claim, uid: Self.firstTag, digest: Self.digest)
            try await ledger.advance(claim, uid: Self.firstTag, recording: .written, next: .done(outcome: "written"))
            #expect(
                try await ledger.assign(uid: Self.firstTag, station: "test-host/b")
                    == .refuse(reason: "it is already done in this job (row 1)", doneRow: 1))
            #expect(await ledger.isComplete() == false)
        }
    }
}
