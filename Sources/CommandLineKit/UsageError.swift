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

/// The candidate closest to a mistyped `word`, when it is close enough to be a likely typo: at
/// most two edits (``editDistance(_:_:)``), and fewer than half the word's characters. The one
/// rule behind every "Did you mean ...?": commands, options, record kinds and record options.
package func closestName(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (name: $0, distance: editDistance($0, word)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
        best.distance * 2 < max(word.count, 2)
    else { return nil }
    return best.name
}

/// The Damerau-Levenshtein distance between two strings, by characters, in its optimal string
/// alignment form: insertions, deletions, substitutions and transpositions of neighbours each
/// count one (`wrtie` is one edit from `write`).
package func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    guard !left.isEmpty else { return right.count }
    guard !right.isEmpty else { return left.count }
    var older = Array(repeating: 0, count: right.count + 1)
    var previous = Array(0...right.count)
    var current = previous
    for i in 1...left.count {
        current[0] = i
        for j in 1...right.count {
            let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                current[j] = min(current[j], older[j - 2] + 1)
            }
        }
        (older, previous, current) = (previous, current, older)
    }
    return previous[right.count]
}
