/// Record specifications from plain words, as a batch template holds them.
extension RecordSpecGrammar {
    /// One element of a specification, with the places of its text among the words.
    enum WordToken: Sendable, Hashable {
        /// The word at `index`.
        case word(index: Int)
        /// The option `long` (written at some index), with its value at `valueIndex` when it
        /// takes one.
        case option(String, valueIndex: Int?)
    }

    /// The structure of `words` (a record kind word, its values, `--option value`...), read as
    /// the command line reads them: an option is one the current record takes; `--opt=value`
    /// is not split (write it as two words). The words are read as written, so a placeholder
    /// `{field}` can be a value or an option's value, never a kind or an option.
    ///
    /// - Throws: a usage error naming the word that does not fit.
    func structure(of words: [String]) throws(CommandLineError) -> [WordToken] {
        var reader = Reader(kinds: kinds, allowsPlainWords: false)
        var tokens: [WordToken] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--"), word.count > 2 {
                let long = String(word.dropFirst(2))
                switch reader.claim(option: long) {
                case .claims(let spec), .yields(let spec):
                    var valueIndex: Int?
                    if spec.takesValue {
                        guard index + 1 < words.count else {
                            throw .usage("The template's \(word) needs a value after it")
                        }
                        valueIndex = index + 1
                        index += 1
                    }
                    try reader.read(option: spec, value: valueIndex.map { words[$0] })
                    tokens.append(.option(long, valueIndex: valueIndex))
                case .ignores:
                    let known = reader.knownOptions.map { "--" + $0.long }
                    throw .unknownOption(word, suggestion: closestName(to: word, among: known))
                }
            } else {
                try reader.read(word: word)
                tokens.append(.word(index: index))
            }
            index += 1
        }
        try reader.finish()
        return tokens
    }

    /// The captured tokens of `structure` with the words `rendered` (the template's words with
    /// their placeholders substituted, one for one).
    func tokens(_ structure: [WordToken], rendered: [String]) -> [CapturedToken] {
        structure.map { token in
            switch token {
            case .word(let index): .word(rendered[index])
            case .option(let long, let valueIndex): .option(long, value: valueIndex.map { rendered[$0] })
            }
        }
    }
}
