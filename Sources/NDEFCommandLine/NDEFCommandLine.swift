import CommandLineKit
import RecordSpecifications
import Synchronization

/// The `ndeftool` command line: parses the arguments, runs the command, reports failures.
///
/// Data goes to standard output and messages to standard error; the exit status follows
/// sysexits (see `ExitStatus` and the manual page's EXIT STATUS).
public enum NDEFCommandLine {
    /// Runs `ndeftool` with the process's arguments (the program name first) and returns
    /// the exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        InterruptGuard.install()
        let io = StandardIO()
        if let (argument, offset) = ArgumentEncoding.firstInvalid() {
            io.writeError(
                Style(io: io).error("Error:")
                    + " argument \(argument) is not valid UTF-8 (a bad byte sequence at byte \(offset) of it): "
                    + "nothing was done. Give text, URLs and paths as UTF-8\n")
            return ExitStatus.dataError.rawValue
        }
        if let (name, offset) = ArgumentEncoding.firstInvalidVariable() {
            io.writeError(
                Style(io: io).error("Error:")
                    + " $\(name) is not valid UTF-8 (a bad byte sequence at byte \(offset) of it): nothing was "
                    + "done. Give readers, paths and URLs as UTF-8\n")
            return ExitStatus.dataError.rawValue
        }
        return await run(Array(arguments.dropFirst()), io: io).rawValue
    }

    /// Runs the command line `arguments` (without the program name) with the given I/O.
    static func run(_ arguments: [String], io: any CommandIO) async -> ExitStatus {
        if let refusal = TagPasswordOptions.refusal(arguments) {
            io.writeError(Style(io: io).error("Error:") + " \(refusal.message)\n")
            return refusal.status
        }
        if let refusal = PasswordArguments.refusal(arguments) {
            report(refusal, path: [RootCommand.spec, PasswordCommand.spec], io: io)
            return refusal.status
        }
        let outcome: CommandParser.Outcome
        do {
            outcome = try CommandParser(root: RootCommand.spec).parse(arguments)
        } catch {
            let usage = RecordCommandHint.hint(for: error, arguments: arguments) ?? error.error
            io.writeError(styled(HelpFormatter(path: error.path).errorMessage(usage), io: io))
            if JSONFailure.isWanted(path: error.path, arguments: arguments) {
                JSONFailure.write(CommandLineError(usage), io: io)
            }
            return .usage
        }
        switch outcome {
        case .help(let path):
            return show(HelpFormatter(path: path).render(), io: io)
        case .version:
            return show(NDEFToolVersion.current + "\n", io: io)
        case .run(let path, let values):
            guard let run = path.last?.run?.body else { return show(HelpFormatter(path: path).render(), io: io) }
            let watched = OutputWatchingIO(io)
            let invocation = CommandInvocation(path: path, values: values, io: watched, arguments: arguments)
            for warning in values.warnings { CommandMessages(invocation).warn("Warning: " + warning) }
            do {
                return try await run(invocation)
            } catch {
                report(error, path: path, io: io)
                // A command that wrote its JSON report before failing (a refused password) has
                // said it there already.
                if JSONFailure.isWanted(path: path, arguments: arguments), !watched.hasWrittenOutput {
                    JSONFailure.write(error, io: io)
                }
                return error.status
            }
        }
    }

    /// Prints a failure on standard error: usage errors with the command's usage lines.
    static func report(_ error: CommandLineError, path: [CommandSpec], io: any CommandIO) {
        if error.status == .usage {
            io.writeError(
                styled(HelpFormatter(path: path).errorMessage(message: error.message, help: error.help), io: io))
        } else {
            io.writeError(Style(io: io).error("Error:") + " \(error.message)\n")
        }
    }

    /// A usage message with its `Error:` in red on a terminal.
    static func styled(_ message: String, io: any CommandIO) -> String {
        guard message.hasPrefix("Error:") else { return message }
        return Style(io: io).error("Error:") + message.dropFirst("Error:".count)
    }

    private static func show(_ text: String, io: any CommandIO) -> ExitStatus {
        do {
            try io.writeOutput(text)
            return .success
        } catch {
            io.writeError("Error: \(error.message)\n")
            return error.status
        }
    }
}

/// The version of `ndeftool`, printed by `ndeftool --version`.
public enum NDEFToolVersion {
    /// The current version (semantic versioning).
    public static let current = "0.1.0"
}

/// The failure of a command run with `--json`, also written to standard output as a JSON
/// object, so a script reads the outcome from one stream:
/// `{"error": {"code": "dataError", "exitStatus": 65, "message": "..."}}`. The message is the
/// one standard error shows; `code` names the exit status (``ExitStatus``).
enum JSONFailure {
    /// The object written.
    struct Object: Encodable {
        struct Failure: Encodable {
            var code: String
            var exitStatus: Int32
            var message: String
        }

        var error: Failure
    }

    /// Whether the command line asked for JSON output: the last command of `path` has a
    /// `--json` option that writes JSON (every one but `encode`, whose `--json` names its input),
    /// and `--json` was given before any `--`.
    static func isWanted(path: [CommandSpec], arguments: [String]) -> Bool {
        guard let command = path.last, command.name != EncodeCommand.spec.name,
            command.options.contains(where: { $0.long == "json" && !$0.takesValue })
        else { return false }
        return arguments.prefix { $0 != "--" }.contains("--json")
    }

    /// Writes `error` to standard output as the JSON object; an output that cannot be written
    /// is left (standard error has the message already).
    static func write(_ error: CommandLineError, io: any CommandIO) {
        let object = Object(
            error: .init(
                code: String(describing: error.status), exitStatus: error.status.rawValue, message: error.message))
        guard let text = try? MessageJSON.text(of: object, pretty: false) else { return }
        try? io.writeOutput(text + "\n")
    }
}

/// The streams of a command, remembering whether anything was written to standard output
/// (``JSONFailure`` writes its object only to an output that holds nothing else).
final class OutputWatchingIO: CommandIO {
    private let base: any CommandIO
    private let written = Atomic<Bool>(false)

    /// Streams that forward to `base`.
    init(_ base: any CommandIO) {
        self.base = base
    }

    /// Whether ``writeOutput(_:)`` was called.
    var hasWrittenOutput: Bool { written.load(ordering: .relaxed) }

    func readStandardInput() throws(CommandLineError) -> [UInt8] { try base.readStandardInput() }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {
        written.store(true, ordering: .relaxed)
        try base.writeOutput(bytes)
    }

    func writeError(_ text: String) { base.writeError(text) }
    func environment(_ name: String) -> String? { base.environment(name) }
    func isTerminal(_ stream: StandardStream) -> Bool { base.isTerminal(stream) }
    func readLine() -> String? { base.readLine() }
    func readInputChunk() -> [UInt8]? { base.readInputChunk() }
    func readSecretLine() -> String? { base.readSecretLine() }
    var pcsc: PCSCDirectory { base.pcsc }
    var libnfc: LibNFCDirectory { base.libnfc }
    func interruption() -> @Sendable () async -> Int32? { base.interruption() }
}

/// `ndeftool text hello`, as Python's ndeftool (nfcpy) builds records, is no command here: the
/// usage error says how to write it, `ndeftool encode text hello`.
enum RecordCommandHint {
    /// Python ndeftool's short names for record kinds that are spelled out here.
    static let pythonNames = ["txt": "text", "smp": "smartposter"]

    /// The usage error for a first word that names a record kind, or nil for any other failure.
    static func hint(for failure: CommandParser.Failure, arguments: [String]) -> UsageError? {
        guard failure.path.count == 1, let first = arguments.first else { return nil }
        let kind = pythonNames[first] ?? first
        guard RecordSpecGrammar.standard.kindNames.contains(kind) else { return nil }
        let rest = arguments.dropFirst().map(ShellQuoting.word).joined(separator: " ")
        let example = ([kind] + (rest.isEmpty ? [] : [rest])).joined(separator: " ")
        return UsageError(
            "Unknown command '\(first)': records are built with 'ndeftool encode \(example)' (or written to a tag "
                + "with 'ndeftool write \(example)')")
    }
}
