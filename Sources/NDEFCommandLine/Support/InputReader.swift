/// Reads the inputs a command names: files, or standard input for `-`.
///
/// Standard input can be read only once per command, so a second `-` is a usage error
/// naming both arguments that asked for it.
struct InputReader {
    /// Standard input and the environment.
    let io: any CommandIO
    /// Which argument read standard input, once one has.
    private(set) var standardInputUser: String?

    /// Creates a reader over `io`.
    init(io: any CommandIO) {
        self.io = io
    }

    /// The bytes of `path` (`-` for standard input), read for the argument named `user`; with
    /// `regularOnly` a path must name a regular file (``FileAccess/readFile(path:limit:regularOnly:)``).
    mutating func read(_ path: String, for user: String, regularOnly: Bool = false) throws(CommandLineError)
        -> [UInt8]
    {
        guard path == "-" else { return try FileAccess.readFile(path: path, regularOnly: regularOnly) }
        if let standardInputUser {
            throw .usage(
                "Standard input ('-') can be read only once, but both \(standardInputUser) and \(user) ask for it")
        }
        standardInputUser = user
        return try io.readStandardInput()
    }

    /// How messages name the input `path`: `'tag.ndef'` or `standard input`.
    static func name(of path: String) -> String {
        path == "-" ? "standard input" : "'\(path)'"
    }
}
