import CommandLineKit
import Provisioning

/// The master secret a batch derives each tag's password from (``Provisioning/TagPasswordDerivation``):
/// from `--master-secret-file FILE` or the `NDEFTOOL_MASTER_SECRET` environment variable, never
/// from the command line, never written to the journal or a report.
enum MasterSecretInput {
    /// The environment variable.
    static let variable = "NDEFTOOL_MASTER_SECRET"
    /// The shortest secret accepted, in bytes: 16 (128 bits), so the passwords cannot be found
    /// by trying secrets.
    static let minimumLength = 16

    static let file = OptionSpec.option(
        "master-secret-file", value: "file",
        help: "The master secret each tag's password is derived from (HMAC-SHA256 of the UID); else "
            + "$\(variable). At least \(minimumLength) bytes; the final line break of a text secret is not part "
            + "of it, a binary one is used whole.")

    /// The length of the final line break (`\n` or `\r\n`) to leave out of `secret`: only when
    /// the rest is text (UTF-8 without control characters), as an editor or `echo` leaves it. A
    /// binary secret (`head -c 32 /dev/urandom`) is used whole, whatever its last bytes: one
    /// in 128 such files ends in 0Ah or 0Dh, and dropping that byte would derive passwords that
    /// no other program reading the same file derives.
    static func finalLineBreak(of secret: [UInt8]) -> Int {
        guard secret.last == UInt8(ascii: "\n") else { return 0 }
        let length = secret.dropLast().last == UInt8(ascii: "\r") ? 2 : 1
        let text = secret.dropLast(length)
        guard let string = String(validating: text, as: UTF8.self),
            !string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return 0 }
        return length
    }

    /// The derivation from the secret given.
    ///
    /// - Throws: a usage error when neither source gives a secret, or it is too short (its value
    ///   is never shown); the file's read errors.
    static func derivation(_ invocation: CommandInvocation) throws(CommandLineError) -> TagPasswordDerivation {
        var secret: [UInt8] = []
        let origin: String
        SecretMemory.keepOutOfCoreDumps(invocation)
        defer { SecretMemory.clear(&secret) }
        if let path = invocation.values.value(file.long) {
            let inputs = InputReader(io: invocation.io)
            secret = try inputs.bytes(of: path, for: "--\(file.long)")
            origin = InputReader.name(of: path)
        } else if let text = invocation.io.environment(variable), !text.isEmpty {
            secret = Array(text.utf8)
            origin = "$\(variable)"
        } else {
            throw .usage(
                "--derive-passwords needs the master secret: --\(file.long) FILE or $\(variable) "
                    + "(never on the command line)")
        }
        secret.removeLast(finalLineBreak(of: secret))
        guard secret.count >= minimumLength else {
            throw .usage(
                "The master secret in \(origin) has \(secret.count) bytes: use at least \(minimumLength) "
                    + "(for example 32 random bytes: head -c 32 /dev/urandom > secret.bin)")
        }
        do {
            return try TagPasswordDerivation(masterSecret: secret)
        } catch {
            throw CommandLineError(.internalError, "The password derivation: \(error.reason)")
        }
    }
}
