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

    /// An option the command does not have.
    static func unknownOption(_ name: String, suggestion: String? = nil) -> CommandLineError {
        if let suggestion { return .usage("Unknown option '\(name)'. Did you mean '\(suggestion)'?") }
        return .usage("Unknown option '\(name)'")
    }

    /// A command name the command does not have; `suggestion` is the closest one, if any is close.
    static func unknownCommand(_ name: String, suggestion: String? = nil) -> CommandLineError {
        if let suggestion { return .usage("Unknown command '\(name)'. Did you mean '\(suggestion)'?") }
        return .usage("Unknown command '\(name)'")
    }

    /// An option given without the value it takes.
    static func missingValue(for option: OptionSpec, as name: String) -> CommandLineError {
        let valueName = option.valueName ?? "value"
        return .usage(
            "Missing value for '\(name) <\(valueName)>'",
            help: "\(name) <\(valueName)>  \(option.help)"
        )
    }

    /// A value an option cannot take; `reason` explains why.
    static func invalidValue(_ value: String, for option: OptionSpec, reason: String? = nil) -> CommandLineError {
        var message = "The value '\(value)' is invalid for '\(option.synopsis)'"
        if let reason {
            message += ": \(reason)"
        } else if option.allowedValues.count >= 6 {
            message += ". Please provide one of the following:\n"
            message += option.allowedValues.map { "  - \($0)" }.joined(separator: "\n")
        } else if !option.allowedValues.isEmpty {
            message += ". Please provide one of \(quotedList(option.allowedValues))."
        }
        return .usage(message, help: "\(option.synopsis)  \(option.help)")
    }

    /// A value a positional argument cannot take; `reason` explains why.
    static func invalidValue(_ value: String, for argument: String, reason: String) -> CommandLineError {
        .usage("The value '\(value)' is invalid for '\(argument)': \(reason)")
    }

    /// A required argument that is missing.
    static func missingArgument(_ synopsis: String, help: String? = nil) -> CommandLineError {
        .usage("Missing expected argument '\(synopsis)'", help: help)
    }

    /// Words the command does not take.
    static func unexpectedArguments(_ words: [String]) -> CommandLineError {
        if words.count == 1, let word = words.first { return .usage("Unexpected argument '\(word)'") }
        return .usage("\(words.count) unexpected arguments: '\(words.joined(separator: "', '"))'")
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' or 'c'`.
    static func quotedList(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        if quoted.count == 2 { return quoted.joined(separator: " and ") }
        return quoted.dropLast().joined(separator: ", ") + " or \(last)"
    }
}
