#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where commands read standard input and the environment, and write output and messages.
///
/// Data goes to standard output, messages to standard error. Tests supply their own
/// implementation to run commands in process.
protocol CommandIO: AnyObject {
    /// All of standard input.
    func readStandardInput() throws(CommandLineError) -> [UInt8]
    /// Writes bytes to standard output.
    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError)
    /// Writes a message to standard error.
    func writeError(_ text: String)
    /// The value of environment variable `name`.
    func environment(_ name: String) -> String?
}

extension CommandIO {
    /// Writes text to standard output as UTF-8.
    func writeOutput(_ text: String) throws(CommandLineError) {
        try writeOutput(Array(text.utf8))
    }
}

/// The process's own standard streams and environment.
final class StandardIO: CommandIO {
    /// Creates the standard streams; a write to a closed pipe then fails instead of ending the process.
    init() {
        signal(SIGPIPE, SIG_IGN)
    }

    func readStandardInput() throws(CommandLineError) -> [UInt8] {
        do {
            return try FileAccess.readAll(descriptor: 0, limit: FileAccess.inputLimit)
        } catch {
            throw CommandLineError(error.status, "cannot read standard input: \(error.message)")
        }
    }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {
        guard let failure = FileAccess.writeAll(bytes, descriptor: 1) else { return }
        throw CommandLineError(.ioError, "cannot write standard output: \(failure)")
    }

    func writeError(_ text: String) {
        _ = FileAccess.writeAll(Array(text.utf8), descriptor: 2)
    }

    func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
