import Dispatch
import NFCSession
import Synchronization

/// A loop of `SCardGetStatusChange` waits on its own context and dispatch queue, feeding an
/// `AsyncThrowingStream` until the consumer stops listening.
///
/// The wait blocks its queue's thread, never the cooperative pool. Stopping sets a flag and
/// calls `SCardCancel`, which wakes a wait in progress; waits are at most one second, so a stop
/// that lands between two waits is seen within a second too.
final class PCSCStatusWatch: Sendable {
    /// The longest single wait.
    static let waitMilliseconds: UInt32 = 1000

    private struct State {
        var context: PCSCContext?
        var isStopped = false
    }

    private let state = Mutex(State())

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.isStopped } }

    /// Stops the loop: cancels a wait in progress (`SCardCancel` talks to pcscd, so it is sent
    /// from a dispatch queue, not from the caller's thread).
    func stop() {
        let context = state.withLock { state in
            state.isStopped = true
            return state.context
        }
        guard let context else { return }
        // A queue of its own, not a global one (those share the cooperative pool's threads on Linux).
        DispatchQueue(label: "ndeftool.pcsc.cancel").async { context.cancel() }
    }

    /// Lets go of the context once the loop has ended, on the loop's queue.
    private func detach() {
        state.withLock { $0.context = nil }
    }

    /// Establishes the watch's context; nil when the watch was stopped meanwhile.
    func establishContext() throws(PCSCError) -> PCSCContext? {
        let context = try PCSCContext()
        let attached = state.withLock { state in
            guard !state.isStopped else { return false }
            state.context = context
            return true
        }
        return attached ? context : nil
    }

    /// Waits for a change in `states` unless stopped; false when the loop should end (stopped or
    /// cancelled). A wait that times out returns true with nothing changed.
    func wait(_ context: PCSCContext, _ states: inout [PCSCReaderState]) throws(PCSCError) -> Bool {
        guard !isStopped else { return false }
        do {
            try context.statusChange(&states, timeoutMilliseconds: Self.waitMilliseconds)
        } catch {
            switch error.status {
            case PCSCStatusCode.timeout:
                for index in states.indices { states[index].eventState = states[index].currentState }
                return !isStopped
            case PCSCStatusCode.cancelled:
                return false
            default:
                throw error
            }
        }
        return !isStopped
    }

    /// Runs `loop` on a new serial queue; its end, or its error as an ``NFCSession/NFCReaderError``,
    /// finishes the stream. The stream's termination stops the watch.
    static func stream<Element: Sendable>(
        label: String,
        _ loop:
            @escaping @Sendable (PCSCStatusWatch, AsyncThrowingStream<Element, any Error>.Continuation)
            throws(PCSCError) -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let watch = PCSCStatusWatch()
        continuation.onTermination = { _ in watch.stop() }
        DispatchQueue(label: label).async {
            defer { watch.detach() }
            do throws(PCSCError) {
                try loop(watch, continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error.confirmingService().readerError)
            }
        }
        return stream
    }
}
