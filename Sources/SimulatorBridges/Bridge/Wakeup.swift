import SystemSupport

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
