import CommandLineKit
import HexText
import NDEF

/// Where the password commands take passwords from, and how a password is written.
///
/// A PWD_AUTH password is 4 bytes (NTAG213/215/216 8.8, MF0ULX1 8.6). It comes only from
/// `--password-file FILE` (the first line; `-` reads standard input), the environment variable
/// `NDEFTOOL_PASSWORD`, or a prompt without echo when standard input and standard error are a
/// terminal; never from a plain command-line value, which other users (`ps`) and the shell's
/// history would see. The old password that `set` needs to change a protected tag comes the same
/// ways: `--old-password-file`, `NDEFTOOL_OLD_PASSWORD`, a prompt.
///
/// Written as 8 hex digits (`DEADBEEF`; spaces or colons between bytes allowed), the bytes in the
/// order PWD_AUTH sends them; or as exactly 4 printable ASCII characters (`n0tE`), their bytes.
/// No password is ever printed: messages name where it came from, never its value.
enum PasswordInput {
    static let variable = "NDEFTOOL_PASSWORD"
    static let oldVariable = "NDEFTOOL_OLD_PASSWORD"

    static let passwordFile = OptionSpec.option(
        "password-file", value: "file",
        help: "Read the password from the first line of <file> ('-': standard input): 8 hex digits "
            + "or 4 ASCII characters. Else $\(variable), else a prompt on a terminal.")
    static let oldPasswordFile = OptionSpec.option(
        "old-password-file", value: "file",
        help: "Read the current password of a protected tag from <file> ('-': standard input). "
            + "Else $\(oldVariable), else a prompt on a terminal.")
    static let pack = OptionSpec.option(
        "pack", value: "hex",
        help: "PACK, the 2 bytes (4 hex digits) the tag answers a correct password with. "
            + "Not a secret: the tag sends it in the clear.")

    /// Where passwords come from, for messages.
    static let sources =
        "A password comes only from --password-file FILE (its first line; '-' reads standard input), "
        + "the \(variable) environment variable, or a prompt on a terminal; never from the command line, "
        + "where other users and the shell history would see it."

    /// Which password is asked for.
    enum Kind {
        /// The password to set or to authenticate with.
        case current
        /// The password a protected tag has now, before `set` changes it.
        case old

        var option: OptionSpec { self == .current ? passwordFile : oldPasswordFile }
        var variable: String { self == .current ? PasswordInput.variable : oldVariable }
        var noun: String { self == .current ? "the password" : "the current (old) password" }
    }

    /// The password of `kind` from its file option or variable; nil when neither is given.
    static func given(_ kind: Kind, _ invocation: CommandInvocation) throws(CommandLineError) -> [UInt8]? {
        if let path = invocation.values.value(kind.option.long) {
            SecretMemory.keepOutOfCoreDumps(invocation)
            var bytes: [UInt8] = []
            defer { SecretMemory.clear(&bytes) }
            if path == "-" {
                bytes = try invocation.io.readStandardInput()
            } else {
                bytes = try FileAccess.readFile(path: path, limit: 4096)
            }
            let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
            let origin = path == "-" ? "standard input" : "'\(path)'"
            return try parse(String(decoding: line, as: UTF8.self), origin: "the first line of \(origin)")
        }
        if let text = invocation.io.environment(kind.variable), !text.isEmpty {
            SecretMemory.keepOutOfCoreDumps(invocation)
            return try parse(text, origin: "$\(kind.variable)")
        }
        return nil
    }

    /// The password of `kind`: given (``given(_:_:)``), else typed at a prompt (twice when
    /// `confirming`).
    ///
    /// - Throws: ``ExitStatus/authenticationFailed`` when there is none and no terminal to ask
    ///   on; ``ExitStatus/dataError`` for a malformed password or two typed ones that differ.
    static func password(
        _ kind: Kind, _ invocation: CommandInvocation, confirming: Bool = false
    ) async throws(CommandLineError) -> [UInt8] {
        if let given = try given(kind, invocation) { return given }
        let io = invocation.io
        guard io.isTerminal(.input), io.isTerminal(.error) else {
            throw CommandLineError(
                .authenticationFailed, "\(kind.noun) is needed and there is no terminal to ask on. \(sources)")
        }
        SecretMemory.keepOutOfCoreDumps(invocation)
        let first = try await typed("Enter \(kind.noun) (8 hex digits or 4 characters): ", io: io)
        guard confirming else { return first }
        let second = try await typed("Enter it again: ", io: io)
        guard first == second else {
            throw CommandLineError(.dataError, "the two passwords typed differ; nothing was written")
        }
        return first
    }

    /// One password typed without echo.
    private static func typed(_ prompt: String, io: any CommandIO) async throws(CommandLineError) -> [UInt8] {
        io.writeError(prompt)
        guard let line = await io.typedSecretLine() else {
            throw CommandLineError(.authenticationFailed, "no password was typed (end of input)")
        }
        return try parse(line, origin: "the password typed")
    }

    /// The 4 bytes of password `text`: 4 printable ASCII characters, or 8 hex digits (spaces and
    /// colons between them ignored). A trailing carriage return is dropped. `origin` names where
    /// it came from; the value itself is never put in the message.
    static func parse(_ text: String, origin: String) throws(CommandLineError) -> [UInt8] {
        var characters = Array(text.unicodeScalars)
        if characters.last == "\r" { characters.removeLast() }
        if characters.count == 4, characters.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            return characters.map { UInt8(truncatingIfNeeded: $0.value) }
        }
        let digits = String(String.UnicodeScalarView(characters.filter { $0 != " " && $0 != ":" }))
        if digits.count == 8, let bytes = try? Hex.decode(digits, allowSeparators: false), bytes.count == 4 {
            return bytes
        }
        throw CommandLineError(
            .dataError,
            "\(origin) is not a password: a PWD_AUTH password is 4 bytes, written as 8 hex digits (DEADBEEF) "
                + "or as exactly 4 ASCII characters")
    }

    /// The PACK of `--pack`, or nil when not given.
    static func acknowledge(_ values: ParsedValues) throws(CommandLineError) -> [UInt8]? {
        guard let text = values.value(pack.long) else { return nil }
        guard text.count == 4, let bytes = try? Hex.decode(text, allowSeparators: false), bytes.count == 2 else {
            throw .invalidValue(text, for: pack, reason: "a PACK is 2 bytes: 4 hex digits, such as 8080")
        }
        return bytes
    }
}
