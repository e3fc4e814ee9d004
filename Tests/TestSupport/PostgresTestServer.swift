import Foundation
import SystemSupport
import Testing

/// PostgreSQL for the tests of batch jobs on a database: a database of a test's own in the
/// server `Scripts/test` starts (Scripts/lib/postgres.sh, `NDEFTOOL_TEST_DATABASE_URL`), or a
/// server of a test's own (``PostgresTestServer/start()``) for tests that stop or restart it.
///
/// Statements run through `psql`, a program of the server's package, in a ``ChildProcess``:
/// nothing here blocks a thread of Swift's cooperative pool.
public enum PostgresTest {
    /// The keyword string of the shared server's `postgres` database, when there is one.
    public static let serverURL = ProcessInfo.processInfo.environment["NDEFTOOL_TEST_DATABASE_URL"]
    /// The server's programs (`initdb`, `pg_ctl`, `psql`).
    public static let binaries = ProcessInfo.processInfo.environment["NDEFTOOL_TEST_POSTGRES_BIN"]

    /// Whether a server runs for the tests.
    public static var isAvailable: Bool { serverURL != nil && binaries != nil }

    /// Why the database tests are skipped, for their `.enabled(if:)` trait.
    public static var skipReason: Comment {
        let why =
            ProcessInfo.processInfo.environment["NDEFTOOL_POSTGRES_SKIPPED"]
            ?? "NDEFTOOL_TEST_DATABASE_URL is not set (run Scripts/test, which starts a private PostgreSQL)"
        return Comment(rawValue: "SKIPPED: no PostgreSQL for the batch database tests: \(why)")
    }

    /// `url` (a keyword string) with `dbname` replaced by `database`.
    public static func url(_ url: String, database: String) -> String {
        let kept = url.split(separator: " ").filter { !$0.hasPrefix("dbname=") }
        return (kept + ["dbname=\(database)"]).joined(separator: " ")
    }

    /// Runs `sql` with psql on the database `url` names; returns its rows, fields separated by
    /// `|`, or throws with psql's message.
    @discardableResult
    public static func psql(_ sql: String, url: String) async throws -> [String] {
        guard let binaries else { throw TestDatabaseError("no PostgreSQL programs (NDEFTOOL_TEST_POSTGRES_BIN)") }
        let process = try ChildProcess(
            URL(fileURLWithPath: binaries + "/psql"),
            ["-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
            environment: ["PGPASSWORD": nil, "PGCONNECT_TIMEOUT": "10"])
        let result = await process.finish(timeout: .seconds(120))
        guard result.status == 0, !result.signalled else {
            throw TestDatabaseError("psql \(sql.prefix(80)): \(result.error)")
        }
        return result.outputText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A database of a test's own in the shared server, dropped by ``drop()``.
public struct TestDatabase: Sendable {
    /// Its name.
    public let name: String
    /// Its libpq keyword string.
    public let url: String
    /// The server's `postgres` database, for creating and dropping.
    let serverURL: String

    /// A new, empty database in the shared server (or in `server`).
    public static func create(in server: PostgresTestServer? = nil) async throws -> TestDatabase {
        guard let serverURL = server?.url ?? PostgresTest.serverURL else {
            throw TestDatabaseError("no PostgreSQL server for the tests")
        }
        let name = "ndeftool_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try await PostgresTest.psql("CREATE DATABASE \(name)", url: serverURL)
        return TestDatabase(name: name, url: PostgresTest.url(serverURL, database: name), serverURL: serverURL)
    }

    /// Its libpq URI, over the server's Unix socket: `postgresql://user@%2Ftmp%2Fndpg.x:port/name`.
    public var uri: String {
        var parts: [String: String] = [:]
        for word in url.split(separator: " ") {
            let pair = word.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        let host = (parts["host"] ?? "").replacingOccurrences(of: "/", with: "%2F")
        return "postgresql://\(parts["user"] ?? "ndeftool")@\(host):\(parts["port"] ?? "5432")/\(name)"
    }

    /// Runs `body` with a new database, dropped afterwards whatever `body` does.
    public static func with<Value>(
        in server: PostgresTestServer? = nil, _ body: (TestDatabase) async throws -> Value
    ) async throws -> Value {
        let database = try await create(in: server)
        do {
            let value = try await body(database)
            await database.drop()
            return value
        } catch {
            await database.drop()
            throw error
        }
    }

    /// Runs `sql` in the database; returns its rows (fields separated by `|`).
    @discardableResult
    public func psql(_ sql: String) async throws -> [String] { try await PostgresTest.psql(sql, url: url) }

    /// The single value `sql` returns.
    public func value(_ sql: String) async throws -> String { try await psql(sql).first ?? "" }

    /// Drops the database, ending the sessions still connected to it.
    public func drop() async {
        _ = try? await PostgresTest.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", url: serverURL)
    }
}

/// A PostgreSQL server of a test's own, in a folder under /tmp (a Unix socket's path must be
/// short): for tests that restart or stop the server. Started as the user postgres when the
/// tests run as root, since the server refuses root.
public final class PostgresTestServer: Sendable {
    /// Its folder: the data directory, the socket and the log.
    public let directory: String
    /// Its TCP port on 127.0.0.1.
    public let port: Int
    /// The keyword string of its `postgres` database.
    public var url: String { "host=\(directory) port=\(port) user=ndeftool dbname=postgres" }

    private init(directory: String, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// Creates and starts a server (initdb, then pg_ctl start).
    public static func start() async throws -> PostgresTestServer {
        guard PostgresTest.binaries != nil else { throw TestDatabaseError("no PostgreSQL programs") }
        var template = Array("/tmp/ndpg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestDatabaseError("mkdtemp: \(errno)") }
        let directory = String(cString: made)
        chmod(directory, 0o755)
        let server = PostgresTestServer(directory: directory, port: try freePort())
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                server.remove()
                throw TestDatabaseError("no user postgres to run the server as")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        do {
            try await server.run(
                "initdb",
                [
                    "-D", directory + "/data", "-U", "ndeftool", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                    "--no-sync",
                ])
            try await server.pgctl("start")
        } catch {
            server.remove()
            throw error
        }
        return server
    }

    /// Runs `body` with a new server and a new database in it, both gone afterwards whatever
    /// `body` does.
    public static func with<Value>(_ body: (PostgresTestServer, TestDatabase) async throws -> Value) async throws
        -> Value
    {
        try await running { server in
            try await TestDatabase.with(in: server) { database in try await body(server, database) }
        }
    }

    /// Runs `body` with a new server, gone afterwards whatever `body` does.
    public static func running<Value>(_ body: (PostgresTestServer) async throws -> Value) async throws -> Value {
        let server = try await start()
        do {
            let value = try await body(server)
            await server.shutDown()
            return value
        } catch {
            await server.shutDown()
            throw error
        }
    }

    /// Stops the server (`mode`: `fast` ends sessions cleanly, `immediate` as a crash does).
    public func stop(mode: String = "fast") async throws { try await pgctl("stop", mode: mode) }

    /// Starts the server again after ``stop(mode:)``.
    public func startAgain() async throws { try await pgctl("start") }

    /// Runs `sql` (one statement on one line) in `database` while the server is stopped, through
    /// the single-user backend (`postgres --single`): a change no client can see or race with,
    /// such as a lease that ran out while the server was down. Throws if the server runs.
    public func runWhileStopped(_ sql: String, database: String) async throws {
        guard !sql.contains("\n") else { throw TestDatabaseError("one statement on one line: \(sql)") }
        let result = try await run(
            "postgres", ["--single", "-D", directory + "/data", "-c", "fsync=off", database],
            input: .bytes(Array((sql + "\n").utf8)))
        // The single-user backend reports a failed statement and still exits 0.
        let said = result.error + result.outputText
        if said.contains("ERROR:") || said.contains("FATAL:") {
            throw TestDatabaseError("postgres --single \(sql.prefix(80)): \(said)")
        }
    }

    /// Restarts the server: every session ends (SQLSTATE 57P01), the server is back at once.
    public func restart() async throws { try await pgctl("restart") }

    /// Stops the server if it runs and removes its folder.
    public func shutDown() async {
        try? await pgctl("stop", mode: "immediate")
        remove()
    }

    private func remove() { try? FileManager.default.removeItem(atPath: directory) }

    private func pgctl(_ action: String, mode: String = "fast") async throws {
        var arguments = ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60"]
        if action != "start" { arguments += ["-m", mode] }
        arguments.append(action)
        if action != "stop" {
            arguments += [
                "-o",
                "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(directory) -c fsync=off",
            ]
        }
        try await run("pg_ctl", arguments)
    }

    /// Runs one of the server's programs, as postgres when root; returns what it wrote.
    @discardableResult
    private func run(
        _ program: String, _ arguments: [String], input: ChildProcess.Input = .nullDevice
    ) async throws -> ChildProcessResult {
        guard let binaries = PostgresTest.binaries else { throw TestDatabaseError("no PostgreSQL programs") }
        let path = binaries + "/" + program
        let process =
            getuid() == 0
            ? try ChildProcess(
                URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "postgres", "--", path] + arguments, input: input)
            : try ChildProcess(URL(fileURLWithPath: path), arguments, input: input)
        let result = await process.finish(timeout: .seconds(120))
        guard result.status == 0, !result.signalled else {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw TestDatabaseError("\(program) \(arguments.last ?? ""): \(result.error)\(result.outputText)\n\(log)")
        }
        return result
    }

    /// A TCP port nothing listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestDatabaseError("socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw TestDatabaseError("bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A failure of the tests' PostgreSQL set-up.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public let description: String

    /// The failure `description`.
    public init(_ description: String) { self.description = description }
}
