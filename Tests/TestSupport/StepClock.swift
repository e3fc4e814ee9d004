import Synchronization

/// A clock for tests of code that waits: its sleeps end as soon as the task is scheduled, and
/// move the clock's time on by what was asked. "No tag came within 5 s" then takes no 5 s, and
/// does not depend on how busy the machine is; ``sleeps`` counts the waits.
public final class StepClock: Clock, Sendable {
    /// An instant: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private let state = Mutex<(now: Duration, sleeps: Int)>((.zero, 0))

    /// A clock at time zero.
    public init() {}

    public var now: Instant { Instant(offset: state.withLock { $0.now }) }

    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many times something slept on the clock.
    public var sleeps: Int { state.withLock { $0.sleeps } }

    /// Moves the time on to `deadline` (when it is later) once the task had its turn.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        await Task.yield()
        try Task.checkCancellation()
        state.withLock { state in
            state.now = max(state.now, deadline.offset)
            state.sleeps += 1
        }
    }

    /// Moves the time on by `duration`.
    public func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }
}
