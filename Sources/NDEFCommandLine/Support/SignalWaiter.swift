import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for SIGINT or SIGTERM, which no longer end the process once the waiter exists: a
/// long-running command uses it to stop cleanly and exit with status 0.
final class SignalWaiter: Sendable {
    /// The signals waited for.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    private let queue = DispatchQueue(label: "ndeftool.signals")
    private let state = Mutex<State>(State())

    private struct State: @unchecked Sendable {
        /// Kept alive while waiting (dispatch sources are not Sendable).
        var sources: [any DispatchSourceSignal] = []
        var received: Int32?
        var continuation: CheckedContinuation<Int32, Never>?
    }

    /// Starts catching the signals.
    init() {
        for number in Self.signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            state.withLock { $0.sources.append(source) }
        }
    }

    private func received(_ number: Int32) {
        let continuation = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            if state.received == nil { state.received = number }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: number)
    }

    /// Waits for the first signal (returns at once if one came already) and returns its number.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let early = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }
}
