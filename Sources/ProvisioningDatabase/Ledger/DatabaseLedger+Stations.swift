import JSONSupport
import NFCSession
import Provisioning
import Synchronization

/// The job as a whole, and the stations' connections: the retries, the backoff, the lease
/// refusals.
extension DatabaseLedger {
    // MARK: The job

    public func isComplete() async -> Bool {
        if claimedSinceCheck.exchange(false, ordering: .relaxed) { return false }
        let job = self.job
        // A station's connection, or, before any station has one (no tag yet), the ledger's own.
        let connection = links.withLock { $0.values.first?.connection } ?? monitor
        // One attempt: a station that cannot tell goes on waiting for tags, and its next tag's
        // claim reconnects.
        let rows = try? await connection.run { connection throws(DatabaseError) in
            try connection.execute(
                """
                SELECT NOT EXISTS (SELECT 1 FROM ndeftool_rows WHERE job_id = $1 AND state <> 'done'
                                   AND NOT (state = 'failed' AND uid IS NULL)) AS complete
                """, [String(job.id)])
        }
        return rows?.first?.bool("complete") == true
    }

    /// The job's counts, asked up to ten times while the database cannot be reached (a
    /// doubling pause between); all zero when it never answered.
    public func counts() async -> ProvisioningLedgerCounts {
        var rows: DatabaseRows?
        for attempt in 1...10 {
            do {
                rows = try await countRows()
                break
            } catch {
                guard error.isTransient else { break }
                try? await settings.clock.sleep(for: backoff(attempt))
            }
        }
        guard let row = rows?.first else {
            return ProvisioningLedgerCounts(doneRows: 0, failedRows: [], unfinishedRows: [], pendingRows: 0)
        }
        var counts = ProvisioningLedgerCounts(
            doneRows: row.int("done") ?? 0, failedRows: Self.textArray(row.text("failed") ?? "").compactMap { Int($0) },
            unfinishedRows: Self.textArray(row.text("unfinished") ?? "").compactMap { Int($0) },
            pendingRows: row.int("pending") ?? 0)
        counts.rowsInProgressElsewhere = Self.textArray(row.text("in_progress") ?? "").compactMap { Int($0) }
        return counts
    }

    /// The row of counts ``counts()`` reads.
    private func countRows() async throws(DatabaseError) -> DatabaseRows {
        let job = self.job
        return try await database.withConnection("counts") { connection throws(DatabaseError) in
            try connection.execute(
                """
                SELECT count(*) FILTER (WHERE state = 'done') AS done,
                       count(*) FILTER (WHERE state = 'pending' OR (state = 'claimed' AND uid IS NULL)) AS pending,
                       coalesce(array_agg(row_number ORDER BY row_number)
                           FILTER (WHERE state = 'failed' AND uid IS NULL), '{}') AS failed,
                       coalesce(array_agg(row_number ORDER BY row_number)
                           FILTER (WHERE uid IS NOT NULL AND state <> 'done'
                                   AND (lease_expires_at IS NULL OR lease_expires_at <= now())), '{}') AS unfinished,
                       coalesce(array_agg(row_number ORDER BY row_number)
                           FILTER (WHERE uid IS NOT NULL AND state <> 'done' AND lease_expires_at > now()),
                           '{}') AS in_progress
                FROM ndeftool_rows WHERE job_id = $1
                """, [String(job.id)])
        }
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
    func link(for station: String) async throws(ProvisioningError) -> StationLink {
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
    func perform<Value: Sendable>(
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
    func leaseLost(_ claim: ProvisioningClaim, before step: String) -> ProvisioningError {
        ProvisioningError(
            .leaseLost,
            "the claim on row \(claim.row) expired or was taken over before \(step) (the database was out of reach "
                + "for longer than the job's \(job.leaseSeconds) s lease): the tag was left as it is; it finishes "
                + "its row when it is brought back to a reader of the job")
    }

    /// What the claim function returned for row `number`: a claim, or a row whose values cannot
    /// be used (edited by hand into something other than an object of the job's fields, each a
    /// string), with its fencing token and why.
    enum ClaimedRow {
        case claim(ProvisioningClaim)
        case unusable(ProvisioningClaim, reason: String)
    }

    /// The claim of a row the claim function returned; a row whose `plan_values` is not an
    /// object holding each of `fields` as a string is `unusable`, with the reason.
    static func claim(
        _ row: DatabaseRows.Row, number: Int, station: String, fields: [String]
    ) throws(ProvisioningError) -> ClaimedRow {
        guard let generation = row.text("claim_generation").flatMap({ Int64($0) }),
            let line = row.int("claim_line"), let text = row.text("claim_values")
        else {
            throw ProvisioningError(.database, "the claim of row \(number) lacks its token or values")
        }
        let empty = ProvisioningClaim(
            row: number, values: ProvisioningRow(number: number, line: line, values: [:]), station: station,
            generation: generation)
        let object: JSONValue
        do {
            object = try DatabaseJob.parse(text, "plan_values")
        } catch {
            return .unusable(empty, reason: "its plan_values are not JSON: \(error.reason)")
        }
        guard case .object(let members) = object else {
            return .unusable(empty, reason: "its plan_values are not an object of the plan's fields")
        }
        var values: [String: String] = [:]
        for member in members {
            guard let value = member.value.string else {
                return .unusable(empty, reason: "its plan_values hold a \(member.key) that is not a string")
            }
            values[member.key] = value
        }
        if let missing = fields.first(where: { values[$0] == nil }) {
            return .unusable(empty, reason: "its plan_values have no \(missing)")
        }
        var claim = empty
        claim.values = ProvisioningRow(number: number, line: line, values: values)
        return .claim(claim)
    }

    /// The elements of a one-dimensional array in PostgreSQL's text form (`{a,b}`) whose
    /// elements need no quoting (step names, numbers).
    static func textArray(_ text: String) -> [String] {
        guard text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return [] }
        return text.dropFirst().dropLast().split(separator: ",").map(String.init)
    }
}
