import CommandLineKit
import SimulatedReader
import TagSimulator

/// Command lines a tag command shows for the next step: the same command with `--resume`, or
/// `ndeftool lock` for the same reader with the lock code.
///
/// Fault injection in a simulated reader URL (`remove-after=`, `second-tag=`, ...) is left out
/// of the reader shown, so the command shown reaches the same tag file without the fault.
enum RepeatCommand {
    /// The options whose value is the next word (`--reader URL`, `-o FILE`) in the command line
    /// `arguments` (without the program name), from the definition of the command its first
    /// words name: a line shown never separates an option from its value. Each command's own,
    /// as one name may be a flag of one command and take a value in another (`write --resume`,
    /// `batch --resume JOURNAL`).
    static func valueOptions(in arguments: [String]) -> Set<String> {
        var command = RootCommand.spec
        var options = command.options + command.hiddenOptions
        for word in arguments {
            guard let subcommand = command.subcommands.first(where: { $0.name == word }) else { break }
            command = subcommand
            options += command.options + command.hiddenOptions
        }
        var names: Set<String> = []
        for option in options where option.valueName != nil {
            names.insert("--" + option.long)
            if let short = option.short { names.insert("-" + String(short)) }
            for other in option.aliases + option.synonyms { names.insert("--" + other) }
        }
        return names
    }

    /// `ndeftool` and `arguments` without the options in `dropping` (with their values),
    /// then `adding`; `keeping`, when given, keeps only those options (and no other words).
    static func line(
        _ arguments: [String], command: [String] = [], dropping: Set<String> = [], keeping: Set<String>? = nil,
        adding: [String] = []
    ) -> String {
        let valueOptions = valueOptions(in: arguments)
        var words: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            var word = arguments[index]
            index += 1
            var value: String?
            var name = word
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            } else if valueOptions.contains(word), index < arguments.endIndex {
                value = arguments[index]
                index += 1
            }
            if dropping.contains(name) { continue }
            if let keeping, !keeping.contains(name) { continue }
            if name == "--reader", let reader = value {
                value = withoutFaults(reader)
            }
            if word.contains("="), word.hasPrefix("--"), let value {
                word = name + "=" + value
                words.append(word)
            } else {
                words.append(name)
                if let value { words.append(value) }
            }
        }
        return ShellQuoting.line(["ndeftool"] + command + words + adding)
    }

    /// A `sim:` reader URL without its fault injection options (the unplug and process signals
    /// too), or `text` as it is.
    static func withoutFaults(_ text: String) -> String {
        guard let url = try? SimulatedReaderURL(parsing: text) else { return text }
        let plain = url.withoutFaults
        return plain == url ? text : plain.description
    }
}
