/// Whole files read through POSIX calls, bounded, each failure with the system's own reason:
/// the one read-everything loop of the package (the command line's inputs, batch plans,
/// record-specification files).
package enum FileContents {
    /// Why a file could not be read.
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `open(2)` or `fstat(2)` failed.
        case open(Errno)
        /// The path names something other than a regular file: "a folder", "a FIFO",
        /// "a socket" or "a device".
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

    /// The contents of the regular file at `path`, at most `limit` bytes; anything else (a
    /// FIFO, a device, a socket, a folder) is refused before it could block
    /// (``RegularFile/open(_:_:mode:)``).
    package static func read(path: String, limit: Int) -> Result<[UInt8], Failure> {
        let descriptor: Int32
        switch RegularFile.open(path, O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(.open(let error)): return .failure(.open(error))
        case .failure(.notRegular(let kind)): return .failure(.notRegular(kind))
        }
        defer { SystemCall.close(descriptor) }
        // The file's size, when it tells, is the buffer's from the start: a 250 MB plan then
        // never sits in memory twice while the buffer grows.
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        return read(descriptor: descriptor, limit: limit, expectedSize: size)
    }

    /// Everything readable from `descriptor` until its end, at most `limit` bytes; room for
    /// `expectedSize` bytes (capped at the limit) is made at once.
    package static func read(descriptor: Int32, limit: Int, expectedSize: Int = 0) -> Result<[UInt8], Failure> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(expectedSize, 0), limit) + 1)
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
