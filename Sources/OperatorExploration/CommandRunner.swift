import Foundation
import SystemSupport

/// Runs the built `ndeftool` as an operator does, one command at a time, in the exploration's
/// folder, with the state folder (records of password changes) of the exploration's own.
struct CommandRunner {
    /// The ndeftool executable.
    let executable: String
    /// The folder of the tag file, the password files and the state.
    let folder: String
    /// A PostgreSQL database for batch jobs kept in one (a libpq connection string); nil: none.
    var database: String?

    /// What one command did.
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `arguments`; standard output and standard error together in `output`.
    func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "NDEFTOOL_READER", "NDEFTOOL_PASSWORD", "NDEFTOOL_OLD_PASSWORD", "NDEFTOOL_MASTER_SECRET",
            "NDEFTOOL_DATABASE_URL",
        ] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = folder + "/state"
        environment["XDG_CONFIG_HOME"] = folder + "/config"
        process.environment = environment
        let log = folder + "/.command-output"
        guard FileBytes.write([], to: log) else { throw ExplorationFailure("cannot create \(log)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, output: output)
    }
}

/// Whole files.
enum FileBytes {
    /// The bytes of the file at `path`; nil when it is absent or unreadable.
    static func read(_ path: String) -> [UInt8]? {
        try? FileContents.read(path: path, limit: 1 << 20).get()
    }

    /// Writes `bytes` to a new or truncated file at `path` (mode 0600); whether it worked. Plain
    /// POSIX calls: Foundation's atomic writes leave a `TemporaryDirectory.*` folder behind in
    /// `$TMPDIR`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
