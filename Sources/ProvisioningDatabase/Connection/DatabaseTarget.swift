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
                    parameters[name] = Self.secretKeywords.contains(name) ? "********" : String(cString: value)
                }
                option += 1
            }
        }
        self.parameters = parameters
    }

    /// The keywords whose values are secrets: the password, and the passphrase of the client's
    /// SSL key (PostgreSQL 15 documentation, 34.1.2).
    public static let secretKeywords: Set<String> = ["password", "sslpassword"]

    /// Whether the text itself holds a password (as `user:password@`, `password=` or
    /// `?password=`), an SSL key passphrase (`sslpassword=`), or what looks like one where it
    /// does not belong: a user name with a colon (`user%3Asecret@`, a password typed into the
    /// user part) or a value holding `password=` (a keyword string inside a quoted value).
    public var containsPassword: Bool { secretFound != nil }

    /// What ``containsPassword`` found, by keyword and never by value: `sslpassword`, `user`.
    public var secretFound: String? {
        if let keyword = Self.secretKeywords.sorted().first(where: { parameters[$0] != nil }) { return keyword }
        if parameters["user"]?.contains(":") == true { return "user" }
        return parameters.keys.sorted().first { parameters[$0]?.lowercased().contains("password=") == true }
    }

    /// The target without any password, for messages: `database tags on db.example:5432 as
    /// provisioning`, with libpq's defaults left unsaid.
    /// A value that looks like a secret (``secretFound``) is left out.
    public var display: String {
        func shown(_ keyword: String) -> String? {
            guard let value = parameters[keyword] else { return nil }
            if value.lowercased().contains("password=") || (keyword == "user" && value.contains(":")) {
                return "(not shown)"
            }
            return value
        }
        var text = "database " + (shown("dbname") ?? "(default)")
        if let host = shown("host") ?? shown("hostaddr") {
            text += " on " + host + (shown("port").map { ":" + $0 } ?? "")
        } else if let port = shown("port") {
            text += " on port " + port
        }
        if let user = shown("user") { text += " as " + user }
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
