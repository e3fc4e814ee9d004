import Foundation

/// Runs `body`, which blocks (a C call that waits: `accept`, `recv`, `SCardGetStatusChange`), on
/// a thread of its own and returns its result, without holding a thread of Swift's cooperative
/// pool while it waits.
///
/// Swift Testing runs every test on the cooperative pool, which has as many threads as the
/// machine has cores: a test that makes a blocking call there stalls all others. The awaiting
/// task is suspended until `body` returns; `body` runs on a new `Thread`, so a long wait takes
/// no thread from a shared queue either.
public func offPool<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: Result(catching: body)) }
        thread.name = "TestSupport.offPool"
        thread.start()
    }
    return try result.get()
}
