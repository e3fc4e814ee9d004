import Dispatch
import Foundation

/// The vpcd port the CLI tests serve tags on through the real pcscd (reader `Virtual PCD 00 01`,
/// 35964), and the semaphore that gives it to one test at a time across suites.
enum SecondVPCDPort {
    static let port = 35964
    static let readerName = "Virtual PCD 00 01"
    // A semaphore, not a lock: an async test takes it on one thread and may give it back on another.
    private static let semaphore = DispatchSemaphore(value: 1)

    /// Runs `body` while no other test uses the port.
    static func withPort<Result>(_ body: () throws -> Result) rethrows -> Result {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }

    /// ``withPort(_:)`` for an async body: the wait happens on a thread of its own, off the
    /// cooperative pool.
    static func withPortAsync(_ body: () async throws -> Void) async throws {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                semaphore.wait()
                continuation.resume()
            }
        }
        defer { semaphore.signal() }
        try await body()
    }
}
