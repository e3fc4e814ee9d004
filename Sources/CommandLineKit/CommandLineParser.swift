/// Parses a command line against a tree of ``CommandDefinition`` values.
///
/// The grammar follows swift-argument-parser: options are `--name`, `--name value`,
/// `--name=value` or `-n value`; `--` ends options (every later word is positional); a word
/// naming a subcommand selects it; `-h`/`--help` and `--version` stop parsing and ask for
/// help or the version. A value is the next word unless that word starts with `--`, so `-`
/// (standard input or output) and negative numbers are values.
package struct CommandLineParser<Action: Sendable> {
    /// What the command line asks for.
    package enum Outcome {
        /// Run the last command of `path` with `values`.
        case run(path: [CommandDefinition<Action>], values: ParsedValues)
        /// Show the help of the last command of `path`.
        case help(path: [CommandDefinition<Action>])
        /// Show the version.
        case version(path: [CommandDefinition<Action>])
    }

    /// A usage error, with the commands that were selected when it was found.
    package struct Failure: Error {
        package var path: [CommandDefinition<Action>]
        package var error: UsageError
    }

    /// The root of the command tree.
    package let root: CommandDefinition<Action>

    /// A parser for the tree under `root`.
    package init(root: CommandDefinition<Action>) {
        self.root = root
    }

    /// Parses `arguments` (without the program name).
    package func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        var state = State(root: root)
        do {
            return try state.parse(arguments)
        } catch {
            throw Failure(path: state.path, error: error)
        }
    }

    /// The parsing state for one command line.
    private struct State {
        var path: [CommandDefinition<Action>]
        var command: CommandDefinition<Action>
        var values: ParsedValues
        var nextArgument = 0
        var reader: (any SequenceReader)?
        var sequenceName = ""
        var captured: [CapturedToken] = []
        var extras: [String] = []
        var afterTerminator = false

        init(root: CommandDefinition<Action>) {
            path = [root]
            command = root
            values = ParsedValues(for: root)
        }

        /// The built-in options of the current command: `--version` when the tool has a version.
        var builtInOptions: [OptionSpec] {
            path.contains { $0.version != nil } ? [.version, .help] : [.help]
        }

        mutating func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
            var index = arguments.startIndex
            while index < arguments.endIndex {
                let argument = arguments[index]
                index += 1
                if !afterTerminator && argument == "--" {
                    afterTerminator = true
                } else if !afterTerminator && argument.hasPrefix("-") && argument != "-" {
                    if let outcome = try option(argument, arguments: arguments, index: &index) { return outcome }
                } else {
                    try word(argument)
                }
            }
            return try finish()
        }

        /// Reads one option and its value; returns an outcome when it asks for help or the version.
        mutating func option(_ argument: String, arguments: [String], index: inout Int) throws(UsageError)
            -> Outcome?
        {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            let commandOptions = command.options + command.hiddenOptions + builtInOptions
            // A short option the command does not have, inside a sequence whose current element
            // has it (a record's `-l`), is that element's option under its long name.
            if !name.hasPrefix("--"), name.count == 2, let short = name.last, let sequence = reader,
                !commandOptions.contains(where: { $0.short == short }),
                let spec = sequence.knownOptions.first(where: { $0.short == short })
            {
                name = "--" + spec.long
            }
            // Inside a sequence argument, the sequence has the first claim on its options.
            if name.hasPrefix("--"), var sequence = reader {
                let commandHasIt = commandOptions.contains { $0.isNamed(name) }
                var claimed: OptionSpec?
                switch sequence.claim(option: String(name.dropFirst(2))) {
                case .claims(let spec): claimed = spec
                case .yields(let spec): claimed = commandHasIt ? nil : spec
                case .ignores: claimed = nil
                }
                if let spec = claimed {
                    warnIfAlias(name, of: spec)
                    let value = try takeValue(
                        for: spec, as: name, inline: inlineValue, arguments: arguments, index: &index)
                    captured.append(.option(spec.long, value: value))
                    try sequence.read(option: spec, value: value)
                    reader = sequence
                    return nil
                }
            }
            guard let spec = commandOptions.first(where: { $0.isNamed(name) }) else {
                throw .unknownOption(name, suggestion: suggestion(for: name))
            }
            warnIfAlias(name, of: spec)
            if spec == .help { return .help(path: path) }
            if spec == .version { return .version(path: path) }
            if let value = try takeValue(for: spec, as: name, inline: inlineValue, arguments: arguments, index: &index)
            {
                if !spec.allowedValues.isEmpty && !spec.allowedValues.contains(value) {
                    throw .invalidValue(value, for: spec)
                }
                if !spec.isRepeatable && values.isGiven(spec.long) {
                    throw UsageError("The option '\(spec.synopsis)' can be given only once")
                }
                values.add(value: value, for: spec)
            } else {
                values.add(flag: spec)
            }
            return nil
        }

        /// Notes a warning when `name` is an old spelling of `spec`.
        mutating func warnIfAlias(_ name: String, of spec: OptionSpec) {
            guard name != "--\(spec.long)", spec.isAlias(name) else { return }
            values.add(
                warning: "'\(name)' is an old spelling of '--\(spec.long)': it works for now, but use '--\(spec.long)'")
        }

        /// The value of an option that takes one: the inline `=value` or the next argument.
        func takeValue(
            for spec: OptionSpec,
            as name: String,
            inline: String?,
            arguments: [String],
            index: inout Int
        ) throws(UsageError) -> String? {
            guard spec.takesValue else {
                if let inline {
                    throw UsageError("The option '\(name)' does not take any value, but '\(inline)' was specified.")
                }
                return nil
            }
            if let inline { return inline }
            guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                throw .missingValue(for: spec, as: name)
            }
            defer { index += 1 }
            return arguments[index]
        }

        /// Reads one positional word: a subcommand, an argument, or part of a sequence.
        mutating func word(_ word: String) throws(UsageError) {
            if var sequence = reader {
                captured.append(.word(word))
                try sequence.read(word: word)
                reader = sequence
                return
            }
            // A subcommand is the first word; a command with arguments too (`batch` takes records
            // and has `batch status`) has subcommands whose names no first argument takes.
            if !afterTerminator && nextArgument == 0,
                let subcommand = command.subcommand(named: word)
            {
                path.append(subcommand)
                command = subcommand
                values = ParsedValues(for: subcommand)
                return
            }
            if !afterTerminator && nextArgument == 0 && command.arguments.isEmpty && !command.subcommands.isEmpty {
                throw .unknownCommand(word, suggestion: closest(to: word, among: command.subcommands.map(\.name)))
            }
            guard nextArgument < command.arguments.count else {
                extras.append(word)
                return
            }
            let argument = command.arguments[nextArgument]
            if let grammar = argument.grammar {
                var sequence = grammar.makeReader()
                sequenceName = argument.name
                captured.append(.word(word))
                try sequence.read(word: word)
                reader = sequence
                return
            }
            values.add(argument: word, for: argument.name)
            if !argument.isRepeating { nextArgument += 1 }
        }

        mutating func finish() throws(UsageError) -> Outcome {
            if !extras.isEmpty { throw .unexpectedArguments(extras) }
            if var sequence = reader {
                try sequence.finish()
                values.set(sequence: captured, for: sequenceName)
            }
            for argument in command.arguments where !argument.isOptional {
                let given =
                    argument.grammar != nil
                    ? !values.sequence(argument.name).isEmpty : values.argument(argument.name) != nil
                if !given { throw .missingArgument(argument.synopsis, help: "\(argument.label)  \(argument.help)") }
            }
            return .run(path: path, values: values)
        }

        /// The closest long option name to a mistyped one, when it is close enough to be a likely typo.
        func suggestion(for name: String) -> String? {
            guard name.hasPrefix("--") else { return nil }
            let candidates = (command.options + builtInOptions + (reader?.knownOptions ?? [])).map { "--\($0.long)" }
            return closest(to: name, among: candidates)
        }

        /// The candidate closest to `word` when it is close enough to be a likely typo
        /// (``closestName(to:among:)``).
        func closest(to word: String, among candidates: [String]) -> String? {
            closestName(to: word, among: candidates)
        }
    }
}
