#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole files read through POSIX calls, bounded, each failure with the system's own reason:
/// the one read-everything loop of the package (the command line's inputs, batch plans,
/// record-specification files).
package enum FileContents {
    /// Why a file could not be read.
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `open(2)` or `fstat(2)` failed.
        case open(Errno)
        /// The path names something other than a regular file (``read(path:limit:regularOnly:)``
        /// with `regularOnly`): "a folder", "a FIFO", "a socket" or "a device".
        case notRegular(String)
        /// `read(2)` failed.
        case read(Errno)
        /// The file holds more than the limit.
        case tooLarge(limit: Int)

        /// The system's reason, or what the file is: `No such file or directory`,
        /// `it is a FIFO, not a regular file`, `more than 16 bytes of input`.
        package var description: String {
            switch self {
            case .open(let error), .read(let error): error.description
            case .notRegular(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let limit): "more than \(limit) bytes of input"
            }
        }
    }

    /// The contents of the file at `path`, at most `limit` bytes.
    ///
    /// With `regularOnly`, anything but a regular file (a FIFO, a device, a socket) is refused
    /// before it is read: it is opened without waiting for a writer (`O_NONBLOCK`, which a
    /// regular file ignores), so a FIFO nobody writes to cannot hang the caller.
    package static func read(path: String, limit: Int, regularOnly: Bool = false) -> Result<[UInt8], Failure> {
        let descriptor: Int32
        switch SystemCall.open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0)) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(.open(error))
        }
        defer { SystemCall.close(descriptor) }
        if regularOnly {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return .failure(.open(.current)) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                let kind =
                    switch status.st_mode & S_IFMT {
                    case S_IFDIR: "a folder"
                    case S_IFIFO: "a FIFO"
                    case S_IFSOCK: "a socket"
                    default: "a device"
                    }
                return .failure(.notRegular(kind))
            }
        }
        return read(descriptor: descriptor, limit: limit)
    }

    /// Everything readable from `descriptor` until its end, at most `limit` bytes.
    package static func read(descriptor: Int32, limit: Int) -> Result<[UInt8], Failure> {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count: Int
            switch buffer.withUnsafeMutableBytes({ SystemCall.read(descriptor, into: $0) }) {
            case .success(let read): count = read
            case .failure(let error): return .failure(.read(error))
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: buffer.prefix(count))
            if bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
        }
    }
}
