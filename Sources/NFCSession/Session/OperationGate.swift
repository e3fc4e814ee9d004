import Synchronization

/// Runs a tag's operations one at a time, in the order they were called, and refuses to start one
/// once the session is invalidated or the task is cancelled.
///
/// An operation that has started runs to its end (a write is never abandoned half-way by the
/// caller); ``leave()`` hands the gate straight to the next waiting operation.
final class OperationGate: Sendable {
    private struct State {
        var isBusy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let lifetime: SessionLifetime

    /// Creates a gate for the tags of the session with `lifetime`.
    init(lifetime: SessionLifetime) {
        self.lifetime = lifetime
    }

    /// Whether the session was invalidated.
    var isInvalidated: Bool { lifetime.isInvalidated }

    /// Waits for the operation running to end, then starts one; every successful call is matched
    /// by one ``leave()``.
    ///
    /// - Throws: ``NFCReaderError/Code/cancelled`` when the session was invalidated or the task is
    ///   cancelled (the gate is then not held).
    func enter() async throws(NFCReaderError) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let startsNow = state.withLock { state in
                if state.isBusy {
                    state.waiters.append(continuation)
                    return false
                }
                state.isBusy = true
                return true
            }
            if startsNow { continuation.resume() }
        }
        if lifetime.isInvalidated {
            leave()
            throw NFCReaderError(.cancelled, "the session was invalidated: the tag can no longer be used")
        }
        if Task.isCancelled {
            leave()
            throw NFCReaderError(.cancelled, "the task was cancelled before the operation started")
        }
    }

    /// Ends the running operation: the next waiting one starts, or the gate opens.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.isBusy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
