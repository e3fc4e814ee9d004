import Dispatch
import Synchronization
import SystemSupport

/// Waits for SIGINT or SIGTERM, which no longer end the process once the waiter exists: a
/// long-running command uses it to stop cleanly (a batch after the tags in progress, 130 or
/// 143; `sim serve` with 0).
///
/// Only the first signal is waited for: a second one ends the process at once, as if it had
/// not been caught (the journal of a batch survives that, as it survives kill -9). When the
/// wait is cancelled (the command's work ended first), the handlers that were there before
/// are put back, so a signal during what follows (writing reports) ends the process.
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

    /// How many signals came since the last waiter was made. Read and counted by the handler (a
    /// lock-free atomic: async-signal-safe).
    private static let count = Atomic<Int32>(0)

    private struct State: @unchecked Sendable {
        /// Kept alive while waiting (dispatch sources are not Sendable).
        var source: (any DispatchSourceRead)?
        var received: Int32?
        var continuation: CheckedContinuation<Int32?, Never>?
        /// The handlers before this waiter's, put back when the wait is cancelled.
        var previous: [Int32: sigaction] = [:]
        var isCancelled = false
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
        Self.count.store(0, ordering: .sequentiallyConsistent)
        for number in Self.signals {
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = { signalNumber in SignalWaiter.handle(signalNumber) }
            #else
                action.__sigaction_handler.sa_handler = { signalNumber in SignalWaiter.handle(signalNumber) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            sigaction(number, &action, &previous)
            state.withLock { $0.previous[number] = previous }
        }
    }

    /// The handler: only async-signal-safe calls. The first signal goes to the pipe; a second
    /// one ends the process (``InterruptGuard/stop(_:)``).
    private static func handle(_ number: Int32) {
        guard count.add(1, ordering: .sequentiallyConsistent).oldValue == 0 else {
            InterruptGuard.stop(number)
            return
        }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeDescriptor.load(ordering: .sequentiallyConsistent), &byte, 1)
    }

    private func received(_ number: Int32) {
        let continuation = state.withLock { state -> CheckedContinuation<Int32?, Never>? in
            if state.received == nil { state.received = number }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: number)
    }

    /// Waits for the first signal (returns at once if one came already) and returns its number;
    /// nil when the waiting task is cancelled, which puts the earlier handlers back.
    func wait() async -> Int32? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early = state.withLock { state -> Int32?? in
                    if let received = state.received { return .some(received) }
                    if state.isCancelled { return .some(nil) }
                    state.continuation = continuation
                    return nil
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the wait with nil and puts the handlers that were there before back (once).
    private func cancel() {
        typealias Ending = (continuation: CheckedContinuation<Int32?, Never>?, previous: [Int32: sigaction])
        let ending = state.withLock { state -> Ending in
            guard !state.isCancelled else { return (nil, [:]) }
            state.isCancelled = true
            defer { state.continuation = nil }
            return (state.continuation, state.previous)
        }
        let (continuation, previous) = ending
        for (number, action) in previous {
            var action = action
            sigaction(number, &action, nil)
        }
        continuation?.resume(returning: nil)
    }
}
