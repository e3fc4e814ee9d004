import JSONSupport
import NFCSession
import Provisioning
import Synchronization

/// The ledger of a job kept in PostgreSQL (``DatabaseJob``): stations in any number of
/// processes, on any number of machines, share it.
///
/// - Each station has a libpq connection of its own, on a thread of its own.
/// - A tag gets its row in one statement (`ndeftool_claim`): the row it is bound to, or the first
///   row of the pool, taken with `FOR UPDATE SKIP LOCKED`, so stations never wait on each other
///   and never get the same row.
/// - A claim is a lease of ``DatabaseJob/leaseSeconds`` with a fencing token (the row's
///   `lease_generation`, raised by every claim). The station renews it while it works, and every
///   step names it: binding the row to the tag before the first WRITE and announcing a lock or a
///   password check that the lease is still the station's and still running, in the statement
///   that records the step. A station that could not reach the database for longer than its
///   lease gets ``Provisioning/ProvisioningError/Code/leaseLost`` and leaves the tag alone; the
///   row stays bound to the tag, and the tag finishes it at any station of the job.
/// - A lost connection (a server restart, `pg_terminate_backend`, the network) is reconnected
///   with exponential backoff, reported as reader-lifecycle events
///   (``Provisioning/ProvisioningJobEvent/database(station:_:)``), and the statement runs again:
///   every statement is idempotent for its claim, so one whose answer was lost changes nothing
///   the second time.
/// - The master secret and passwords are never sent to the server: only row numbers, UIDs,
///   SHA-256 digests of messages, step names, outcomes and reasons.
public final class DatabaseLedger: ProvisioningLedger {
    /// How a ledger's stations reach the database.
    public struct Settings: Sendable {
        /// The machine's name, recorded with each station.
        public var host: String
        /// The clock reconnection waits on (by default one whose waits end on a dispatch timer).
        public var clock: any Clock<Duration>
        /// The first wait before reconnecting; each failure doubles it, up to ``maximumBackoff``.
        public var firstBackoff: Duration
        /// The longest wait between two reconnection attempts.
        public var maximumBackoff: Duration
        /// How often a station renews the claim it holds and says it is alive; nil: a quarter
        /// of the job's lease.
        public var heartbeat: Duration?

        /// Settings for stations on `host`.
        public init(
            host: String, clock: any Clock<Duration> = DispatchTimerClock(),
            firstBackoff: Duration = .milliseconds(100),
            maximumBackoff: Duration = .seconds(5), heartbeat: Duration? = nil
        ) {
            self.host = host
            self.clock = clock
            self.firstBackoff = firstBackoff
            self.maximumBackoff = maximumBackoff
            self.heartbeat = heartbeat
        }
    }

    /// The job.
    public let job: DatabaseJob
    /// Its database.
    public let database: JobDatabase
    /// How stations reach it.
    public let settings: Settings
    let onEvent: @Sendable (ProvisioningJobEvent) -> Void
    let links = Mutex<[String: StationLink]>([:])
    /// The connection ``isComplete()`` asks on before any station has one of its own.
    let monitor: PostgresConnection
    let failureState = Mutex<ProvisioningError?>(nil)
    let stopping = Atomic<Bool>(false)
    let statements = Atomic<Int>(0)
    /// Whether a station got a row since ``isComplete()`` last asked the database: the job was
    /// not complete then, and asking again before the next tag would be a round trip per tag.
    let claimedSinceCheck = Atomic<Bool>(false)

    /// The statements the stations sent so far (each a round trip; a retry counts again), for
    /// the benchmarks: three per tag written, one more per lock or password step.
    public var statementCount: Int { statements.load(ordering: .relaxed) }

    /// The ledger of `job` in `database`, reporting connection changes to `onEvent`.
    public init(
        job: DatabaseJob, database: JobDatabase, settings: Settings,
        onEvent: @escaping @Sendable (ProvisioningJobEvent) -> Void = { _ in }
    ) {
        self.job = job
        self.database = database
        self.settings = settings
        self.onEvent = onEvent
        monitor = PostgresConnection(database.target, applicationName: "ndeftool monitor")
    }

    public var rowCount: Int { job.header.planRowCount }

    public var failure: ProvisioningError? { failureState.withLock { $0 } }

    /// Stops waiting for the database: a station reconnecting gives up (its tag's row stays as
    /// the database has it). Called when the job is stopped.
    public func stop() { stopping.store(true, ordering: .relaxed) }

    // MARK: Rows

    public func assign(uid: [UInt8], station: String) async throws(ProvisioningError) -> ProvisioningAssignment {
        let link = try await link(for: station)
        let (job, lease) = (self.job, self.job.leaseSeconds)
        // Each pass fails one unusable row for good, so the loop ends when the rows do.
        while true {
            let rows = try await perform(link) { connection throws(DatabaseError) in
                try connection.execute(
                    "SELECT * FROM ndeftool_claim($1, $2, $3, $4)",
                    [String(job.id), DatabaseBytes.encode(uid), station, String(lease)])
            }
            guard let row = rows.first else { return try await noRowLeft(link) }
            guard let kind = row.text("claim_kind"), let number = row.int("claim_row") else {
                throw ProvisioningError(.database, "the claim function answered without a row")
            }
            switch kind {
            case "done":
                return .refuse(reason: "it is already done in this job (row \(number))", doneRow: number)
            case "busy":
                let holder = row.text("claim_holder") ?? "another station"
                return .refuse(reason: "its row \(number) is being finished at \(holder)", doneRow: nil)
            default:
                switch try Self.claim(row, number: number, station: station, fields: job.fields) {
                case .unusable(let claim, let reason) where kind == "finish":
                    link.hold(claim)
                    try await interrupted(claim, uid: uid, reason: "row \(number) cannot be finished: \(reason)")
                    return .refuse(reason: "its row \(number) cannot be finished: \(reason)", doneRow: nil)
                case .unusable(let claim, let reason):
                    // Nothing was written for it: the row fails for the report, the tag takes the next.
                    link.hold(claim)
                    try await cannotBuild(claim, reason: "row \(number) cannot be rendered: \(reason)")
                    continue
                case .claim(let claim):
                    link.hold(claim)
                    claimedSinceCheck.store(true, ordering: .relaxed)
                    guard kind == "finish" else { return .provision(claim) }
                    let steps = (row.text("claim_steps").map(Self.textArray) ?? []).compactMap(
                        ProvisioningState.Stage.init)
                    let stage = row.text("claim_state").flatMap(ProvisioningState.Stage.init) ?? .writing
                    return .finish(
                        claim,
                        progress: ProvisioningState.RowStatus(
                            row: number, stage: stage, reader: station, uid: uid, digest: row.bytes("claim_digest"),
                            steps: steps))
                }
            }
        }
    }

    /// The refusal of a tag when the claim function found no row for it.
    private func noRowLeft(_ link: StationLink) async throws(ProvisioningError) -> ProvisioningAssignment {
        let job = self.job
        let waiting = try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                "SELECT EXISTS (SELECT 1 FROM ndeftool_rows WHERE job_id = $1 AND uid IS NOT NULL AND state <> 'done') "
                    + "AS waiting", [String(job.id)])
        }
        let reason =
            waiting.first?.bool("waiting") == true
            ? "every row left is waiting for the tag it was started on" : "every row of the job has a tag"
        return .refuse(reason: reason + ": this tag was not written", doneRow: nil)
    }

    public func bind(_ claim: ProvisioningClaim, uid: [UInt8], digest: [UInt8]) async throws(ProvisioningError) {
        let link = try await link(for: claim.station)
        let (job, lease) = (self.job, self.job.leaseSeconds)
        let rows = try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                """
                UPDATE ndeftool_rows SET state = 'writing', uid = $3, digest = $4, steps = '{}', reason = NULL,
                    lease_expires_at = now() + make_interval(secs => $6), updated_at = now()
                WHERE job_id = $1 AND row_number = $2 AND station = $5 AND lease_generation = $7
                  AND lease_expires_at > now() AND state <> 'done' AND (uid IS NULL OR uid = $3)
                RETURNING row_number
                """,
                [
                    String(job.id), String(claim.row), DatabaseBytes.encode(uid), DatabaseBytes.encode(digest),
                    claim.station, String(lease), String(claim.generation),
                ])
        }
        guard !rows.isEmpty else { throw leaseLost(claim, before: "writing") }
    }

    public func advance(
        _ claim: ProvisioningClaim, uid: [UInt8], recording: ProvisioningState.Stage?, next: ProvisioningNextStep
    ) async throws(ProvisioningError) {
        let link = try await link(for: claim.station)
        let (job, lease) = (self.job, self.job.leaseSeconds)
        var outcome: String?
        if case .done(let text) = next { outcome = text }
        let fence = outcome == nil
        let parameters: [String?] = [
            String(job.id), String(claim.row), DatabaseBytes.encode(uid), recording?.rawValue,
            outcome == nil ? "f" : "t", outcome, String(claim.generation), String(lease), claim.station,
            fence ? "t" : "f",
        ]
        let rows = try await perform(link) { connection throws(DatabaseError) in
            let advanced = try connection.execute(Self.advanceStatement, parameters)
            if !advanced.isEmpty { return advanced }
            // Nothing changed: an earlier attempt whose answer was lost may have recorded it.
            return try connection.execute(
                """
                SELECT state FROM ndeftool_rows
                WHERE job_id = $1 AND row_number = $2 AND uid = $3 AND lease_generation = $4 AND state = 'done'
                """, [String(job.id), String(claim.row), DatabaseBytes.encode(uid), String(claim.generation)])
        }
        guard !rows.isEmpty else {
            throw leaseLost(claim, before: fence ? (next == .lock ? "locking" : "setting the password") : "recording")
        }
        if outcome != nil { link.hold(nil) }
    }

    /// Records a step and announces the next in one statement: the row's step, its state, its
    /// lease renewed (or, when done, ended), and the station's count of rows done. `$10` asks
    /// for the lease to be still running (before a lock or a password).
    static let advanceStatement = """
        WITH advanced AS (
            UPDATE ndeftool_rows SET
                steps = CASE WHEN $4::text IS NULL OR $4::text = ANY (steps) THEN steps ELSE steps || $4::text END,
                state = CASE WHEN $5::boolean THEN 'done' WHEN $4::text IS NULL THEN state ELSE $4::text END,
                outcome = CASE WHEN $5::boolean THEN $6 ELSE outcome END,
                reason = CASE WHEN $5::boolean THEN NULL ELSE reason END,
                done_at = CASE WHEN $5::boolean THEN now() ELSE done_at END,
                lease_expires_at = CASE WHEN $5::boolean THEN NULL ELSE now() + make_interval(secs => $8::integer) END,
                updated_at = now()
            WHERE job_id = $1 AND row_number = $2 AND uid = $3 AND lease_generation = $7 AND station = $9
              AND state <> 'done' AND (NOT $10::boolean OR lease_expires_at > now())
            RETURNING state),
        counted AS (
            UPDATE ndeftool_stations SET tags_done = tags_done + 1, last_seen = now()
            WHERE job_id = $1 AND name = $9 AND EXISTS (SELECT 1 FROM advanced WHERE state = 'done'))
        SELECT state FROM advanced
        """

    public func refusedBeforeWrite(
        _ claim: ProvisioningClaim, uid: [UInt8], reason: String
    ) async throws(ProvisioningError) {
        let link = try await link(for: claim.station)
        let job = self.job
        try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                """
                UPDATE ndeftool_rows SET state = 'pending', uid = NULL, digest = NULL, steps = '{}', station = NULL,
                    lease_expires_at = NULL, reason = $5, updated_at = now()
                WHERE job_id = $1 AND row_number = $2 AND lease_generation = $3 AND uid = $4 AND state = 'writing'
                  AND steps = '{}'
                """,
                [String(job.id), String(claim.row), String(claim.generation), DatabaseBytes.encode(uid), reason])
        }
        link.hold(nil)
    }

    public func refusedAsTooLarge(
        _ claim: ProvisioningClaim, uid: [UInt8], length: Int, reason: String, largestCapacity: Int?,
        refusalLimit: Int
    ) async throws(ProvisioningError) -> String? {
        let link = try await link(for: claim.station)
        let job = self.job
        let failure = try await perform(link) { connection throws(DatabaseError) -> String? in
            try connection.transaction { connection throws(DatabaseError) -> String? in
                let current = try connection.execute(
                    """
                    SELECT size_refusals FROM ndeftool_rows
                    WHERE job_id = $1 AND row_number = $2 AND lease_generation = $3 AND uid = $4 AND state = 'writing'
                      AND steps = '{}'
                    FOR UPDATE
                    """, [String(job.id), String(claim.row), String(claim.generation), DatabaseBytes.encode(uid)])
                guard let refusals = current.first?.int("size_refusals").map({ $0 + 1 }) else { return nil }
                let failure = ProvisioningSizeRefusal.failure(
                    length: length, refusals: refusals, reason: reason, largestCapacity: largestCapacity,
                    refusalLimit: refusalLimit)
                try connection.execute(
                    """
                    UPDATE ndeftool_rows SET state = $4, uid = NULL, digest = NULL, steps = '{}', station = NULL,
                        lease_expires_at = NULL, reason = $5, size_refusals = $3, updated_at = now()
                    WHERE job_id = $1 AND row_number = $2
                    """,
                    [
                        String(job.id), String(claim.row), String(refusals), failure == nil ? "pending" : "failed",
                        failure ?? reason,
                    ])
                return failure
            }
        }
        link.hold(nil)
        return failure
    }

    public func interrupted(_ claim: ProvisioningClaim, uid: [UInt8], reason: String) async throws(ProvisioningError) {
        let link = try await link(for: claim.station)
        let job = self.job
        try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                """
                UPDATE ndeftool_rows SET state = 'failed', reason = $5, lease_expires_at = NULL, updated_at = now()
                WHERE job_id = $1 AND row_number = $2 AND lease_generation = $3 AND uid = $4 AND state <> 'done'
                """,
                [String(job.id), String(claim.row), String(claim.generation), DatabaseBytes.encode(uid), reason])
        }
        link.hold(nil)
    }

    public func cannotBuild(_ claim: ProvisioningClaim, reason: String) async throws(ProvisioningError) {
        try await release(claim, state: "failed", reason: reason)
    }

    public func giveBack(_ claim: ProvisioningClaim) async throws(ProvisioningError) {
        try await release(claim, state: "pending", reason: nil)
    }

    /// Ends `claim` on a row no tag is bound to: back to the pool (`pending`) or failed for good.
    private func release(_ claim: ProvisioningClaim, state: String, reason: String?) async throws(ProvisioningError) {
        let link = try await link(for: claim.station)
        let job = self.job
        try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                """
                UPDATE ndeftool_rows SET state = $4, reason = coalesce($5, reason), station = NULL,
                    lease_expires_at = NULL, updated_at = now()
                WHERE job_id = $1 AND row_number = $2 AND lease_generation = $3 AND uid IS NULL AND state = 'claimed'
                """, [String(job.id), String(claim.row), String(claim.generation), state, reason])
        }
        link.hold(nil)
    }
}
