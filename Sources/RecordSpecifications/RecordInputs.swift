import SystemSupport

/// Where record specifications read what they name but do not hold: the files of `--file`,
/// `--payload-file`, `--icon`, `--key-file` and `message`, and the environment variables of
/// `--key-env`.
///
/// A tool supplies its own (the command line reads standard input for `-` once per command);
/// ``RecordFiles`` reads regular files and nothing else.
public protocol RecordInputs {
    /// The bytes of `path`, read for the argument `argument` (as messages name it:
    /// `--file of record 0 (mime)`).
    ///
    /// - Throws: ``RecordSpecError`` with code ``RecordSpecError/Code/unreadableInput``.
    func read(_ path: String, for argument: String) throws(RecordSpecError) -> [UInt8]

    /// The value of the environment variable `name`, or `nil` when it is not set or not offered.
    func environment(_ name: String) -> String?
}

/// How messages name the input `path`: `'logo.png'`, or `standard input` for `-`.
package func inputName(_ path: String) -> String {
    path == "-" ? "standard input" : "'\(path)'"
}

/// Inputs from regular files only: no standard input (`-`), no environment variables, and no
/// FIFOs or devices, so rendering the same specification twice reads the same bytes. What a
/// batch template reads for each row.
public struct RecordFiles: RecordInputs, Sendable {
    /// The most bytes read from one file: far more than any NFC tag holds.
    public var limit: Int

    /// Inputs reading files of at most `limit` bytes (16 MiB unless given).
    public init(limit: Int = 16 * 1024 * 1024) {
        self.limit = limit
    }

    public func read(_ path: String, for argument: String) throws(RecordSpecError) -> [UInt8] {
        guard path != "-" else {
            throw RecordSpecError(
                .unreadableInput,
                "\(argument) names standard input ('-'), which these inputs do not read (a template "
                    + "is built once per row): name a file")
        }
        switch FileContents.read(path: path, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(let failure):
            throw RecordSpecError(
                .unreadableInput, "cannot read '\(path)' for \(argument): \(failure)", underlying: failure)
        }
    }

    public func environment(_ name: String) -> String? { nil }
}
