import Dispatch

/// A serial executor over a private dispatch queue, for reader backends whose C library calls
/// block (pcsc-lite waiting for pcscd, libnfc waiting for a serial PN532): an actor that uses it
/// as its executor runs there, and ``run(_:)`` runs a blocking closure there from any async
/// context, so no blocking call ever occupies Swift's cooperative thread pool.
///
/// Linux has no `DispatchSerialQueue` conforming to `SerialExecutor`, so jobs are handed to the
/// queue one by one. Shared by the backends of this package (`package` access), not API.
package final class SerialQueueExecutor: SerialExecutor {
    /// The queue every job and blocking call runs on.
    package let queue: DispatchQueue

    /// An executor with a new serial queue labelled `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the queue and returns its result.
    package func run<Value: Sendable, Failure: Error>(
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
