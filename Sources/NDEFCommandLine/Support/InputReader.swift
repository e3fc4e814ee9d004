import RecordSpecifications

/// Reads the inputs a command names: files, or standard input for `-`.
///
/// Standard input can be read only once per command, so a second `-` is a usage error
/// naming both arguments that asked for it.
final class InputReader: RecordInputs {
    /// Standard input and the environment.
    let io: any CommandIO
    /// Which argument read standard input, once one has.
    private(set) var standardInputUser: String?

    /// Creates a reader over `io`.
    init(io: any CommandIO) {
        self.io = io
    }

    /// The bytes of `path` (`-` for standard input), read for the argument named `user`; a path
    /// must name a regular file (``FileAccess/readFile(path:limit:)``).
    func bytes(of path: String, for user: String) throws(CommandLineError) -> [UInt8] {
        guard path == "-" else { return try FileAccess.readFile(path: path) }
        if let standardInputUser {
            throw .usage(
                "Standard input ('-') can be read only once, but both \(standardInputUser) and \(user) ask for it")
        }
        standardInputUser = user
        return try io.readStandardInput()
    }

    /// The bytes of `path` for a record specification's `argument`; a failure keeps its exit
    /// status (``CommandLineError/init(_:)-(RecordSpecError)``).
    func read(_ path: String, for argument: String) throws(RecordSpecError) -> [UInt8] {
        do {
            return try bytes(of: path, for: argument)
        } catch {
            throw RecordSpecError(.unreadableInput, error.message, underlying: error)
        }
    }

    func environment(_ name: String) -> String? { io.environment(name) }

    /// How messages name the input `path`: `'tag.ndef'` or `standard input`.
    static func name(of path: String) -> String { inputName(path) }
}
