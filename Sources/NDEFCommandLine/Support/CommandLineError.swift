import CommandLineKit
import NDEF
import RecordSpecifications
import TagMemory

/// A failure the command line reports to its user: a message and the exit status to return.
///
/// Usage errors (``ExitStatus/usage``) are printed with the command's usage line and may
/// carry a ``help`` line describing the argument at fault, as swift-argument-parser does.
struct CommandLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exit status the failure returns.
    var status: ExitStatus
    /// What went wrong, naming the argument, file or byte offset concerned.
    var message: String
    /// The help of the argument at fault, printed as `Help:  ...` under a usage error.
    var help: String?

    /// Creates an error.
    init(_ status: ExitStatus, _ message: String, help: String? = nil) {
        self.status = status
        self.message = message
        self.help = help
    }

    var description: String { message }

    /// A usage error (exit status 64).
    static func usage(_ message: String, help: String? = nil) -> CommandLineError {
        CommandLineError(.usage, message, help: help)
    }

    /// A usage error (exit status 64) from the command-line kit or the record grammar.
    init(_ usage: UsageError) {
        self.init(.usage, usage.message, help: usage.help)
    }

    /// The failure for record specifications that made no records: a usage error (64) for
    /// words or values that do not fit, the input source's own failure for an unreadable input
    /// (66 for a missing file), and for a `message` file that is not NDEF the status of
    /// ``ErrorText/failure(_:in:suffix:)`` (65, or 73 for a limit).
    init(_ error: RecordSpecError) {
        switch error.code {
        case .unreadableInput:
            if let failure = error.underlying as? CommandLineError {
                self = failure
            } else {
                self.init(.noInput, error.message)
            }
        case .invalidMessage:
            let isLimit = (error.underlying as? NDEFError)?.isLimit ?? false
            self.init(isLimit ? .tooLarge : .dataError, error.message)
        default:
            self.init(.usage, error.message, help: error.help)
        }
    }

    /// An option the command does not have.
    static func unknownOption(_ name: String, suggestion: String? = nil) -> CommandLineError {
        CommandLineError(UsageError.unknownOption(name, suggestion: suggestion))
    }

    /// A command name the command does not have; `suggestion` is the closest one, if any is close.
    static func unknownCommand(_ name: String, suggestion: String? = nil) -> CommandLineError {
        CommandLineError(UsageError.unknownCommand(name, suggestion: suggestion))
    }

    /// An option given without the value it takes.
    static func missingValue(for option: OptionSpec, as name: String) -> CommandLineError {
        CommandLineError(UsageError.missingValue(for: option, as: name))
    }

    /// A value an option cannot take; `reason` explains why.
    static func invalidValue(_ value: String, for option: OptionSpec, reason: String? = nil) -> CommandLineError {
        CommandLineError(UsageError.invalidValue(value, for: option, reason: reason))
    }

    /// A value a positional argument cannot take; `reason` explains why.
    static func invalidValue(_ value: String, for argument: String, reason: String) -> CommandLineError {
        CommandLineError(UsageError.invalidValue(value, for: argument, reason: reason))
    }

    /// A required argument that is missing.
    static func missingArgument(_ synopsis: String, help: String? = nil) -> CommandLineError {
        CommandLineError(UsageError.missingArgument(synopsis, help: help))
    }

    /// Words the command does not take.
    static func unexpectedArguments(_ words: [String]) -> CommandLineError {
        CommandLineError(UsageError.unexpectedArguments(words))
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' or 'c'`.
    static func quotedList(_ values: [String]) -> String { UsageError.quotedList(values) }
}

/// Human descriptions of the errors commands turn into messages.
enum ErrorText {
    /// The failure for an NDEF decoding `error`: ``ExitStatus/tooLarge`` for a limit of the
    /// decoder (``NDEF/NDEFError/isLimit``), else ``ExitStatus/dataError``.
    static func failure(_ error: NDEFError, in source: String? = nil, suffix: String = "") -> CommandLineError {
        CommandLineError(error.isLimit ? .tooLarge : .dataError, error.summary(in: source) + suffix)
    }

    /// `malformed Flipper NFC file in 'tag.nfc' at byte 412: line 27: ... (malformed-dump)`.
    static func malformed(_ error: TagMemoryError, in source: String, reading format: TagDumpFormat?) -> String {
        var text = "malformed \(format?.description ?? "tag dump") in \(source)"
        if let offset = error.offset { text += " at byte \(offset)" }
        return text + ": \(error.reason) (\(error.code.rawValue))"
    }
}
