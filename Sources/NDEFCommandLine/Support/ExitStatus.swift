/// The exit status of `ndeftool`, following the BSD sysexits convention.
enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// The command did what was asked.
    case success = 0
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The input data was malformed (EX_DATAERR).
    case dataError = 65
    /// An input file did not exist or could not be read (EX_NOINPUT).
    case noInput = 66
    /// An output could not be written (EX_IOERR).
    case ioError = 74

    /// A short description for the exit status table in help.
    var meaning: String {
        switch self {
        case .success: "success"
        case .usage: "usage error: unknown option, missing or invalid argument"
        case .dataError: "malformed input data (NDEF, hex, JSON or a tag dump)"
        case .noInput: "input file missing or unreadable"
        case .ioError: "I/O error, for example the output cannot be written"
        }
    }
}
