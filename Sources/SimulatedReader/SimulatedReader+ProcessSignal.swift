import NFCSession
import SystemSupport

extension SimulatedReader {
    /// A signal the process sends itself after a number of tag commands (`signal-after=N`,
    /// `signal=NAME`): the host's power cut (`KILL`), an operator's Ctrl-C (`INT`), a service
    /// stop (`TERM`) or a halt until `SIGCONT` (`STOP`) at an exact point of a job, counted in commands rather than timed, so that a
    /// test of what a cut leaves behind gives the same verdict on any machine.
    struct ProcessSignalling: Sendable {
        /// The tag commands still to carry out before the signal; nil: not armed, or sent.
        var remaining: Int?
        /// The signal.
        var signal: SimulatedReaderURL.ProcessSignal.Name = .kill
    }

    /// Arms the signal `url` describes, if any.
    func armProcessSignal(_ signal: SimulatedReaderURL.ProcessSignal?) {
        guard let signal else { return }
        withState { state in
            state.processSignalling = ProcessSignalling(remaining: signal.afterCommands, signal: signal.name)
        }
    }

    /// Counts a command toward an armed signal; whether it was the last before it (the signal is
    /// then disarmed: it is sent once).
    static func countTowardSignal(_ state: inout State) -> SimulatedReaderURL.ProcessSignal.Name? {
        guard let remaining = state.processSignalling.remaining else { return nil }
        if remaining <= 1 {
            state.processSignalling.remaining = nil
            return state.processSignalling.signal
        }
        state.processSignalling.remaining = remaining - 1
        return nil
    }

    /// Sends `signal` to this process, once the command it follows is carried out and the tag
    /// saved; after `KILL` nothing more runs.
    static func send(_ signal: SimulatedReaderURL.ProcessSignal.Name?) {
        guard let signal else { return }
        kill(getpid(), signal.number)
    }
}

extension SimulatedReaderURL {
    /// The process signalled after a number of tag commands (`signal-after=N`, `signal=NAME`):
    /// see ``SimulatedReader``.
    public struct ProcessSignal: Sendable, Hashable {
        /// The signals a URL can name.
        public enum Name: String, Sendable, Hashable, CaseIterable {
            /// SIGKILL: the host loses power; nothing more runs.
            case kill = "KILL"
            /// SIGINT: Ctrl-C at the terminal.
            case interrupt = "INT"
            /// SIGTERM: the service is stopped.
            case terminate = "TERM"
            /// SIGSTOP: the process halts where it is until SIGCONT, holding what it holds (a
            /// test keeps a run at a point while it tries something else).
            case stop = "STOP"

            /// The signal's number.
            var number: Int32 {
                switch self {
                case .kill: SIGKILL
                case .interrupt: SIGINT
                case .terminate: SIGTERM
                case .stop: SIGSTOP
                }
            }
        }

        /// The tag commands (Type 2 frames and APDUs that reach the field, counted across every
        /// tag of a supply) carried out, saved and not answered when the signal is sent (1 or
        /// more).
        public var afterCommands: Int
        /// The signal.
        public var name: Name

        /// Creates a signal description.
        public init(afterCommands: Int, name: Name = .kill) {
            self.afterCommands = afterCommands
            self.name = name
        }

        /// The URL items, in canonical order.
        var items: [String] {
            ["signal-after=\(afterCommands)"] + (name == .kill ? [] : ["signal=\(name.rawValue)"])
        }
    }
}

extension SimulatedReaderOptions {
    /// The keys of a process signal.
    static let processSignalKeys = ["signal-after", "signal"]

    /// Reads one process-signal option; false when `key` is not one.
    mutating func takeProcessSignal(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "signal-after": signalAfter = try number(value, key: key, range: 1...1_000_000_000)
        case "signal":
            guard let name = SimulatedReaderURL.ProcessSignal.Name(rawValue: value.uppercased()) else {
                let names = SimulatedReaderURL.ProcessSignal.Name.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("signal=\(value): expected one of \(names)")
            }
            signalName = name
        default: return false
        }
        return true
    }

    /// The signal the options describe; nil without `signal-after`.
    func processSignalSettings() throws(NFCReaderError) -> SimulatedReaderURL.ProcessSignal? {
        guard let signalAfter else {
            if signalName != nil { throw error("signal names the signal: it needs signal-after=N") }
            return nil
        }
        return SimulatedReaderURL.ProcessSignal(afterCommands: signalAfter, name: signalName ?? .kill)
    }
}
