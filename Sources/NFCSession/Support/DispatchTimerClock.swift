import Dispatch
import Synchronization

/// The continuous clock, with sleeps timed by a dispatch timer instead of the Swift runtime's.
///
/// `Task.sleep` wakes the sleeping task through Swift's cooperative thread pool, even when the
/// task prefers a task executor of its own: with every thread of the pool busy, the sleeper
/// does not wake. This clock ends a sleep from a dispatch timer of its own by resuming a continuation,
/// which puts the task straight back on its own executor: a provisioning station that pauses
/// between polls keeps going however busy the pool is. Cancellation ends a sleep at once
/// (`CancellationError`), as `Task.sleep` does.
public struct DispatchTimerClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// The clock.
    public init() {}

    /// The queue the timers fire on: a serial queue of its own, which dispatch runs on a thread
    /// outside the cooperative pool (on Linux the pool is dispatch's global default queue, whose
    /// threads a busy pool holds).
    private static let timers = DispatchQueue(label: "ndeftool.timers")

    public var now: Instant { ContinuousClock.now }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let wait = ContinuousClock.now.duration(to: deadline)
        guard wait > .zero else { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.start(continuation, after: wait)
            }
        } onCancel: {
            sleeper.finish(cancelled: true)
        }
    }

    /// One sleep: its continuation, resumed once, by the timer or by cancellation.
    private final class Sleeper: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, cancelled: Bool)>((nil, false))

        func start(_ continuation: CheckedContinuation<Void, any Error>, after wait: Duration) {
            let cancelledAlready = state.withLock { state -> Bool in
                if state.cancelled { return true }
                state.continuation = continuation
                return false
            }
            if cancelledAlready {
                continuation.resume(throwing: CancellationError())
                return
            }
            let (seconds, attoseconds) = wait.components
            let nanoseconds = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
            let total =
                nanoseconds.overflow
                ? Int.max
                : nanoseconds.partialValue.addingReportingOverflow(
                    Int(attoseconds / 1_000_000_000)
                ).partialValue
            DispatchTimerClock.timers.asyncAfter(deadline: .now() + .nanoseconds(total)) {
                self.finish(cancelled: false)
            }
        }

        func finish(cancelled: Bool) {
            let continuation = state.withLock { state in
                if cancelled { state.cancelled = true }
                defer { state.continuation = nil }
                return state.continuation
            }
            if cancelled {
                continuation?.resume(throwing: CancellationError())
            } else {
                continuation?.resume()
            }
        }
    }
}
