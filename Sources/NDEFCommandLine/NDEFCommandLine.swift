import CommandLineKit

/// The `ndeftool` command line: parses the arguments, runs the command, reports failures.
///
/// Data goes to standard output and messages to standard error; the exit status follows
/// sysexits (see ``ExitStatus``).
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
            io.writeError(styled(HelpFormatter(path: error.path).errorMessage(error.error), io: io))
            return .usage
        }
        switch outcome {
        case .help(let path):
            return show(HelpFormatter(path: path).render(), io: io)
        case .version:
            return show(NDEFToolVersion.current + "\n", io: io)
        case .run(let path, let values):
            guard let run = path.last?.run?.body else { return show(HelpFormatter(path: path).render(), io: io) }
            do {
                return try await run(CommandInvocation(path: path, values: values, io: io, arguments: arguments))
            } catch {
                report(error, path: path, io: io)
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
