import Dispatch

/// A serial executor over a private dispatch queue: the PC/SC calls of a reader (which block
/// until pcscd and the reader answer) run there, never on Swift's cooperative thread pool.
///
/// Linux has no `DispatchSerialQueue` conforming to `SerialExecutor`, so jobs are handed to the
/// queue one by one. ``run(_:)`` runs a blocking closure on the queue from any async context.
final class PCSCExecutor: SerialExecutor {
    /// The queue every job and blocking call runs on.
    let queue: DispatchQueue

    /// An executor with a new serial queue labelled `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the queue and returns its result.
    func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result(catching: body))
            }
        }
        return try result.get()
    }
}
