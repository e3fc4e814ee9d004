import NFCSession
import SimulatedReader
import Synchronization
import TagSimulator

/// The life of a bridge's serving thread, shared by ``VirtualPCDCard`` and
/// ``PN532SerialSimulator``: started once, stopped once, woken by a pipe, with the waits and the
/// saves every bridge makes.
///
/// The phases and their transitions are one value, ``Phase``, changed only through its
/// mutating methods (testable without threads); the bridge keeps it and the thread's handle
/// under one lock.
final class BridgeLifecycle: Sendable {
    /// Where the serving thread is in its life, and what each request does there.
    enum Phase: Sendable, Hashable {
        /// Made, not started.
        case notStarted
        /// The serving thread runs.
        case running
        /// A stop was asked for; the thread finishes what it is doing and ends.
        case stopRequested
        /// Stopped, or a start that failed: never runs again.
        case stopped

        /// What ``start()`` found.
        enum Start: Equatable {
            /// Make the thread: the phase is ``running``.
            case spawn
            /// Started before (or stopped): refuse.
            case refuse
        }

        /// What ``stop()`` found.
        enum Stop: Equatable {
            /// Wake the thread and wait for it to end, then clean up.
            case wakeAndJoin
            /// It never ran: clean up only.
            case cleanUp
            /// Stopped before: nothing more to do.
            case nothing
        }

        /// A start request.
        mutating func start() -> Start {
            guard self == .notStarted else { return .refuse }
            self = .running
            return .spawn
        }

        /// The thread could not be made: the bridge never runs.
        mutating func spawnFailed() {
            self = .stopped
        }

        /// A stop request.
        mutating func stop() -> Stop {
            switch self {
            case .notStarted:
                self = .stopped
                return .cleanUp
            case .running:
                self = .stopRequested
                return .wakeAndJoin
            case .stopRequested, .stopped:
                return .nothing
            }
        }

        /// The thread has ended after a stop request.
        mutating func joined() {
            self = .stopped
        }

        /// Whether the thread goes on serving.
        var keepsServing: Bool { self == .running }

        /// Whether the bridge counts as running: from its start until its thread has ended.
        var isRunning: Bool { self == .running || self == .stopRequested }
    }

    /// The pipe that wakes the serving thread from its waits.
    let wakeup: Wakeup
    private let state = Mutex<(phase: Phase, thread: BridgeThread?)>((.notStarted, nil))

    /// A lifecycle with a new wake-up pipe.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/systemFailure`` when the pipe cannot be made.
    init() throws(SimulatorBridgeError) {
        wakeup = try Wakeup()
    }

    /// The phase now.
    var phase: Phase { state.withLock { $0.phase } }

    /// Whether the serving thread should end: a stop was asked for.
    var stopRequested: Bool { !state.withLock { $0.phase.keepsServing } }

    /// Starts `serve` on a thread of its own.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/alreadyStarted`` (worded with `name`, `the card`)
    ///   after the first call; ``SimulatorBridgeError/Code/systemFailure`` when no thread can be
    ///   made.
    func start(_ name: String, serve: @escaping @Sendable () -> Void) throws(SimulatorBridgeError) {
        // The phase and the handle change under one lock: a stop in between waits for the
        // handle or sees the start refused.
        let outcome: Result<Void, SimulatorBridgeError> = state.withLock { state in
            guard state.phase.start() == .spawn else {
                return .failure(SimulatorBridgeError(.alreadyStarted, "\(name) was started already"))
            }
            do throws(SimulatorBridgeError) {
                state.thread = try BridgeThread(serve)
                return .success(())
            } catch {
                state.phase.spawnFailed()
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// Asks the thread to stop, wakes it and waits for it to end. True the first time (the
    /// caller then cleans up: closes, saves), false after that.
    @discardableResult
    func stop() -> Bool {
        let (action, thread) = state.withLock { state -> (Phase.Stop, BridgeThread?) in
            let action = state.phase.stop()
            defer { if action != .nothing { state.thread = nil } }
            return (action, state.thread)
        }
        switch action {
        case .nothing:
            return false
        case .cleanUp:
            return true
        case .wakeAndJoin:
            wakeup.signal()
            thread?.join()
            state.withLock { $0.phase.joined() }
            return true
        }
    }

    /// Waits `milliseconds` (-1: until woken), or until a request wakes the thread; the wake-up
    /// is used up.
    func pause(milliseconds: Int32) {
        _ = SystemCalls.waitReadable([wakeup.readEnd], milliseconds: milliseconds)
        wakeup.drain()
    }

    /// Sleeps for the field's `latency-ms` fault before a command is carried out (a request
    /// cuts it short and stays pending).
    func waitLatency(of reader: SimulatedReader) {
        guard let latency = reader.withField({ $0.faults.latencyMilliseconds }), latency > 0 else { return }
        _ = SystemCalls.waitReadable([wakeup.readEnd], milliseconds: Int32(clamping: latency))
    }

    /// The wait until `deadline` in whole milliseconds for a poll time-out: at least 1, at most
    /// `limit` when one is given.
    static func milliseconds(until deadline: ContinuousClock.Instant, atMost limit: Int32? = nil) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, min(Int64(limit ?? .max), milliseconds)))
    }

    /// Saves a changed tag to the reader's file (before the response goes out); a failure is
    /// reported to `failed` with its reason.
    static func save(_ reader: SimulatedReader, failed: (String) -> Void) {
        do {
            try reader.flushBlocking()
        } catch {
            failed(error.reason)
        }
    }
}
