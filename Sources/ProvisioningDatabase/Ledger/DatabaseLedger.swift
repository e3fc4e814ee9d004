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
    private let links = Mutex<[String: StationLink]>([:])
    private let failureState = Mutex<ProvisioningError?>(nil)
    private let stopping = Atomic<Bool>(false)
    private let statements = Atomic<Int>(0)
    /// Whether a station got a row since ``isComplete()`` last asked the database: the job was
    /// not complete then, and asking again before the next tag would be a round trip per tag.
    private let claimedSinceCheck = Atomic<Bool>(false)

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
        let rows = try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                "SELECT * FROM ndeftool_claim($1, $2, $3, $4)",
                [String(job.id), DatabaseBytes.encode(uid), station, String(lease)])
        }
        guard let row = rows.first else {
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
            let claim = try Self.claim(row, number: number, station: station)
            link.hold(claim)
            claimedSinceCheck.store(true, ordering: .relaxed)
            guard kind == "finish" else { return .provision(claim) }
            let steps = (row.text("claim_steps").map(Self.textArray) ?? []).compactMap(ProvisioningState.Stage.init)
            let stage = row.text("claim_state").flatMap(ProvisioningState.Stage.init) ?? .writing
            return .finish(
                claim,
                progress: ProvisioningState.RowStatus(
                    row: number, stage: stage, reader: station, uid: uid, digest: row.bytes("claim_digest"),
                    steps: steps))
        }
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

    // MARK: The job

    public func isComplete() async -> Bool {
        if claimedSinceCheck.exchange(false, ordering: .relaxed) { return false }
        let job = self.job
        let link: StationLink
        if let any = links.withLock({ $0.values.first }) {
            link = any
        } else {
            return false
        }
        // One attempt: a station that cannot tell goes on waiting for tags, and its next tag's
        // claim reconnects.
        let rows = try? await link.connection.run { connection throws(DatabaseError) in
            try connection.execute(
                """
                SELECT NOT EXISTS (SELECT 1 FROM ndeftool_rows WHERE job_id = $1 AND state <> 'done'
                                   AND NOT (state = 'failed' AND uid IS NULL)) AS complete
                """, [String(job.id)])
        }
        return rows?.first?.bool("complete") == true
    }

    public func counts() async -> ProvisioningLedgerCounts {
        let job = self.job
        let rows = try? await database.withConnection("counts") { connection throws(DatabaseError) in
            try connection.execute(
                """
                SELECT count(*) FILTER (WHERE state = 'done') AS done,
                       count(*) FILTER (WHERE state = 'pending' OR (state = 'claimed' AND uid IS NULL)) AS pending,
                       coalesce(array_agg(row_number ORDER BY row_number)
                           FILTER (WHERE state = 'failed' AND uid IS NULL), '{}') AS failed,
                       coalesce(array_agg(row_number ORDER BY row_number)
                           FILTER (WHERE uid IS NOT NULL AND state <> 'done'), '{}') AS unfinished
                FROM ndeftool_rows WHERE job_id = $1
                """, [String(job.id)])
        }
        guard let row = rows?.first else {
            return ProvisioningLedgerCounts(doneRows: 0, failedRows: [], unfinishedRows: [], pendingRows: 0)
        }
        return ProvisioningLedgerCounts(
            doneRows: row.int("done") ?? 0, failedRows: Self.textArray(row.text("failed") ?? "").compactMap { Int($0) },
            unfinishedRows: Self.textArray(row.text("unfinished") ?? "").compactMap { Int($0) },
            pendingRows: row.int("pending") ?? 0)
    }

    public func stationState(_ state: ProvisioningStationState, station: String) {
        links.withLock { $0[station] }?.note(state.description)
    }

    public func stationStopped(_ station: String, reason: String) async {
        guard let link = links.withLock({ $0.removeValue(forKey: station) }) else { return }
        link.stopHeartbeat()
        let job = self.job
        // Best effort: a claim without a tag goes back to the pool now rather than when its
        // lease ends.
        _ = try? await link.connection.run { connection throws(DatabaseError) in
            try connection.execute(
                """
                WITH released AS (
                    UPDATE ndeftool_rows SET state = 'pending', station = NULL, lease_expires_at = NULL,
                        updated_at = now()
                    WHERE job_id = $1 AND station = $2 AND state = 'claimed' AND uid IS NULL)
                UPDATE ndeftool_stations SET state = $3, last_seen = now() WHERE job_id = $1 AND name = $2
                """, [String(job.id), station, "stopped: \(reason)"])
        }
        await link.connection.close()
    }

    // MARK: Stations' connections

    /// The link of `station`: made, registered in `ndeftool_stations` and given its heartbeat at
    /// the station's first call.
    private func link(for station: String) async throws(ProvisioningError) -> StationLink {
        if let link = links.withLock({ $0[station] }) { return link }
        let link = StationLink(
            name: station, connection: PostgresConnection(database.target, applicationName: "ndeftool station"))
        let (job, host) = (self.job, settings.host)
        let reader = station.hasPrefix(host + "/") ? String(station.dropFirst(host.count + 1)) : station
        try await perform(link) { connection throws(DatabaseError) in
            try connection.execute(
                """
                INSERT INTO ndeftool_stations (job_id, name, host, reader, state) VALUES ($1, $2, $3, $4, 'started')
                ON CONFLICT (job_id, name) DO UPDATE SET host = excluded.host, reader = excluded.reader,
                    state = excluded.state, started_at = now(), last_seen = now()
                """, [String(job.id), station, host, reader])
        }
        let winner = links.withLock { links in
            if let existing = links[station] { return existing }
            links[station] = link
            return link
        }
        if winner === link {
            link.startHeartbeat(
                every: settings.heartbeat ?? .milliseconds(job.leaseSeconds * 250), clock: settings.clock, job: job)
        }
        return winner
    }

    /// Runs `body` on `link`'s connection; a lost connection is reconnected with backoff (and
    /// reported) and `body` runs again, until it succeeds or the ledger is stopped. Any other
    /// failure of the database stops the job (``failure``), except a UID bound to another row,
    /// which refuses the tag.
    @discardableResult
    private func perform<Value: Sendable>(
        _ link: StationLink, _ body: @escaping @Sendable (isolated PostgresConnection) throws(DatabaseError) -> Value
    ) async throws(ProvisioningError) -> Value {
        if let failure { throw failure }
        var attempt = 0
        var lastReason: String?
        while true {
            do {
                statements.add(1, ordering: .relaxed)
                let value = try await link.connection.run(body)
                if lastReason != nil {
                    onEvent(.database(station: link.name, .reconnectSucceeded(readerName: database.target.display)))
                }
                return value
            } catch {
                if error.sqlState == "23505" {
                    throw ProvisioningError(
                        .refusedEvent, "the tag's UID is bound to another row of the job (two tags with one UID?)",
                        underlying: error)
                }
                guard error.isTransient else {
                    let failure = ProvisioningError(.database, error.description, underlying: error)
                    failureState.withLock { $0 = $0 ?? failure }
                    throw failure
                }
                if lastReason == nil {
                    onEvent(.database(station: link.name, .reconnectStarted(reason: error.reason)))
                }
                lastReason = error.reason
                if stopping.load(ordering: .relaxed) {
                    onEvent(
                        .database(
                            station: link.name,
                            .reconnectFailed(NFCReaderError(.readerUnavailable, "stopped while reconnecting"))))
                    throw ProvisioningError(
                        .database, "the database could not be reached: \(error.reason)", underlying: error)
                }
                attempt += 1
                try? await settings.clock.sleep(for: backoff(attempt))
            }
        }
    }

    /// The wait before reconnection attempt `attempt` (1, 2, ...): doubling from
    /// ``Settings/firstBackoff`` up to ``Settings/maximumBackoff``.
    func backoff(_ attempt: Int) -> Duration {
        var wait = settings.firstBackoff
        for _ in 1..<max(1, min(attempt, 20)) where wait < settings.maximumBackoff { wait *= 2 }
        return min(wait, settings.maximumBackoff)
    }

    /// The refusal of a step named by `claim` when its lease is no longer the station's.
    private func leaseLost(_ claim: ProvisioningClaim, before step: String) -> ProvisioningError {
        ProvisioningError(
            .leaseLost,
            "the claim on row \(claim.row) expired or was taken over before \(step) (the database was out of reach "
                + "for longer than the job's \(job.leaseSeconds) s lease): the tag was left as it is; it finishes "
                + "its row when it is brought back to a reader of the job")
    }

    /// The claim of a row the claim function returned.
    private static func claim(
        _ row: DatabaseRows.Row, number: Int, station: String
    ) throws(ProvisioningError) -> ProvisioningClaim {
        guard let generation = row.text("claim_generation").flatMap({ Int64($0) }),
            let line = row.int("claim_line"), let text = row.text("claim_values")
        else {
            throw ProvisioningError(.database, "the claim of row \(number) lacks its token or values")
        }
        let object: JSONValue
        do {
            object = try DatabaseJob.parse(text, "plan_values")
        } catch {
            throw ProvisioningError(.database, error.reason, underlying: error)
        }
        guard case .object(let members) = object else {
            throw ProvisioningError(.database, "plan_values of row \(number) is not an object")
        }
        var values: [String: String] = [:]
        for member in members { values[member.key] = member.value.string ?? "" }
        return ProvisioningClaim(
            row: number, values: ProvisioningRow(number: number, line: line, values: values), station: station,
            generation: generation)
    }

    /// The elements of a one-dimensional array in PostgreSQL's text form (`{a,b}`) whose
    /// elements need no quoting (step names, numbers).
    static func textArray(_ text: String) -> [String] {
        guard text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return [] }
        return text.dropFirst().dropLast().split(separator: ",").map(String.init)
    }
}
