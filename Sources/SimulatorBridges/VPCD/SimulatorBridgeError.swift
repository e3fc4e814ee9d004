/// An error starting or running a simulator bridge. Equality compares the code only.
public struct SimulatorBridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A setting is out of range (port 0).
        case invalidConfiguration = "invalid-configuration"
        /// The bridge was started already (or stopped: a bridge starts once).
        case alreadyStarted = "already-started"
        /// A system call failed (socket, pipe, thread creation).
        case systemFailure = "system-failure"
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
