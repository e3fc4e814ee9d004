import Dispatch

/// Runs a call that blocks (a terminal read waiting for a person, joining a thread, `fsync`)
/// on a thread outside the cooperative pool and suspends the calling task meanwhile, so the call never holds one of
/// the cooperative pool's few threads. For calls that happen now and then; a device whose every
/// call blocks has a ``SerialQueueExecutor`` of its own. Shared by the modules of this package
/// (`package` access), not API.
package enum BlockingCall {
    /// Runs `body` off the cooperative pool and returns what it returns.
    package static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            // A queue of its own: dispatch gives it a thread outside the cooperative pool (the
            // global queues share the pool's threads on Linux).
            DispatchQueue(label: "ndeftool.blocking-call").async {
                continuation.resume(returning: Result(catching: body))
            }
        }
        return try result.get()
    }
}
