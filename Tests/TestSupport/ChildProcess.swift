import CProcessControl
import Foundation
import Synchronization
import SystemSupport
import Testing

/// A program a test starts, waited for without holding a thread.
///
/// Swift Testing runs tests on Swift's cooperative thread pool, which has as many threads as the
/// machine has cores: a test that blocks one (waiting for a program to exit, sleeping a thread,
/// a semaphore) stalls every other test, and the library code under test with it. A
/// `ChildProcess` is started with `posix_spawn` and waited for by a thread of its own
/// (`waitpid`), which resumes the tasks awaiting ``exit()`` or ``finish(timeout:sourceLocation:)``;
/// standard output and standard error go to files of the process's own, read when asked.
///
/// Not Foundation's `Process`: on Linux its `run()` scans `/proc/self/fd` copying whole 256-byte
/// `d_name` fields out of `readdir` records, which reads past glibc's buffer and crashes the
/// test process now and then (swift-corelibs-foundation pull request 5472, in toolchains after
/// 6.3.1). `posix_spawn` with `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34) closes every
/// descriptor above standard error in the child instead.
public final class ChildProcess: @unchecked Sendable {
    /// What the program reads on standard input.
    public enum Input: Sendable {
        /// `/dev/null`.
        case nullDevice
        /// These bytes, then end of file.
        case bytes([UInt8])
        /// The file at this path.
        case file(String)
    }

    /// The program.
    public let executable: URL
    /// Its arguments, without the program's name.
    public let arguments: [String]
    /// The program's process ID.
    public let processIdentifier: Int32
    private let scratch: TemporaryDirectory
    private let ending = Ending()

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment (nil values remove
    ///     one); `LIBNFC_LOG_LEVEL`, which libnfc sets in the test process, is removed unless
    ///     given here.
    ///   - directory: the working folder; nil keeps this process's.
    ///   - input: standard input.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil,
        input: Input = .nullDevice
    ) throws {
        scratch = try TemporaryDirectory("process")
        self.executable = executable
        self.arguments = arguments
        let outputPath = scratch.path("stdout")
        let errorPath = scratch.path("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        var variables = ProcessInfo.processInfo.environment
        variables["LIBNFC_LOG_LEVEL"] = nil
        for (name, value) in environment { variables[name] = value }
        let inputPath: String
        switch input {
        case .nullDevice: inputPath = "/dev/null"
        case .bytes(let bytes): inputPath = try scratch.file("stdin", bytes)
        case .file(let path): inputPath = path
        }
        processIdentifier = try Self.spawn(
            executable.path, arguments: arguments, environment: variables.map { "\($0.key)=\($0.value)" },
            directory: directory?.path, input: inputPath, output: outputPath, error: errorPath)
        let ending = self.ending
        let pid = processIdentifier
        // One thread per program, blocked in waitpid: never a thread of the cooperative pool.
        let waiter = Thread {
            var status: Int32 = 0
            guard case .success = valueOrErrno({ waitpid(pid, &status, 0) }) else {
                ending.end(ChildProcessExit(status: -1, signalled: false))
                return
            }
            let signal = status & 0x7F
            ending.end(
                signal == 0
                    ? ChildProcessExit(status: (status >> 8) & 0xFF, signalled: false)
                    : ChildProcessExit(status: signal, signalled: true))
        }
        waiter.start()
        Self.record(executable)
    }

    /// Starts `path` with `posix_spawn`: standard input, output and error opened from the paths
    /// given, every other descriptor closed, no signal blocked and every catchable signal at its
    /// default action (a program inherits the signal mask of the thread that starts it, and the
    /// threads of Swift's pool block nearly every signal: the SIGTERM or SIGINT a test sends would
    /// otherwise never arrive), in a process group of its own. Returns the process ID.
    private static func spawn(
        _ path: String, arguments: [String], environment: [String], directory: String?, input: String,
        output: String, error: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var codes: [Int32] = [
            posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0),
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_TRUNC, 0),
            posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_TRUNC, 0),
            posix_spawn_file_actions_addclosefrom_np(&actions, 3),
        ]
        if let directory { codes.append(posix_spawn_file_actions_addchdir_np(&actions, directory)) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        codes += [
            posix_spawnattr_setsigmask(&attributes, &noSignals),
            posix_spawnattr_setsigdefault(&attributes, &defaults),
            posix_spawnattr_setpgroup(&attributes, 0),
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)),
        ]
        if let failed = codes.first(where: { $0 != 0 }) {
            throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EINVAL)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
        return pid
    }

    /// With `NDEFTOOL_PROCESS_LOG=FILE`, appends a line per program started: the test that
    /// started it and the program (how many tests start processes, and which).
    private static func record(_ executable: URL) {
        guard let path = ProcessInfo.processInfo.environment["NDEFTOOL_PROCESS_LOG"] else { return }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let test = Test.current.map { "\($0.id)" } ?? "(no test)"
        // One write with O_APPEND: lines from tests running at once do not mix.
        let line = Array("\(test)\t\(executable.lastPathComponent)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Starts the program at `path`.
    public convenience init(
        path: String, _ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil,
        input: Input = .nullDevice
    ) throws {
        try self.init(
            URL(fileURLWithPath: path), arguments, environment: environment, directory: directory, input: input)
    }

    deinit {
        if ending.result == nil { kill(processIdentifier, SIGKILL) }
    }

    /// Whether the program has not ended yet (as far as the termination handler has told).
    public var isRunning: Bool { ending.result == nil }

    /// Whether the program is stopped (SIGSTOP; state `T` in `/proc/PID/stat`).
    public var isStopped: Bool {
        guard isRunning,
            let stat = try? String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst().drop { $0 == " " }.first == "T"
    }

    /// Sends `signal` to the program (nothing once it has ended).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    /// Waits until the program ends; returns how.
    public func exit() async -> ChildProcessExit { await ending.wait() }

    /// Waits until the program ends, at most `timeout`: then it is killed (SIGKILL) and the test
    /// gets an issue. Returns how it ended and everything it wrote.
    public func finish(
        timeout: Duration = .seconds(180), sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ChildProcessResult {
        let ended = await exit(within: timeout)
        if !ended {
            let message = "\(executable.lastPathComponent) \(arguments) still ran after \(timeout): killed"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            send(SIGKILL)
        }
        let exit = await self.exit()
        return ChildProcessResult(status: exit.status, signalled: exit.signalled, output: output(), error: errorText())
    }

    /// Waits until the program ends or `timeout` passed; whether it ended. The program is checked
    /// once more after the time is up, so a program that ended meanwhile counts as ended.
    public func exit(within timeout: Duration) async -> Bool {
        let ending = self.ending
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await ending.wait(cancellable: true) }
            group.addTask { try? await Task.sleep(for: timeout) }
            _ = await group.next()
            group.cancelAll()
        }
        return !isRunning
    }

    /// What the program wrote to standard output so far.
    public func output() -> [UInt8] { (try? scratch.read("stdout")) ?? [] }

    /// What the program wrote to standard output so far, as text.
    public func outputText() -> String { String(decoding: output(), as: UTF8.self) }

    /// What the program wrote to standard error so far, as text.
    public func errorText() -> String { String(decoding: (try? scratch.read("stderr")) ?? [], as: UTF8.self) }

    /// Waits until `condition` holds for the program's output so far (standard output, standard
    /// error), checking every 10 ms, at most `timeout`; whether it held.
    public func waitForOutput(
        within timeout: Duration = .seconds(60), _ condition: @escaping @Sendable (String, String) -> Bool
    ) async -> Bool {
        await eventually(within: timeout) { condition(self.outputText(), self.errorText()) }
    }

    /// Tells the tasks waiting for the end that it came.
    private final class Ending: Sendable {
        private struct State {
            var result: ChildProcessExit?
            var waiters: [Int: CheckedContinuation<ChildProcessExit?, Never>] = [:]
            var nextWaiter = 0
        }
        private let state = Mutex(State())

        var result: ChildProcessExit? { state.withLock { $0.result } }

        func end(_ result: ChildProcessExit) {
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [:] }
                return state.waiters.values
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }

        /// The end; nil when `cancellable` and the task was cancelled first.
        func wait(cancellable: Bool) async -> ChildProcessExit? {
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let result = state.withLock { state -> ChildProcessExit?? in
                        if let result = state.result { return .some(result) }
                        if cancellable, Task.isCancelled { return .some(nil) }
                        state.waiters[id] = continuation
                        return .none
                    }
                    if let result { continuation.resume(returning: result) }
                }
            } onCancel: {
                guard cancellable else { return }
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume(returning: nil)
            }
        }

        /// The end.
        func wait() async -> ChildProcessExit {
            while true {
                if let result = await wait(cancellable: false) { return result }
            }
        }
    }
}

/// How a program ended.
public struct ChildProcessExit: Sendable, Equatable {
    /// The exit status, or the signal number when `signalled`.
    public var status: Int32
    /// Whether a signal ended the program.
    public var signalled: Bool

    /// `status`, or 128 + N for a program ended by signal N, as a shell shows it.
    public var shellStatus: Int32 { signalled ? 128 + status : status }
}

/// How a program ended and what it wrote.
public struct ChildProcessResult: Sendable {
    /// The exit status, or the signal number when `signalled`.
    public var status: Int32
    /// Whether a signal ended the program.
    public var signalled: Bool
    /// Standard output.
    public var output: [UInt8]
    /// Standard error.
    public var error: String

    /// Standard output as text.
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    /// `status`, or 128 + N for a program ended by signal N, as a shell shows it.
    public var shellStatus: Int32 { signalled ? 128 + status : status }
}
