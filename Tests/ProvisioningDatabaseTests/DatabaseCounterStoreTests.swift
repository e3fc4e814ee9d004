import NTAG424
import TestSupport
import Testing

@testable import ProvisioningDatabase

/// The SUN counter store in PostgreSQL against the contract every store keeps (TestSupport's
/// `CounterStoreContract`), from many connections at once, through a server restart and a
/// server that stays down: every verdict counts requests and statements, none times them.
@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct DatabaseCounterStoreTests {
    /// A store in `database` whose reconnection pauses are short.
    static func store(
        _ database: TestDatabase, log: Bool = false, attempts: Int = 10, connections: Int = 1
    ) throws -> DatabaseCounterStore {
        DatabaseCounterStore(
            try DatabaseTarget(database.url),
            settings: DatabaseCounterStore.Settings(
                attempts: attempts, firstBackoff: .milliseconds(20), maximumBackoff: .milliseconds(500),
                connections: connections, keepsAcceptLog: log))
    }

    /// The accept log: (tag's UID in hex, counter, token), in the order of its sequence.
    static func log(_ database: TestDatabase) async throws -> [(uid: String, counter: Int, token: String)] {
        try await database.psql(
            "SELECT upper(encode(uid, 'hex')), counter, token FROM ndeftool_sun_accepts ORDER BY sequence"
        ).compactMap { line in
            let parts = line.split(separator: "|").map(String.init)
            guard parts.count == 3, let counter = Int(parts[1]) else { return nil }
            return (parts[0], counter, parts[2])
        }
    }

    @Test("The contract without the accept log; the schema is made by the first request")
    func decisions() async throws {
        try await TestDatabase.with { database in
            let store = try Self.store(database)
            try await CounterStoreContract.checkDecisions(store, keySet: "master-A1B2C3", recognisesLateRepeats: false)
            #expect(
                try await store.lastAccepted(keySet: "master-A1B2C3", uid: CounterStoreContract.uid(1)) == 0xFF_FFFF)
            #expect(try await store.lastAccepted(keySet: "master-A1B2C3", uid: CounterStoreContract.uid(9)) == nil)
            #expect(try await database.value("SELECT max(version) FROM ndeftool_schema_version") == "2")
            #expect(try await database.value("SELECT count(*) FROM ndeftool_sun_counters") == "3")
            #expect(try await database.value("SELECT count(*) FROM ndeftool_sun_accepts") == "0")
            await store.close()
        }
    }

    @Test("The contract with the accept log: a repeat after later counters is recognised; one log row per accept")
    func decisionsWithLog() async throws {
        try await TestDatabase.with { database in
            let store = try Self.store(database, log: true)
            try await CounterStoreContract.checkDecisions(store, keySet: "k", recognisesLateRepeats: true)
            let log = try await Self.log(database)
            #expect(log.map(\.counter) == [5, 9, 1, 10, 0xFF_FFFF, 1])
            #expect(log.map(\.token) == ["a", "d", "e", "e", "f", "h"])
            await store.close()
        }
    }

    @Test(
        "10 stores (12 connections) send 20 tags x 25 counters in 5 orders: once each, in commit order per tag")
    func concurrentConnections() async throws {
        try await TestDatabase.with { database in
            var stores: [DatabaseCounterStore] = []
            for _ in 0..<9 { stores.append(try Self.store(database, log: true)) }
            // One store with four connections for two workers: its requests go out in turn.
            let shared = try Self.store(database, log: true, connections: 4)
            let workers: [any NTAG424CounterStore] = stores + [shared, shared]
            let decided = try await CounterStoreContract.concurrentRequests(
                workers, keySet: "k", tags: 20, counters: 25)
            // No retry: one statement per request, the first of each store's connections also
            // bringing the schema up to date.
            let statements = stores.map(\.statementCount).reduce(0, +) + shared.statementCount
            #expect(statements == 11 * 20 * 25)
            // The log holds exactly the accepted requests, and each tag's counters rise in the
            // order of the log's sequence, taken under the tag's row lock: the commit order.
            let log = try await Self.log(database)
            let accepted = decided.filter(\.decision.isAccepted)
            #expect(log.count == accepted.count)
            #expect(
                Set(log.map { "\($0.uid)/\($0.counter)/\($0.token)" })
                    == Set(accepted.map { "\(hexText(CounterStoreContract.uid($0.tag)))/\($0.counter)/\($0.token)" }))
            var last: [String: Int] = [:]
            for entry in log {
                #expect(
                    entry.counter > last[entry.uid, default: -1], "\(entry.uid): \(entry.counter) after a higher one")
                last[entry.uid] = entry.counter
            }
            #expect(try await database.psql("SELECT DISTINCT counter FROM ndeftool_sun_counters") == ["25"])
            for store in stores { await store.close() }
            await shared.close()
        }
    }

    @Test("A request whose answer was lost, sent again with its token: accepted again, logged once")
    func repeatedRequest() async throws {
        try await TestDatabase.with { database in
            let store = try Self.store(database, log: true)
            let request = try CounterStoreContract.request("k", tag: 1, counter: 40, token: "lost-answer")
            #expect(try await store.decide(request) == .accepted(40))
            #expect(try await store.decide(request) == .accepted(40))
            #expect(try await database.value("SELECT count(*) FROM ndeftool_sun_accepts") == "1")
            let other = try CounterStoreContract.request("k", tag: 1, counter: 40, token: "another")
            #expect(try await store.decide(other) == .replayed(lastAccepted: 40))
            await store.close()
        }
    }

    @Test("The server restarted between two requests: the store reconnects and sends the statement again")
    func serverRestart() async throws {
        try await PostgresTestServer.with { server, database in
            let store = try Self.store(database)
            #expect(
                try await store.decide(try CounterStoreContract.request("k", tag: 1, counter: 1, token: "a"))
                    == .accepted(1))
            try await server.restart()
            #expect(
                try await store.decide(try CounterStoreContract.request("k", tag: 1, counter: 2, token: "b"))
                    == .accepted(2))
            // One statement before; after the restart one lost with its connection, one again.
            #expect(store.statementCount == 3)
            #expect(
                try await store.decide(try CounterStoreContract.request("k", tag: 1, counter: 2, token: "c"))
                    == .replayed(lastAccepted: 2))
            await store.close()
        }
    }

    @Test("The server down: a request is sent 4 times (the attempts) and fails; through the protocol, unavailable")
    func serverDown() async throws {
        try await PostgresTestServer.with { server, database in
            let store = try Self.store(database, attempts: 4)
            let first = try CounterStoreContract.request("k", tag: 1, counter: 1, token: "a")
            #expect(try await store.decide(first) == .accepted(1))
            try await server.stop()
            let second = try CounterStoreContract.request("k", tag: 1, counter: 2, token: "b")
            await #expect(throws: DatabaseError(.connectionFailed, "")) { try await store.decide(second) }
            #expect(store.statementCount == 1 + 4)
            let generic: any NTAG424CounterStore = store
            await #expect(throws: NTAG424Error(.counterStoreUnavailable, "")) { try await generic.accept(second) }
            #expect(store.statementCount == 1 + 4 + 4)
            try await server.startAgain()
            #expect(try await generic.accept(second) == .accepted(2))
            await store.close()
        }
    }
}
