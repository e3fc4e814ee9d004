import SystemSupport

/// The few operating-system services the benchmarks need: files, standard error, exit.
public enum Platform {
    /// Creates the directory `path` if needed (its parent must exist).
    public static func makeDirectory(_ path: String) -> Bool {
        mkdir(path, 0o755) == 0 || errno == EEXIST
    }

    /// Writes `bytes` to `path`, replacing it; returns whether every byte was written.
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        let written = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { fwrite($0, 1, buffer.count, file) } ?? 0
        }
        return fclose(file) == 0 && written == bytes.count
    }

    /// Writes `text` and a newline to standard error.
    public static func printError(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { SystemCall.write(STDERR_FILENO, from: $0) }
    }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        terminate(status)
    }
}

/// The C library's `exit`, which ``Platform/exit(_:)`` cannot call by its own name.
private func terminate(_ status: Int32) -> Never { exit(status) }
