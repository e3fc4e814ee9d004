import Dispatch
import Synchronization

/// Checks `condition` every `interval` until it holds, at most `timeout`, and as soon as it holds
/// runs `action` and returns its result; nil (and no action) when the time ran out. The
/// condition is checked once more after the time is up.
///
/// For a test that must act inside a short stretch of a child process's life: send SIGKILL
/// between two WRITEs, SIGINT while the rows are being written, start a second run while the
/// first holds the journal. ``eventually(within:every:_:)`` runs on Swift's cooperative pool,
/// where the other tests of a busy run may keep a woken task waiting for seconds, long enough for
/// the child to be done; here `condition` and `action` run on a dispatch queue of their own,
/// whose timer fires on Dispatch's threads however busy the pool is. The awaiting task is only
/// resumed with the result.
public func watch<Result: Sendable>(
    every interval: Duration = .milliseconds(1), within timeout: Duration = .seconds(60),
    until condition: @escaping @Sendable () -> Bool, then action: @escaping @Sendable () -> Result
) async -> Result? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
        let queue = DispatchQueue(label: "TestSupport.watch")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let finished = Mutex(false)
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        timer.setEventHandler {
            guard !finished.withLock({ $0 }) else { return }
            let held = condition()
            guard held || ContinuousClock.now >= deadline else { return }
            finished.withLock { $0 = true }
            timer.cancel()
            continuation.resume(returning: held ? action() : nil)
        }
        timer.schedule(
            deadline: .now(), repeating: .nanoseconds(max(nanoseconds, 1_000)), leeway: .microseconds(100))
        timer.resume()
    }
}

/// Runs `action` `delay` from now on a dispatch queue of its own and returns its result: a
/// window of a child process's work that ends on time however busy Swift's cooperative pool
/// is (a task sleeping there may be resumed seconds late), as ``watch(every:within:until:then:)``
/// does for a condition.
public func after<Result: Sendable>(
    _ delay: Duration, then action: @escaping @Sendable () -> Result
) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue(label: "TestSupport.after").asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) {
            continuation.resume(returning: action())
        }
    }
}
