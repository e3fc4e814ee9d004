import Foundation
import Synchronization
import Testing

/// A program a test starts, waited for without holding a thread.
///
/// Swift Testing runs tests on Swift's cooperative thread pool, which has as many threads as the
/// machine has cores: a test that blocks one (waiting on Foundation's `Process` until it exits,
/// sleeping a thread, a semaphore) stalls every other test, and the library code under test
/// with it. A
/// `ChildProcess` learns that its program ended from Foundation's `terminationHandler`, which
/// resumes the tasks awaiting ``exit()`` or ``finish(timeout:sourceLocation:)``; standard output
/// and standard error go to files of the process's own, read when asked.
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

    /// The program (Foundation's handle; do not wait on it).
    public let process: Process
    private let scratch: TemporaryDirectory
    private let outputHandle: FileHandle
    private let errorHandle: FileHandle
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
        let outputPath = scratch.path("stdout")
        let errorPath = scratch.path("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var variables = ProcessInfo.processInfo.environment
        variables["LIBNFC_LOG_LEVEL"] = nil
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        switch input {
        case .nullDevice:
            process.standardInput = FileHandle.nullDevice
        case .bytes(let bytes):
            let path = try scratch.file("stdin", bytes)
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        case .file(let path):
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        let ending = self.ending
        process.terminationHandler = { process in
            ending.end(
                ChildProcessExit(
                    status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal))
        }
        try Self.withNoSignalsBlocked { try process.run() }
        Self.record(executable)
    }

    /// Runs `body` (which starts the program) with no signal blocked on this thread: a program
    /// inherits the signal mask of the thread that starts it, and the threads of Swift's pool
    /// (Dispatch's workers) block nearly every signal, so a program started from a test would
    /// otherwise never see the SIGTERM or SIGINT the test sends it (unless it unblocks them itself).
    private static func withNoSignalsBlocked(_ body: () throws -> Void) rethrows {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try body()
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
        if ending.result == nil { kill(process.processIdentifier, SIGKILL) }
        try? outputHandle.close()
        try? errorHandle.close()
    }

    /// The program's process ID.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the program has not ended yet (as far as the termination handler has told).
    public var isRunning: Bool { ending.result == nil }

    /// Sends `signal` to the program (nothing once it has ended).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(process.processIdentifier, signal)
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
            let program = process.executableURL?.lastPathComponent ?? "the program"
            let message = "\(program) \(process.arguments ?? []) still ran after \(timeout): killed"
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
