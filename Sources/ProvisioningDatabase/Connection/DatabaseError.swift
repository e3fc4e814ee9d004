import NDEF

/// An error from a job's database: a stable code, the server's SQLSTATE when it answered, and
/// why. Two errors are equal when their codes are.
public struct DatabaseError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `connection-lost`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// libpq cannot parse the connection URL or keyword string.
        public static let invalidTarget = Code(.invalidTarget)
        /// The connection URL holds a password, which a command line must not carry.
        public static let passwordInTarget = Code(.passwordInTarget)
        /// No connection could be made (server down, refused, wrong name, authentication).
        public static let connectionFailed = Code(.connectionFailed)
        /// The connection went away (SQLSTATE class 08, 57P01-57P03, or libpq lost the socket):
        /// a statement that commits by itself may or may not have been carried out.
        public static let connectionLost = Code(.connectionLost)
        /// The server refused a transaction to keep it serializable or broke a deadlock
        /// (SQLSTATE 40001, 40P01): running it again is safe.
        public static let serializationFailure = Code(.serializationFailure)
        /// Any other error of a statement.
        public static let queryFailed = Code(.queryFailed)
        /// The database's schema is newer than this ndeftool knows.
        public static let schemaTooNew = Code(.schemaTooNew)
        /// The database's schema is older than this ndeftool's and was not upgraded.
        public static let schemaOutdated = Code(.schemaOutdated)
        /// No job of that name is in the database.
        public static let jobNotFound = Code(.jobNotFound)
        /// A job of that name exists with another plan, template or options.
        public static let jobMismatch = Code(.jobMismatch)
        /// The station's claim on its row was taken over or expired: it stopped before the next
        /// step on the tag.
        public static let leaseLost = Code(.leaseLost)
        /// The database holds something this ndeftool cannot read.
        public static let unexpectedData = Code(.unexpectedData)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case invalidTarget = "invalid-target"
            case passwordInTarget = "password-in-target"
            case connectionFailed = "connection-failed"
            case connectionLost = "connection-lost"
            case serializationFailure = "serialization-failure"
            case queryFailed = "query-failed"
            case schemaTooNew = "schema-too-new"
            case schemaOutdated = "schema-outdated"
            case jobNotFound = "job-not-found"
            case jobMismatch = "job-mismatch"
            case leaseLost = "lease-lost"
            case unexpectedData = "unexpected-data"
        }
    }

    /// The stable code.
    public var code: Code
    /// The server's SQLSTATE, when it answered with an error.
    public var sqlState: String?
    /// A sentence for a person.
    public var reason: String

    /// An error with `code`, the server's `sqlState` if any, and `reason`.
    public init(_ code: Code, sqlState: String? = nil, _ reason: String) {
        self.code = code
        self.sqlState = sqlState
        self.reason = reason
    }

    /// The error of a statement the server refused with `sqlState` (PostgreSQL 15
    /// documentation, appendix A): its code follows from the state's class.
    init(sqlState: String?, _ reason: String) {
        let code: Code
        switch sqlState {
        case let state? where state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state):
            code = .connectionLost
        case "40001", "40P01":
            code = .serializationFailure
        default:
            code = .queryFailed
        }
        self.init(code, sqlState: sqlState, reason)
    }

    /// Whether trying again on a new connection may succeed: the connection failed or went, or
    /// the server asked for the transaction again.
    public var isTransient: Bool {
        code == .connectionFailed || code == .connectionLost || code == .serializationFailure
    }

    public var description: String { sqlState.map { "\(reason) (SQLSTATE \($0))" } ?? reason }

    public static func == (lhs: DatabaseError, rhs: DatabaseError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
