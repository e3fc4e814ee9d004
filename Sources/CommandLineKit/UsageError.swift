/// A command line, or a sequence of words in its grammar, that does not fit: what is wrong,
/// naming the word, option or value at fault, and the help of that argument when there is
/// one, as swift-argument-parser reports usage errors.
///
/// Tools map it to their usage exit status (64, `EX_USAGE` in sysexits.h).
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the argument concerned.
    package var message: String
    /// The help of the argument at fault, printed as `Help:  ...` under the message.
    package var help: String?

    /// An error with `message` and, when known, the `help` of the argument at fault.
    package init(_ message: String, help: String? = nil) {
        self.message = message
        self.help = help
    }

    package var description: String { message }

    /// An option the command or sequence does not have; `suggestion` is the closest one.
    package static func unknownOption(_ name: String, suggestion: String? = nil) -> UsageError {
        if let suggestion { return UsageError("Unknown option '\(name)'. Did you mean '\(suggestion)'?") }
        return UsageError("Unknown option '\(name)'")
    }

    /// A command name the command does not have; `suggestion` is the closest one, if any is close.
    package static func unknownCommand(_ name: String, suggestion: String? = nil) -> UsageError {
        if let suggestion { return UsageError("Unknown command '\(name)'. Did you mean '\(suggestion)'?") }
        return UsageError("Unknown command '\(name)'")
    }

    /// An option given without the value it takes.
    package static func missingValue(for option: OptionSpec, as name: String) -> UsageError {
        let valueName = option.valueName ?? "value"
        return UsageError("Missing value for '\(name) <\(valueName)>'", help: "\(name) <\(valueName)>  \(option.help)")
    }

    /// A value an option cannot take; `reason` explains why, else the allowed values are listed.
    package static func invalidValue(_ value: String, for option: OptionSpec, reason: String? = nil) -> UsageError {
        var message = "The value '\(value)' is invalid for '\(option.synopsis)'"
        if let reason {
            message += ": \(reason)"
        } else if option.allowedValues.count >= 6 {
            message += ". Please provide one of the following:\n"
            message += option.allowedValues.map { "  - \($0)" }.joined(separator: "\n")
        } else if !option.allowedValues.isEmpty {
            message += ". Please provide one of \(quotedList(option.allowedValues))."
        }
        return UsageError(message, help: "\(option.synopsis)  \(option.help)")
    }

    /// A value a positional argument cannot take; `reason` explains why.
    package static func invalidValue(_ value: String, for argument: String, reason: String) -> UsageError {
        UsageError("The value '\(value)' is invalid for '\(argument)': \(reason)")
    }

    /// A required argument that is missing.
    package static func missingArgument(_ synopsis: String, help: String? = nil) -> UsageError {
        UsageError("Missing expected argument '\(synopsis)'", help: help)
    }

    /// Words the command does not take.
    package static func unexpectedArguments(_ words: [String]) -> UsageError {
        if words.count == 1, let word = words.first { return UsageError("Unexpected argument '\(word)'") }
        return UsageError("\(words.count) unexpected arguments: '\(words.joined(separator: "', '"))'")
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' or 'c'`.
    package static func quotedList(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        if quoted.count == 2 { return quoted.joined(separator: " and ") }
        return quoted.dropLast().joined(separator: ", ") + " or \(last)"
    }
}
