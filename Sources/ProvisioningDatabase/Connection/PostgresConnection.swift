import CLibPQ
import SystemSupport

/// One connection to a PostgreSQL server through libpq, on a dispatch queue of its own.
///
/// libpq's calls block (connecting, every query's round trip), so the actor runs on a
/// `SerialQueueExecutor` (SystemSupport): they block that queue's thread, never a thread of
/// Swift's cooperative pool. libpq allows one thread at a time per connection, which the actor
/// guarantees; each station of a job has a connection of its own.
///
/// Queries are sent with `PQexecParams` in text format: parameters never become part of the SQL
/// text (no quoting, no injection), and a parameterless statement may hold several commands only
/// through ``executeScript(_:)``. A lost connection (libpq says `CONNECTION_BAD`, or the server
/// answers with SQLSTATE class 08 or 57P01-57P03) is ``DatabaseError/Code/connectionLost``; the
/// caller decides whether to reconnect (``reconnect()``) and try again.
actor PostgresConnection {
    /// The connection parameters: the user's URL or keyword string, and what this package adds.
    let target: DatabaseTarget
    /// The name the server shows for this connection (`pg_stat_activity.application_name`).
    let applicationName: String
    private var connection: OpaquePointer?
    private nonisolated let executor: SerialQueueExecutor

    /// A connection to `target`, not yet made (see ``connect()``).
    init(_ target: DatabaseTarget, applicationName: String) {
        self.target = target
        self.applicationName = applicationName
        executor = SerialQueueExecutor(label: "ndeftool.database.\(applicationName)")
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether a connection is open and libpq believes it usable.
    var isConnected: Bool {
        guard let connection else { return false }
        return PQstatus(connection) == CONNECTION_OK
    }

    /// Connects (closing a previous connection first).
    ///
    /// - Throws: ``DatabaseError/Code/connectionFailed`` with libpq's message.
    func connect() throws(DatabaseError) {
        close()
        let parameters = target.connectionParameters(applicationName: applicationName)
        let made = withCStrings(parameters.map(\.0)) { keywords in
            withCStrings(parameters.map(\.1)) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let made else {
            throw DatabaseError(.connectionFailed, "libpq could not allocate a connection")
        }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(made))
            PQfinish(made)
            throw DatabaseError(.connectionFailed, "cannot connect to \(target.display): \(message)")
        }
        // Notices (a table that exists already, ...) are not for the person at the station.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        connection = made
    }

    /// Closes the connection and connects again (prepared state on the server is gone).
    func reconnect() throws(DatabaseError) { try connect() }

    /// Closes the connection; a later query connects again.
    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// Runs one SQL statement with `parameters` in place of `$1`, `$2`, ... (text format; nil is
    /// NULL) and returns its rows.
    ///
    /// - Throws: ``DatabaseError/Code/connectionLost`` when the connection went (the statement
    ///   may or may not have been carried out, if it commits by itself); otherwise the code of
    ///   the server's SQLSTATE (``DatabaseError/Code/serializationFailure``,
    ///   ``DatabaseError/Code/queryFailed``...).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(DatabaseError) -> DatabaseRows {
        let connection = try open()
        let result = withOptionalCStrings(parameters) { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try rows(of: result, connection: connection)
    }

    /// Runs `body` on the connection in one turn of the actor: no other call's statements come
    /// between its statements.
    func run<Value: Sendable>(
        _ body: @Sendable (isolated PostgresConnection) throws(DatabaseError) -> Value
    ) throws(DatabaseError) -> Value {
        try body(self)
    }

    /// Runs `body` in a transaction (BEGIN, then COMMIT when it returns, ROLLBACK when it
    /// throws), in one turn of the actor. A COMMIT whose answer is lost throws
    /// ``DatabaseError/Code/connectionLost``: the transaction may or may not have committed.
    func transaction<Value: Sendable>(
        _ body: @Sendable (isolated PostgresConnection) throws(DatabaseError) -> Value
    ) throws(DatabaseError) -> Value {
        _ = try execute("BEGIN")
        do {
            let value = try body(self)
            _ = try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs statements without parameters, separated by semicolons (the schema's migrations).
    func executeScript(_ sql: String) throws(DatabaseError) {
        let connection = try open()
        _ = try rows(of: PQexec(connection, sql), connection: connection)
    }

    /// The open connection, connecting first when there is none or the last was lost.
    private func open() throws(DatabaseError) -> OpaquePointer {
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        // None yet, or lost: a new one (a transaction never spans this, as it begins here).
        try connect()
        guard let connection else { throw DatabaseError(.connectionFailed, "no connection") }
        return connection
    }

    /// The rows of `result`, which is cleared; or the error it reports.
    private func rows(of result: OpaquePointer?, connection: OpaquePointer) throws(DatabaseError) -> DatabaseRows {
        guard let result else {
            throw DatabaseError(
                .connectionLost, "no answer from \(target.display): \(Self.text(PQerrorMessage(connection)))")
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            let rowCount = Int(PQntuples(result))
            let columnCount = Int(PQnfields(result))
            var names: [String] = []
            for column in 0..<columnCount { names.append(Self.text(PQfname(result, Int32(column)))) }
            var values: [[String?]] = []
            values.reserveCapacity(rowCount)
            for row in 0..<rowCount {
                var cells: [String?] = []
                cells.reserveCapacity(columnCount)
                for column in 0..<columnCount {
                    if PQgetisnull(result, Int32(row), Int32(column)) != 0 {
                        cells.append(nil)
                    } else {
                        cells.append(Self.text(PQgetvalue(result, Int32(row), Int32(column))))
                    }
                }
                values.append(cells)
            }
            let affected = Int(Self.text(PQcmdTuples(result))) ?? 0
            return DatabaseRows(columns: names, values: values, affectedRows: affected)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let message = primary ?? Self.text(PQresultErrorMessage(result))
            if PQstatus(connection) != CONNECTION_OK || state == nil {
                throw DatabaseError(
                    .connectionLost, sqlState: state, "the connection to \(target.display) was lost: \(message)")
            }
            throw DatabaseError(sqlState: state, message)
        }
    }

    /// A C string from libpq, without its final line break.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { text(UnsafePointer(pointer)) }

    isolated deinit {
        if let connection { PQfinish(connection) }
    }
}

/// Calls `body` with a NULL-terminated array of C strings made from `strings`.
func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    withOptionalCStrings(strings.map { Optional($0) }) { pointers in body(pointers) }
}

/// Calls `body` with an array of C strings (NULL for nil), NULL-terminated, made from `strings`.
func withOptionalCStrings<Result>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let owned: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in owned { free(pointer) } }
    let pointers: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } } + [nil]
    return body(pointers)
}
