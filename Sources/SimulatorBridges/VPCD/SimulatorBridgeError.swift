import NDEF

/// An error starting or running a simulator bridge. Equality compares the code only.
public struct SimulatorBridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `invalid-configuration`.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A setting is out of range (port 0).
        public static let invalidConfiguration = Code("invalid-configuration")
        /// The bridge was started already (or stopped: a bridge starts once).
        public static let alreadyStarted = Code("already-started")
        /// A system call failed (socket, pipe, thread creation).
        public static let systemFailure = Code("system-failure")

        /// Every code this version knows, in the order above.
        public static let allCases: [Code] = [
            .invalidConfiguration,
            .alreadyStarted,
            .systemFailure,
        ]
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
