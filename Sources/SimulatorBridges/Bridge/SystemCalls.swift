import SystemSupport

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
