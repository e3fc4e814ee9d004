import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// The contents of the file at `path` (`FileContents` of SystemSupport); a missing or
    /// unreadable file, or anything but a regular file with `regularOnly`, is
    /// ``ExitStatus/noInput``; a file over `limit` bytes is ``ExitStatus/dataError``.
    static func readFile(path: String, limit: Int = inputLimit, regularOnly: Bool = false) throws(CommandLineError)
        -> [UInt8]
    {
        switch FileContents.read(path: path, limit: limit, regularOnly: regularOnly) {
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

    /// The exit status of a failed read: too much input is bad data, anything else no input.
    static func status(of failure: FileContents.Failure) -> ExitStatus {
        if case .tooLarge = failure { return .dataError }
        return .noInput
    }

    /// Writes `bytes` to a new or truncated file at `path`; failure is ``ExitStatus/ioError``.
    static func writeFile(_ bytes: [UInt8], path: String) throws(CommandLineError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        guard descriptor >= 0 else {
            throw CommandLineError(.ioError, "cannot write '\(path)': \(systemError())")
        }
        let failure = writeAll(bytes, descriptor: descriptor)
        let closed = close(descriptor)
        if let failure { throw CommandLineError(.ioError, "cannot write '\(path)': \(failure)") }
        if closed != 0 { throw CommandLineError(.ioError, "cannot write '\(path)': \(systemError())") }
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
