/// A C library error number (`errno`), with the C library's message for it: the one place
/// the package turns `errno` into text. Shared by the modules of this package (`package`
/// access), not API.
package struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The thread's `errno` now.
    package static var current: Errno { Errno(rawValue: errno) }

    /// `EINTR`: a signal interrupted the call before it did anything.
    package static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN` (`EWOULDBLOCK` on Linux): a non-blocking call would have to wait.
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOENT`: no such file or directory.
    package static let noSuchFile = Errno(rawValue: ENOENT)

    /// The C library's message (`strerror`), such as "No such file or directory".
    package var description: String {
        strerror(rawValue).map { String(cString: $0) } ?? "error \(rawValue)"
    }
}

/// Calls `body`, a C call that returns -1 and sets `errno` when it fails, and returns its
/// value or its `errno`. With `retryOnInterrupt` (the default) a call interrupted by a signal
/// (`EINTR`) is made again: the one EINTR loop of the package (as swift-system's
/// `valueOrErrno(retryOnInterrupt:)` does).
package func valueOrErrno<Value: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ body: () -> Value
) -> Result<Value, Errno> {
    while true {
        let value = body()
        guard value == -1 else { return .success(value) }
        let error = Errno.current
        guard retryOnInterrupt, error == .interrupted else { return .failure(error) }
    }
}

/// As ``valueOrErrno(retryOnInterrupt:_:)`` for a call that returns 0 on success.
package func nothingOrErrno(retryOnInterrupt: Bool = true, _ body: () -> Int32) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}
