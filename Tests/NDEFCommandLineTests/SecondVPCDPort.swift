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
        defer { release() }
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
        defer { release() }
        try await body()
    }

    /// Gives the port to the next test once pcscd has seen the last card leave (it looks every
    /// 0.4 s), so that the next test starts with an empty reader.
    private static func release() {
        usleep(1_000_000)
        semaphore.signal()
    }
}
