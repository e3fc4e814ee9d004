import Foundation
import SystemSupport

/// Runs the built `ndeftool` as an operator does, one command at a time, in the exploration's
/// folder, with the state folder (records of password changes) of the exploration's own.
struct CommandRunner {
    /// The ndeftool executable.
    let executable: String
    /// The folder of the tag file, the password files and the state.
    let folder: String

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
        for name in ["NDEFTOOL_READER", "NDEFTOOL_PASSWORD", "NDEFTOOL_OLD_PASSWORD", "NDEFTOOL_MASTER_SECRET"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = folder + "/state"
        environment["XDG_CONFIG_HOME"] = folder + "/config"
        process.environment = environment
        let log = folder + "/.command-output"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
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

    /// Writes `bytes` to a new or replaced file at `path`; whether it worked.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
}
