import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library calls the bridges make, each failure turned into one ``SimulatorBridgeError``.
enum SystemCalls {
    /// `TCP_NODELAY` (`<netinet/tcp.h>`): send segments at once.
    static let tcpNoDelay: Int32 = 1
    /// `TCP_QUICKACK` (Linux `<netinet/tcp.h>`): acknowledge at once. The kernel clears it
    /// again, so it is set before every receive.
    static let tcpQuickAck: Int32 = 12

    /// The error for a failed call, with the C library's message for `errno` (or `error`).
    static func failure(_ action: String, _ error: Errno = .current) -> SimulatorBridgeError {
        SimulatorBridgeError(.systemFailure, "cannot \(action): \(error)")
    }

    /// Sets an integer socket option to `value`; false when the call failed.
    @discardableResult
    static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32) -> Bool {
        var value = value
        return setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Waits until `descriptors` are readable, at most `milliseconds` (-1: no limit); the
    /// readable ones, empty on a time-out. Interrupted waits are resumed.
    static func waitReadable(_ descriptors: [Int32], milliseconds: Int32) -> [Int32] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let waited = valueOrErrno {
            entries.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
            }
        }
        guard case .success(let count) = waited, count > 0 else { return [] }
        let ready = Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)
        return entries.filter { $0.revents & ready != 0 }.map(\.fd)
    }
}

/// A pipe that wakes a thread waiting in ``SystemCalls/waitReadable(_:milliseconds:)``.
final class Wakeup: Sendable {
    /// The end the waiting thread watches.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(SimulatorBridgeError) {
        var ends: [Int32] = [-1, -1]
        let result = ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        guard result == 0 else { throw SystemCalls.failure("create a pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the waiting thread (a full pipe is awake already).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

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
