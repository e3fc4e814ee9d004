import SystemSupport

/// The process's arguments as the kernel handed them over, checked for UTF-8 before Swift
/// turns them into strings (which would replace a bad sequence by U+FFFD without a word, and a
/// URL or a text written to a tag would then differ from what was typed).
enum ArgumentEncoding {
    /// The first argument (1-based, the program name not counted) that is not valid UTF-8, and
    /// the byte offset in it of the first bad sequence; nil when all are valid.
    static func firstInvalid() -> (argument: Int, offset: Int)? {
        let count = Int(CommandLine.argc)
        for index in 1..<max(count, 1) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            var bytes: [UInt8] = []
            var cursor = pointer
            while cursor.pointee != 0 {
                bytes.append(UInt8(bitPattern: cursor.pointee))
                cursor += 1
            }
            if let offset = invalidOffset(bytes) { return (index, offset) }
        }
        return nil
    }

    /// The variables that name readers, files and databases, checked like the arguments.
    static let checkedVariables = ["NDEFTOOL_READER", "NDEFTOOL_DATABASE_URL"]

    /// The first of ``checkedVariables`` that is set and not valid UTF-8, and the byte offset in
    /// it of the first bad sequence; nil when all are valid.
    static func firstInvalidVariable() -> (name: String, offset: Int)? {
        for name in checkedVariables {
            guard let pointer = getenv(name) else { continue }
            var bytes: [UInt8] = []
            var cursor = pointer
            while cursor.pointee != 0 {
                bytes.append(UInt8(bitPattern: cursor.pointee))
                cursor += 1
            }
            if let offset = invalidOffset(bytes) { return (name, offset) }
        }
        return nil
    }

    /// The byte offset of the first sequence in `bytes` that is not UTF-8 (Unicode 15, 3.9
    /// D92: no overlong forms, no surrogates, nothing above U+10FFFF), or nil.
    static func invalidOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}

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
