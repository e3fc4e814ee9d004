import SystemSupport

/// Reading and writing whole files through POSIX calls, so every failure is reported with
/// the system's own reason (`No such file or directory`, `Is a directory`, ...).
enum FileAccess {
    /// The most bytes read from one input: far more than any NFC tag holds, and a bound
    /// against endless inputs such as `/dev/zero`.
    static let inputLimit = 16 * 1024 * 1024

    /// Whether `first` and `second` name the same file: the same device and inode when both
    /// exist, else the same absolute path once `.` and `..` are resolved (symbolic links are
    /// followed only when the file exists).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        return absolute(first) == absolute(second)
    }

    /// `path` made absolute against the working folder, `.` and `..` and repeated slashes resolved.
    private static func absolute(_ path: String) -> String {
        var components: [Substring] = []
        var base = ""
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                base = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        for part in (base + "/" + path).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(part)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// Whether something (a file, a directory) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The contents of the regular file at `path` (`FileContents` of SystemSupport); a missing
    /// or unreadable file is ``ExitStatus/noInput``; anything but a regular file (a FIFO, a
    /// device: refused before it could block) and a file over `limit` bytes are
    /// ``ExitStatus/dataError``.
    static func readFile(path: String, limit: Int = inputLimit) throws(CommandLineError) -> [UInt8] {
        switch FileContents.read(path: path, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw CommandLineError(status(of: failure), "cannot read '\(path)': \(failure)")
        }
    }

    /// Everything readable from `descriptor`, at most `limit` bytes.
    static func readAll(descriptor: Int32, limit: Int) throws(CommandLineError) -> [UInt8] {
        switch FileContents.read(descriptor: descriptor, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw CommandLineError(status(of: failure), failure.description)
        }
    }

    /// The exit status of a failed read: too much input and what is not a regular file are bad
    /// data, anything else no input.
    static func status(of failure: FileContents.Failure) -> ExitStatus {
        switch failure {
        case .tooLarge, .notRegular: .dataError
        case .open, .read: .noInput
        }
    }

    /// Refuses an output path that names something other than a regular file (a FIFO, a
    /// device), before a command does anything it would then have no place to report:
    /// ``ExitStatus/dataError`` naming `option`. A path that does not exist yet is fine, and so
    /// is `-` where it means standard output (`dashIsStandardOutput`).
    static func checkOutput(_ path: String, option: String, dashIsStandardOutput: Bool = true) throws(CommandLineError)
    {
        if dashIsStandardOutput && path == "-" { return }
        guard let kind = RegularFile.kind(at: path) else { return }
        let advice = dashIsStandardOutput ? "Name a file, or - for standard output" : "Name a file"
        throw CommandLineError(.dataError, "\(option) '\(path)': it is \(kind), not a regular file. \(advice)")
    }

    /// Writes `bytes` to a new or truncated regular file at `path`; a path naming anything else
    /// (a FIFO, a device) is ``ExitStatus/dataError``, before it could block; other failures are
    /// ``ExitStatus/ioError``.
    static func writeFile(_ bytes: [UInt8], path: String) throws(CommandLineError) {
        try writeFile(path: path) { write throws(CommandLineError) in try write(bytes) }
    }

    /// Writes to a new or truncated regular file at `path` what `produce` hands the writer it
    /// gets, a piece at a time (a report of a million rows is never in memory as a whole);
    /// failures as ``writeFile(_:path:)``.
    static func writeFile(
        path: String,
        _ produce: (_ write: ([UInt8]) throws(CommandLineError) -> Void) throws(CommandLineError) -> Void
    ) throws(CommandLineError) {
        let descriptor: Int32
        switch RegularFile.open(path, O_WRONLY | O_CREAT | O_TRUNC) {
        case .success(let opened): descriptor = opened
        case .failure(.notRegular(let kind)):
            throw CommandLineError(.dataError, "cannot write '\(path)': it is \(kind), not a regular file")
        case .failure(.open(let error)): throw CommandLineError(.ioError, "cannot write '\(path)': \(error)")
        }
        do {
            try produce { bytes throws(CommandLineError) in
                if let failure = writeAll(bytes, descriptor: descriptor) {
                    throw CommandLineError(.ioError, "cannot write '\(path)': \(failure)")
                }
            }
        } catch {
            close(descriptor)
            throw error
        }
        if close(descriptor) != 0 { throw CommandLineError(.ioError, "cannot write '\(path)': \(systemError())") }
    }

    /// Replaces the file at `path` in folder `directory` with `bytes`, so that a crash leaves
    /// the old file or the new one, never a torn one: the folder and its parents are made (mode
    /// 0700, the XDG Base Directory specification's), the bytes go to a temporary regular file
    /// beside it (`O_NOFOLLOW`, synced), which is renamed over `path`, and the folder is synced.
    /// Blocking: call it through `BlockingCall.run`.
    ///
    /// - Returns: nil, or why the file could not be replaced (the temporary file is removed).
    static func replaceFile(_ bytes: [UInt8], path: String, in directory: String, mode: mode_t) -> String? {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { return "cannot create '\(prefix)': \(systemError())" }
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor: Int32
        switch RegularFile.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return "cannot write '\(temporary)': \(failure)"
        }
        var failure = writeAll(bytes, descriptor: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = systemError() }
        if close(descriptor) != 0, failure == nil { failure = systemError() }
        if failure == nil, rename(temporary, path) != 0 { failure = systemError() }
        if let failure {
            unlink(temporary)
            return "cannot write '\(path)': \(failure)"
        }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return nil
    }

    /// Writes all of `bytes`; returns the system's reason on failure.
    static func writeAll(_ bytes: [UInt8], descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                SystemCall.write(descriptor, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            switch result {
            case .success(let count): offset += count
            case .failure(let error): return error.description
            }
        }
        return nil
    }

    /// The description of the current `errno`.
    static func systemError() -> String {
        Errno.current.description
    }
}
