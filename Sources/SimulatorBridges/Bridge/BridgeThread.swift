import SystemSupport

/// A POSIX thread of its own for blocking socket work, off Swift's cooperative thread pool.
struct BridgeThread: Sendable {
    private let handle: pthread_t

    /// The closure the new thread runs, handed over through `pthread_create`'s argument.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`.
    init(_ body: @escaping @Sendable () -> Void) throws(SimulatorBridgeError) {
        let argument = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, argument)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(argument).release()
            throw SimulatorBridgeError(.systemFailure, "cannot start a thread (error \(result))")
        }
        self.handle = handle
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(handle, nil)
    }
}
