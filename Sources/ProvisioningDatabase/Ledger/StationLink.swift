import Provisioning
import Synchronization

/// One station's way to the job's database: its connection, the claim it holds, what it is
/// doing, and the heartbeat that renews the claim and says the station is alive.
final class StationLink: Sendable {
    /// The station's name in the job.
    let name: String
    /// Its connection, used by nothing else.
    let connection: PostgresConnection
    private let status = Mutex<(claim: ProvisioningClaimToken?, state: String)>((nil, "started"))
    private let heartbeat = Mutex<Task<Void, Never>?>(nil)

    /// What a heartbeat needs of a claim: its row and fencing token.
    struct ProvisioningClaimToken: Sendable {
        var row: Int
        var generation: Int64
    }

    /// The link of station `name` over `connection`.
    init(name: String, connection: PostgresConnection) {
        self.name = name
        self.connection = connection
    }

    /// Records the claim the station holds now (nil: none), for the heartbeat to renew.
    func hold(_ claim: ProvisioningClaim?) {
        status.withLock { $0.claim = claim.map { ProvisioningClaimToken(row: $0.row, generation: $0.generation) } }
    }

    /// Records what the station is doing, for the next heartbeat to tell.
    func note(_ state: String) { status.withLock { $0.state = state } }

    /// Starts the heartbeat: every `interval` on `clock`, one statement renews the lease of the
    /// claim held (only while it is running and still the station's: a lease that ran out stays
    /// out) and updates the station's `last_seen` and state. A failed heartbeat is skipped: the
    /// station's next statement reconnects.
    func startHeartbeat(every interval: Duration, clock: any Clock<Duration>, job: DatabaseJob) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self else { return }
                let (claim, state) = status.withLock { ($0.claim, $0.state) }
                let parameters: [String?] = [
                    String(job.id), name, state, claim.map { String($0.row) }, String(job.leaseSeconds),
                    claim.map { String($0.generation) },
                ]
                _ = try? await connection.run { connection throws(DatabaseError) in
                    try connection.execute(Self.heartbeatStatement, parameters)
                }
            }
        }
        heartbeat.withLock { $0 = task }
    }

    /// Stops the heartbeat.
    func stopHeartbeat() { heartbeat.withLock { $0 }?.cancel() }

    /// The heartbeat: the lease renewed while it runs, the station seen.
    static let heartbeatStatement = """
        WITH renewed AS (
            UPDATE ndeftool_rows SET lease_expires_at = now() + make_interval(secs => $5::integer)
            WHERE job_id = $1 AND row_number = $4::integer AND station = $2 AND lease_generation = $6::bigint
              AND lease_expires_at > now() AND state <> 'done')
        UPDATE ndeftool_stations SET last_seen = now(), state = $3 WHERE job_id = $1 AND name = $2
        """

    deinit { heartbeat.withLock { $0 }?.cancel() }
}
