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
///
/// The handler is installed with `sigaction` before `init` returns, so a signal that arrives
/// right after (a test or a shell that signals as soon as the command says it is ready) is never
/// lost: the handler writes the signal number to a pipe (the one async-signal-safe thing it
/// does), and a dispatch source reading the pipe resumes the waiting task.
final class SignalWaiter: Sendable {
    /// The signals waited for.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// The write end of the pipe the handler writes to; -1 before the first waiter. Set once,
    /// before any handler is installed, and read only by the handler (a lock-free atomic:
    /// async-signal-safe).
    private static let writeDescriptor = Atomic<Int32>(-1)
    /// The pipe's read end, made once per process.
    private static let readDescriptor: Int32 = {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return -1 }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
        writeDescriptor.store(descriptors[1], ordering: .sequentiallyConsistent)
        return descriptors[0]
    }()

    private let queue = DispatchQueue(label: "ndeftool.signals")
    private let state = Mutex<State>(State())

    private struct State: @unchecked Sendable {
        /// Kept alive while waiting (dispatch sources are not Sendable).
        var source: (any DispatchSourceRead)?
        var received: Int32?
        var continuation: CheckedContinuation<Int32, Never>?
    }

    /// Starts catching the signals.
    init() {
        let descriptor = Self.readDescriptor
        guard descriptor >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in
            var number: UInt8 = 0
            guard read(descriptor, &number, 1) == 1 else { return }
            self?.received(Int32(number))
        }
        source.resume()
        state.withLock { $0.source = source }
        for number in Self.signals {
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = { signalNumber in
                    var byte = UInt8(truncatingIfNeeded: signalNumber)
                    _ = write(SignalWaiter.writeDescriptor.load(ordering: .sequentiallyConsistent), &byte, 1)
                }
            #else
                action.__sigaction_handler.sa_handler = { signalNumber in
                    var byte = UInt8(truncatingIfNeeded: signalNumber)
                    _ = write(SignalWaiter.writeDescriptor.load(ordering: .sequentiallyConsistent), &byte, 1)
                }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
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
