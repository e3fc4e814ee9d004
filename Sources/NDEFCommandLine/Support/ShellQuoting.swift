/// Command lines shown to be copied into a POSIX shell: words quoted only when they need it.
enum ShellQuoting {
    /// `words` joined by spaces, each quoted as ``word(_:)`` does.
    static func line(_ words: [String]) -> String {
        words.map(word).joined(separator: " ")
    }

    /// `word` as is when it holds only characters no shell treats specially, else in single
    /// quotes (a single quote inside becomes `'\''`).
    static func word(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "@%+=:,./_-".unicodeScalars.contains(scalar)
        }
        if plain && !word.isEmpty { return word }
        var quoted = "'"
        for character in word {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }
}
