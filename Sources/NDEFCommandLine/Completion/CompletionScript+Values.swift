import CommandLineKit
import RecordSpecifications
import SimulatedReader

/// What completion offers for values: readers for `--reader`, record kinds and their options for
/// the record specifications of `encode` and `write`.
extension CompletionScript {
    /// What the value of an option completes to.
    enum ValueCompletion: Hashable {
        /// These words.
        case words([String])
        /// File names.
        case files
        /// Readers (``readerWords``), with a colon inside the word.
        case readers
        /// Nothing offered.
        case none
    }

    /// The options whose value names a reader.
    static let readerOptions: Set<String> = ["reader", "identify"]

    /// The reader words offered: the three backends' prefixes, then every simulated chip. The
    /// numbers of `ndeftool readers` are not offered: listing them asks pcscd and scans USB for
    /// libnfc, too slow for a key press.
    static var readerWords: [String] {
        ["sim:", "pcsc:", "libnfc:"] + SimulatedReaderURL.allChipNames.map { "sim:" + $0 }
    }

    /// What the value of `option` completes to.
    static func valueCompletion(_ option: OptionSpec) -> ValueCompletion {
        if !option.allowedValues.isEmpty { return .words(option.allowedValues) }
        if readerOptions.contains(option.long) { return .readers }
        if isFile(option.valueName ?? "") { return .files }
        return .none
    }

    /// Whether the command's positional arguments are simulated readers (`sim serve <tag>...`).
    static func takesReaders(_ spec: CommandSpec) -> Bool {
        spec.arguments.contains { $0.name == "tag" }
    }

    /// The record grammar of the command's specifications, if it takes any.
    static func recordGrammar(_ spec: CommandSpec) -> RecordSpecGrammar? {
        spec.arguments.lazy.compactMap { $0.grammar as? RecordSpecGrammar }.first
    }

    /// The record options that take a value worth completing (files, listed values), once each,
    /// leaving out those named like an option of the command (the command's comes first).
    static func recordValueOptions(_ grammar: RecordSpecGrammar, besides spec: CommandSpec) -> [OptionSpec] {
        var seen = Set(spec.options.map(\.long))
        var result: [OptionSpec] = []
        for option in grammar.kinds.flatMap(\.allOptions) where option.takesValue && !seen.contains(option.long) {
            seen.insert(option.long)
            if valueCompletion(option) != .none { result.append(option) }
        }
        return result
    }

    /// `--lang --utf16 --id --id-hex`: the options of `kind`.
    static func recordOptionNames(_ kind: RecordKind) -> [String] {
        kind.allOptions.map { "--" + $0.long }
    }

    /// The simulated readers, for the tags of `sim serve`.
    static var simulatedReaderWords: [String] { readerWords.filter { $0.hasPrefix("sim:") } }

    /// The bash function that completes a reader word (`$1`; `$2`, when given, the words to offer
    /// instead of every reader), colons included: bash splits words at
    /// `:` (COMP_WORDBREAKS), so the word is taken from the line and the part before its last
    /// colon, which bash keeps, is taken off each candidate (as bash-completion's
    /// `__ltrim_colon_completions`).
    func bashReaderFunction() -> [String] {
        [
            "_\(root.name)_readers() {",
            "    local word=\"$1\" colon",
            "    COMPREPLY=($(compgen -W \"${2:-\(Self.readerWords.joined(separator: " "))}\" -- \"$word\"))",
            "    if [[ \"$word\" == *:* && \"$COMP_WORDBREAKS\" == *:* ]]; then",
            "        colon=\"${word%\"${word##*:}\"}\"",
            "        COMPREPLY=(\"${COMPREPLY[@]#\"$colon\"}\")",
            "    fi",
            "    if [[ ${#COMPREPLY[@]} -eq 1 && \"${COMPREPLY[0]}\" == *: ]]; then",
            "        compopt -o nospace 2>/dev/null",
            "    fi",
            "}",
        ]
    }

    /// The bash action for `completion` (`$word` is the whole word typed, colons included).
    func bashAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .words(let words): "COMPREPLY=($(compgen -W \(Self.quoted(words.joined(separator: " "))) -- \"$cur\"))"
        case .files: "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .readers: "_\(root.name)_readers \"$word\""
        case .none: ":"
        }
    }

    /// The zsh action for `completion`.
    static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .words(let words): "compadd -- " + words.map(quoted).joined(separator: " ")
        case .files: "_files"
        case .readers:
            "compadd -S '' -- " + readerWords.filter { $0.hasSuffix(":") }.map(quoted).joined(separator: " ")
                + "; compadd -- " + readerWords.filter { !$0.hasSuffix(":") }.map(quoted).joined(separator: " ")
        case .none: ":"
        }
    }

    /// The fish flags for an option's value.
    static func fishValue(_ option: OptionSpec) -> String {
        switch valueCompletion(option) {
        case .words(let words): " -x -a " + quoted(words.joined(separator: " "))
        case .files: " -r -F"
        case .readers: " -x -a " + quoted(readerWords.joined(separator: " "))
        case .none: option.takesValue ? " -x" : ""
        }
    }

    /// Bash or zsh lines, inside a command's arm, that set `kind` to the last record kind typed.
    static func kindScan(_ grammar: RecordSpecGrammar, words: String, count: String, first: Int) -> [String] {
        let names = grammar.kinds.map(\.name).joined(separator: "|")
        return [
            "            local kind=\"\" j",
            "            for ((j = \(first); j < \(count); j++)); do",
            "                case \"${\(words)[j]}\" in \(names)) kind=\"${\(words)[j]}\" ;; esac",
            "            done",
        ]
    }

    /// Shell `case` arms adding the options of the kind in `kind` that the command does not have
    /// itself (`spec`), with `add` the command that adds words (`options+=' ...'` in bash,
    /// `compadd --` in zsh).
    static func kindOptionArms(
        _ grammar: RecordSpecGrammar, besides spec: CommandSpec, indent: String, add: (String) -> String
    ) -> [String] {
        let own = Set(optionNames(spec))
        return [indent + "case \"$kind\" in"]
            + grammar.kinds.map { kind in
                let words = recordOptionNames(kind).filter { !own.contains($0) }.joined(separator: " ")
                return indent + "    \(kind.name)) " + add(words) + " ;;"
            } + [indent + "esac"]
    }

    /// Shell `case` arms for the word right after a kind word, its first value: file names for
    /// `message <file>`, nothing for the others (`files` is the shell's file completion).
    static func firstValueArms(_ grammar: RecordSpecGrammar, indent: String, files: String) -> [String] {
        let takeFiles = grammar.kinds.filter { isFile($0.values.first?.name ?? "") }.map(\.name)
        let others = grammar.kinds.filter { !$0.values.isEmpty && !takeFiles.contains($0.name) }.map(\.name)
        var arms = [indent + "case \"$prev\" in"]
        if !takeFiles.isEmpty { arms.append(indent + "    \(takeFiles.joined(separator: "|"))) \(files); return ;;") }
        if !others.isEmpty { arms.append(indent + "    \(others.joined(separator: "|"))) return ;;") }
        return arms + [indent + "esac"]
    }

    /// The fish lines for the record kinds and, once a kind is typed, its options.
    func fishRecordLines(_ grammar: RecordSpecGrammar, condition: String) -> [String] {
        var lines: [String] = []
        for kind in grammar.kinds {
            lines.append(
                "complete -c \(root.name) -n \(Self.quoted(condition)) -a \(Self.quoted(kind.name)) -d "
                    + Self.quoted(Self.firstSentence(kind.abstract)))
            let seen = condition + "; and __fish_seen_subcommand_from \(kind.name)"
            for option in kind.allOptions {
                lines.append(
                    "complete -c \(root.name) -n \(Self.quoted(seen)) -l \(option.long)\(Self.fishValue(option)) -d "
                        + Self.quoted(Self.firstSentence(option.help)))
            }
        }
        return lines
    }
}
