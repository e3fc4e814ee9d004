import SystemSupport

/// The few file operations provisioning needs, over Glibc, each failure a
/// ``ProvisioningError`` with code `io` naming the path and the C library's message.
enum FileSystem {
    /// An `io` error for `operation` on `path` from the current `errno`.
    static func failure(_ operation: String, _ path: String, _ error: Errno = .current) -> ProvisioningError {
        ProvisioningError(.io, "\(operation) \(path): \(error)")
    }

    /// Opens the regular file at `path` (SystemSupport's `RegularFile`: never a FIFO or a
    /// device, never a wait in `open(2)`), close-on-exec.
    ///
    /// - Throws: `notAJournal` for a path naming something other than a regular file (it is
    ///   left as it is); `io` naming `operation` for other failures.
    static func openRegular(
        _ path: String, _ flags: Int32, mode: mode_t = 0o666, _ operation: String
    ) throws(ProvisioningError) -> Int32 {
        switch RegularFile.open(path, flags, mode: mode) {
        case .success(let descriptor): return descriptor
        case .failure(.notRegular(let kind)):
            throw ProvisioningError(.notAJournal, "\(path): it is \(kind), not a regular file: it is not a journal")
        case .failure(.open(let error)): throw failure(operation, path, error)
        }
    }

    /// The whole content of the regular file at `path`, refusing files larger than `limit`
    /// bytes and anything but a regular file.
    static func read(_ path: String, limit: Int) throws(ProvisioningError) -> [UInt8] {
        switch FileContents.read(path: path, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(.open(let error)): throw failure("cannot open", path, error)
        case .failure(.notRegular(let kind)):
            throw ProvisioningError(.notAJournal, "\(path): it is \(kind), not a regular file: it is not a journal")
        case .failure(.tooLarge): throw ProvisioningError(.limitExceeded, "\(path) is larger than \(limit) bytes")
        case .failure(let other): throw ProvisioningError(.io, "cannot read \(path): \(other)")
        }
    }

    /// Writes `bytes` with one `write()` call (retried only when interrupted before writing
    /// anything). A short write is an error: the caller truncates it away.
    static func writeOnce(_ fd: Int32, _ bytes: [UInt8], path: String) throws(ProvisioningError) {
        let result = bytes.withUnsafeBytes { SystemCall.write(fd, from: $0) }
        guard case .success(let written) = result else { throw failure("cannot write", path) }
        guard written == bytes.count else {
            throw ProvisioningError(.io, "short write to \(path): \(written) of \(bytes.count) bytes")
        }
    }

    /// Flushes `fd` to stable storage.
    static func sync(_ fd: Int32, path: String) throws(ProvisioningError) {
        guard case .success = nothingOrErrno({ fsync(fd) }) else { throw failure("cannot fsync", path) }
    }

    /// Flushes the directory holding `path`, so that a newly created file's name is durable.
    static func syncDirectory(of path: String) throws(ProvisioningError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open directory", directory) }
        defer { close(fd) }
        try sync(fd, path: directory)
    }

    /// Takes the exclusive `flock` of `fd` without waiting (released when the file is closed,
    /// also by the process's end, a crash or kill -9 included).
    ///
    /// - Throws: `journalInUse` when another open file description holds it.
    static func lockExclusively(_ fd: Int32, path: String) throws(ProvisioningError) {
        switch nothingOrErrno({ flock(fd, LOCK_EX | LOCK_NB) }) {
        case .success: return
        case .failure(.wouldBlock):
            throw ProvisioningError(
                .journalInUse, "\(path) is in use by another run of the job (another process has it open)")
        case .failure(let error): throw failure("cannot lock", path, error)
        }
    }

    /// The size of the open file `fd`.
    static func size(_ fd: Int32, path: String) throws(ProvisioningError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat", path) }
        return Int(info.st_size)
    }
}
