import SystemSupport

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
    /// No reader, or the reader cannot do what was asked (EX_UNAVAILABLE).
    case unavailable = 69
    /// A fault in ndeftool itself (EX_SOFTWARE): please report it.
    case internalError = 70
    /// The message does not fit on the tag, or is over a limit of the decoder (EX_CANTCREAT).
    case tooLarge = 73
    /// An output could not be written (EX_IOERR).
    case ioError = 74
    /// No tag came in time, or the tag left before anything was changed: try again
    /// (EX_TEMPFAIL).
    case tryAgain = 75
    /// The tag answered with an error, is not supported, or holds data that is not NDEF (EX_PROTOCOL).
    case tagError = 76
    /// The tag is read-only (locked, or its CC denies writing) (EX_NOPERM).
    case notPermitted = 77
    /// Authentication failed or is needed: the pages are password-protected, the password is
    /// wrong, or the tag disabled its password after too many attempts.
    case authenticationFailed = 78
    /// A lock or configuration lock was refused: the confirmation code is missing or does not
    /// match this tag and its content.
    case confirmationMismatch = 79
    /// A write stopped part way (tag removed, write error, read-back mismatch): the tag may be
    /// half-written; the message says how to resume.
    case incompleteWrite = 80
    /// Two or more tags were in the field: nothing was changed; keep one tag at the reader.
    case severalTags = 81
    /// `--require-genuine`: the tag's originality signature verifies under no known key (a clone,
    /// an unsigned chip, or a chip without one): nothing was written.
    case notGenuine = 82
    /// `sdm verify`: a URL does not verify.
    case notVerified = 83
    /// `batch`: every row is done or failed for good, and some failed (the report says why;
    /// `--retry-failed` tries them again).
    case rowsFailed = 84
    /// Interrupted (Ctrl-C), by the shell's convention 128 + SIGINT.
    case interrupted = 130
    /// Stopped by SIGTERM (a service stop), by the shell's convention 128 + SIGTERM.
    case terminated = 143

    /// The status of a command that `signal` (SIGINT or SIGTERM) stopped cleanly.
    static func stopped(by signal: Int32) -> ExitStatus { signal == SIGTERM ? .terminated : .interrupted }

    /// A short description for the exit status table in help.
    var meaning: String {
        switch self {
        case .success: "success"
        case .usage: "usage error: unknown option, missing or invalid argument"
        case .dataError:
            "malformed input data (NDEF, hex, JSON or a tag dump), or a named file that is not a regular file"
        case .noInput: "input file missing or unreadable"
        case .unavailable: "no reader, or the reader cannot do this"
        case .internalError: "internal error in ndeftool (please report it)"
        case .tooLarge: "the message does not fit on the tag, or is over a limit of the decoder"
        case .ioError: "I/O error, for example the output cannot be written"
        case .tryAgain: "no tag in time, or the tag left: nothing was changed, try again"
        case .tagError: "the tag answered with an error, is not supported or holds no valid NDEF"
        case .notPermitted: "the tag is read-only"
        case .authenticationFailed: "password needed or wrong, or the tag's password is disabled"
        case .confirmationMismatch: "lock refused: confirmation code missing or not for this tag"
        case .incompleteWrite: "a write stopped part way: the tag may be half-written (resume it)"
        case .severalTags: "several tags in the field: nothing was changed, keep one at the reader"
        case .notGenuine: "--require-genuine: the tag's originality signature does not verify; nothing was written"
        case .notVerified: "sdm verify: a URL does not verify (changed, another key, or a replayed counter)"
        case .rowsFailed: "batch: every row is done or failed for good, some failed (see the report; --retry-failed)"
        case .interrupted: "interrupted (Ctrl-C)"
        case .terminated: "stopped by SIGTERM"
        }
    }
}
