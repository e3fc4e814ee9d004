/// The one way the package opens a file it is given by name: regular files only, and never a
/// wait in `open(2)`.
///
/// A FIFO nobody writes to (or reads from) blocks `open(2)` and every read or write after it;
/// a device or socket is no file of ours to read or replace. Such a path is refused with what it
/// is, before it is opened: `stat(2)` first (a refusal never touches the thing), then the open
/// itself with `O_NONBLOCK` (so a FIFO swapped in between still cannot block it) and `fstat(2)`
/// of what was opened, which is the check that counts. `O_NONBLOCK` is cleared again on the
/// regular file, where it means nothing anyway.
///
/// Callers: the inputs of the command line (messages, plans, password, secret and key files),
/// its outputs (`-o`, reports, dumps), the batch journal and the files of the user's state.
package enum RegularFile {
    /// Why a path was not opened.
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `open(2)`, `stat(2)` or `fstat(2)` failed.
        case open(Errno)
        /// The path names something other than a regular file: "a folder", "a FIFO",
        /// "a socket" or "a device".
        case notRegular(String)

        /// The system's reason, or what the path names: `No such file or directory`,
        /// `it is a FIFO, not a regular file`.
        package var description: String {
            switch self {
            case .open(let error): error.description
            case .notRegular(let kind): "it is \(kind), not a regular file"
            }
        }
    }

    /// Opens the regular file at `path` with `flags` (`O_RDONLY`, or `O_WRONLY` with `O_CREAT`,
    /// `O_TRUNC`, `O_EXCL`, `O_APPEND` as needed) and `mode` for a file it creates; the
    /// descriptor is close-on-exec. Symbolic links are followed, as for any file argument.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o666) -> Result<Int32, Failure> {
        var status = stat()
        if stat(path, &status) == 0, let kind = kind(of: status) { return .failure(.notRegular(kind)) }
        let descriptor: Int32
        switch SystemCall.open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode: mode) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(.open(error))
        }
        guard fstat(descriptor, &status) == 0 else {
            let error = Errno.current
            SystemCall.close(descriptor)
            return .failure(.open(error))
        }
        if let kind = kind(of: status) {
            SystemCall.close(descriptor)
            return .failure(.notRegular(kind))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    /// What `status` describes when it is not a regular file; nil for a regular file.
    package static func kind(of status: stat) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a device"
        }
    }

    /// What `path` names when it exists and is not a regular file; nil for a regular file or
    /// nothing at all (a path an output may create). For refusing an output before a job starts.
    package static func kind(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return kind(of: status)
    }
}
