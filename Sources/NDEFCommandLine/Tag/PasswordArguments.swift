import CommandLineKit

/// The refusal of passwords written on the command line of `ndeftool password`.
///
/// A command line is seen by every user of the machine (`ps`, /proc) and kept in the shell's
/// history, so no form of it may carry a password: `--password VALUE`, `--password=VALUE`,
/// `--pwd`, `--old-password`, `-p`, or a bare word such as `DEADBEEF`. The check runs before the
/// parser, so the refusal names where passwords come from (``PasswordInput/sources``) and never
/// repeats the value, as the parser's "unexpected argument" would.
enum PasswordArguments {
    /// The subcommands of `ndeftool password`.
    static let subcommands: Set<String> = ["set", "auth", "remove", "status"]

    /// Short options refused outright: the usual "password" letters of other tools.
    static let refusedShortOptions: Set<String> = ["-p", "-P", "-k", "-K"]

    /// The refusal for `arguments` (without the program name), or nil when they put no password
    /// on the command line (or are not a `password` command).
    static func refusal(_ arguments: [String]) -> CommandLineError? {
        guard arguments.first == "password" else { return nil }
        let options = PasswordCommand.spec.subcommands.flatMap(\.options) + [OptionSpec.help]
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                return index < arguments.count ? refused("a word after '--'") : nil
            }
            guard word.hasPrefix("-"), word.count > 1 else {
                // A subcommand, or a mistyped one (the parser suggests the closest).
                if index == 2, subcommands.contains(where: { editDistance($0, word) <= 2 }) { continue }
                return refused("a command-line word")
            }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let known = options.first(where: { $0.isNamed(name) }) {
                if known.takesValue, !word.contains("=") { index += 1 }
                continue
            }
            let lowered = name.lowercased()
            let secretWords = ["pass", "pwd", "pin", "secret", "key"]
            let bare = String(lowered.drop { $0 == "-" })
            if refusedShortOptions.contains(name) || secretWords.contains(where: { lowered.contains($0) })
                || ["password", "passwd", "passphrase"].contains(where: { editDistance($0, bare) <= 2 })
            {
                return refused("option '\(name)'")
            }
            // Another unknown option, most likely a mistyped one (the parser suggests the
            // closest): the word after it is taken as its value, not as a password.
            if !word.contains("="), index < arguments.count, !arguments[index].hasPrefix("-") { index += 1 }
        }
        return nil
    }

    /// The usage error for a password given as `form`.
    private static func refused(_ form: String) -> CommandLineError {
        .usage(
            "Passwords are not taken from the command line (\(form) was given; its value is not shown). "
                + PasswordInput.sources)
    }
}
