import NDEF

/// An error starting or running a simulator bridge. Equality compares the code only.
public struct SimulatorBridgeError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `invalid-configuration`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// A setting is out of range (port 0).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The bridge was started already (or stopped: a bridge starts once).
        public static let alreadyStarted = Code(.alreadyStarted)
        /// A system call failed (socket, pipe, thread creation).
        public static let systemFailure = Code(.systemFailure)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case invalidConfiguration = "invalid-configuration"
            case alreadyStarted = "already-started"
            case systemFailure = "system-failure"
        }
    }

    /// The code.
    public let code: Code
    /// A sentence for people.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    public static func == (lhs: SimulatorBridgeError, rhs: SimulatorBridgeError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
