import CLibPQ

/// Where a job's database is: a libpq connection URI (`postgresql://user@host:5432/db`) or
/// keyword string (`host=/run/postgresql dbname=tags`), completed by libpq from its own `PG*`
/// environment variables and `~/.pgpass` (PostgreSQL 15 documentation, 34.1.1 "Connection
/// Strings" and 34.15 "The Password File").
///
/// A password written into the text (`user:secret@`, `password=...`, `?password=`) is found
/// by ``containsPassword``: a command line must not carry one, since any user of the machine
/// can read another's arguments. `PGPASSWORD`, `PGPASSFILE` and `~/.pgpass` keep it out of argv.
public struct DatabaseTarget: Sendable, Hashable, CustomStringConvertible {
    /// The text as given (it may hold a password: never print it; see ``display``).
    public let connectionString: String
    /// The parameters libpq reads from the text, keyword to value (the password's value is
    /// replaced by `********`).
    public let parameters: [String: String]

    /// The target `connectionString` names; an empty string leaves everything to libpq's
    /// environment variables and defaults.
    ///
    /// - Throws: ``DatabaseError/Code/invalidTarget`` with libpq's reason when libpq cannot
    ///   parse it.
    public init(_ connectionString: String) throws(DatabaseError) {
        self.connectionString = connectionString
        var parameters: [String: String] = [:]
        if !connectionString.isEmpty {
            var message: UnsafeMutablePointer<CChar>?
            guard let options = PQconninfoParse(connectionString, &message) else {
                let reason = message.map { PostgresConnection.text($0) } ?? "libpq cannot parse it"
                if let message { PQfreemem(message) }
                throw DatabaseError(.invalidTarget, "the database URL is not valid: \(reason)")
            }
            defer { PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                if let value = option.pointee.val {
                    let name = String(cString: keyword)
                    parameters[name] = name == "password" ? "********" : String(cString: value)
                }
                option += 1
            }
        }
        self.parameters = parameters
    }

    /// Whether the text itself holds a password (as `user:password@`, `password=` or
    /// `?password=`).
    public var containsPassword: Bool { parameters["password"] != nil }

    /// The target without any password, for messages: `database tags on db.example:5432 as
    /// provisioning`, with libpq's defaults left unsaid.
    public var display: String {
        var text = "database " + (parameters["dbname"] ?? "(default)")
        if let host = parameters["host"] ?? parameters["hostaddr"] {
            text += " on " + host + (parameters["port"].map { ":" + $0 } ?? "")
        } else if let port = parameters["port"] {
            text += " on port " + port
        }
        if let user = parameters["user"] { text += " as " + user }
        return text
    }

    public var description: String { display }

    /// libpq's keywords and values for a connection: the defaults this package sets first
    /// (the user's text overrides them), then the text expanded (`expand_dbname`).
    ///
    /// - Keepalives notice a silent network loss within about 11 s, and `tcp_user_timeout`
    ///   ends a send the network never acknowledges after 10 s: a station stops waiting on a
    ///   server it cannot reach instead of hanging.
    func connectionParameters(applicationName: String) -> [(String, String)] {
        var parameters: [(String, String)] = [
            ("fallback_application_name", applicationName), ("connect_timeout", "10"), ("keepalives", "1"),
            ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
        ]
        if !connectionString.isEmpty { parameters.append(("dbname", connectionString)) }
        return parameters
    }

    public static func == (lhs: DatabaseTarget, rhs: DatabaseTarget) -> Bool {
        lhs.connectionString == rhs.connectionString
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(connectionString) }
}
