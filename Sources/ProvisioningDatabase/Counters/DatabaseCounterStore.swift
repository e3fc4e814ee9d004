import NFCSession
import NTAG424
import Synchronization

/// The read counters a verification server accepted, in PostgreSQL: an `NTAG424CounterStore`
/// that any number of processes, on any number of machines, share.
///
/// - Each request is one statement, `SELECT * FROM ndeftool_sun_accept(...)`, which decides it
///   atomically under the tag's row lock (the function and its proof are in the schema,
///   DatabaseSchema+SUNCounters.swift): each counter of a tag is accepted once at most, and a
///   tag's accepted counters rise in the order their transactions commit.
/// - libpq's calls block, so each connection is an actor on a dispatch queue of its own
///   (`PostgresConnection`): no thread of Swift's cooperative pool waits for the server.
///   ``Settings/connections`` connections take requests in turn; requests on one connection
///   wait for one another.
/// - A lost connection (a server restart, `pg_terminate_backend`, the network) is made again
///   and the same statement sent with the same token, up to ``Settings/attempts`` times in all,
///   after a doubling pause: a statement whose answer was lost after it committed is answered
///   "accepted" the second time, not taken for a replay.
/// - The schema is created or upgraded by the first request (``JobDatabase/migrate()``).
///
/// Only the key set name, the UID, the counter and the token go to the server: never a key.
public final class DatabaseCounterStore: NTAG424CounterStore {
    /// How the store reaches the database.
    public struct Settings: Sendable {
        /// The most times one request's statement is sent (1 or more): the first time, then
        /// once per reconnection after a lost connection. Counted, not timed.
        public var attempts: Int
        /// The pause before the first reconnection; each next one doubles it, up to
        /// ``maximumBackoff``.
        public var firstBackoff: Duration
        /// The longest pause between two attempts.
        public var maximumBackoff: Duration
        /// How many connections the store opens (1 or more), used in turn.
        public var connections: Int
        /// Whether every accepted counter is also recorded in `ndeftool_sun_accepts`, numbered in
        /// commit order: an audit log of the taps accepted, with which a repeat of a request is
        /// recognised even after a later counter of its tag (``NTAG424/NTAG424CounterStore``).
        public var keepsAcceptLog: Bool
        /// The clock the pauses are waited on (one whose waits end on a dispatch timer).
        public var clock: any Clock<Duration>
        /// The name the server shows for the store's connections (`application_name`).
        public var applicationName: String

        /// Settings; the defaults ride out a server restart of several seconds (10 attempts, a
        /// pause from 50 ms doubling to 2 s).
        public init(
            attempts: Int = 10, firstBackoff: Duration = .milliseconds(50), maximumBackoff: Duration = .seconds(2),
            connections: Int = 1, keepsAcceptLog: Bool = false, clock: any Clock<Duration> = DispatchTimerClock(),
            applicationName: String = "ndeftool counters"
        ) {
            self.attempts = attempts
            self.firstBackoff = firstBackoff
            self.maximumBackoff = maximumBackoff
            self.connections = connections
            self.keepsAcceptLog = keepsAcceptLog
            self.clock = clock
            self.applicationName = applicationName
        }
    }

    /// Where the database is.
    public let target: DatabaseTarget
    /// How the store reaches it.
    public let settings: Settings
    private let pool: [PostgresConnection]
    private let turn = Atomic<UInt>(0)
    private let schemaReady = Atomic<Bool>(false)
    private let statements = Atomic<Int>(0)

    /// A store in the database at `target`; nothing is connected before the first request.
    public init(_ target: DatabaseTarget, settings: Settings = Settings()) {
        self.target = target
        self.settings = settings
        pool = (0..<max(1, settings.connections)).map { _ in
            PostgresConnection(target, applicationName: settings.applicationName)
        }
    }

    /// The statements sent so far (each a round trip; a retry counts again).
    public var statementCount: Int { statements.load(ordering: .relaxed) }

    public func accept(_ request: NTAG424CounterRequest) async throws(NTAG424Error) -> NTAG424CounterDecision {
        do {
            return try await decide(request)
        } catch {
            throw NTAG424Error(.counterStoreUnavailable, "the counter store in the \(target.display): \(error)")
        }
    }

    /// ``accept(_:)`` with the database's own error.
    ///
    /// - Throws: ``DatabaseError`` when the store could not decide: the connection failed or
    ///   went on every attempt (``DatabaseError/Code/connectionFailed``,
    ///   ``DatabaseError/Code/connectionLost``), the schema is newer than this ndeftool's
    ///   (``DatabaseError/Code/schemaTooNew``), or the server refused the statement.
    public func decide(_ request: NTAG424CounterRequest) async throws(DatabaseError) -> NTAG424CounterDecision {
        let parameters: [String?] = [
            request.keySet, DatabaseBytes.encode(request.uid), String(request.counter), request.token,
            settings.keepsAcceptLog ? "t" : "f",
        ]
        let rows = try await perform { connection throws(DatabaseError) in
            try connection.execute("SELECT * FROM ndeftool_sun_accept($1, $2, $3, $4, $5)", parameters)
        }
        guard let row = rows.first, let accepted = row.bool("decision_accepted"), let last = row.int("decision_last")
        else {
            throw DatabaseError(.unexpectedData, "ndeftool_sun_accept answered without a decision")
        }
        return accepted ? .accepted(request.counter) : .replayed(lastAccepted: last)
    }

    /// The last counter accepted for the tag `uid` of `keySet`; nil when none was.
    public func lastAccepted(keySet: String, uid: [UInt8]) async throws(DatabaseError) -> Int? {
        let rows = try await perform { connection throws(DatabaseError) in
            try connection.execute(
                "SELECT counter FROM ndeftool_sun_counters WHERE key_set = $1 AND uid = $2",
                [keySet, DatabaseBytes.encode(uid)])
        }
        return rows.first?.int("counter")
    }

    /// Closes the store's connections (a later request connects again).
    public func close() async {
        for connection in pool { await connection.close() }
    }

    /// Runs `body` on the next connection, the schema made current first; a lost connection is
    /// made again after a pause and `body` runs again, up to ``Settings/attempts`` times.
    private func perform(
        _ body: @escaping @Sendable (isolated PostgresConnection) throws(DatabaseError) -> DatabaseRows
    ) async throws(DatabaseError) -> DatabaseRows {
        let connection = pool[Int(turn.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(pool.count))]
        var attempt = 0
        while true {
            attempt += 1
            do {
                let migrate = !schemaReady.load(ordering: .relaxed)
                statements.add(1, ordering: .relaxed)
                let rows = try await connection.run { connection throws(DatabaseError) in
                    if migrate { try DatabaseSchema.migrate(connection) }
                    return try body(connection)
                }
                if migrate { schemaReady.store(true, ordering: .relaxed) }
                return rows
            } catch {
                guard error.isTransient, attempt < max(1, settings.attempts) else { throw error }
                try? await settings.clock.sleep(for: backoff(attempt))
            }
        }
    }

    /// The pause after failed attempt `attempt` (1, 2, ...).
    private func backoff(_ attempt: Int) -> Duration {
        var wait = settings.firstBackoff
        for _ in 1..<max(1, min(attempt, 30)) where wait < settings.maximumBackoff { wait *= 2 }
        return min(wait, settings.maximumBackoff)
    }
}
