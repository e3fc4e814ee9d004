import CommandLineKit
import NFCCrypto
import NFCSession
import TagMemory

/// The keys an originality signature is checked against (NTAG213/215/216 10.8; AN11350): NXP's
/// published keys, and those of `--signature-key` files (other vendors, test keys).
enum SignatureKeyOptions {
    static let signatureKey = OptionSpec.option(
        "signature-key", value: "file", repeatable: true,
        help: "Also accept originality signatures made with this public key (PEM or DER, secp128r1); repeat for "
            + "several. NXP's published keys are always tried.")

    /// The largest key file read.
    static let maximumKeyFileBytes = 64 * 1024

    /// NXP's keys, then those of the `--signature-key` files (named after their files).
    ///
    /// - Throws: ``ExitStatus/noInput`` for a file that cannot be read; ``ExitStatus/dataError``
    ///   for one that holds no elliptic-curve public key.
    static func keys(_ values: ParsedValues) throws(CommandLineError) -> [NFCOriginalityKey] {
        var keys = NFCOriginalityKey.nxpKeys
        for path in values.values(signatureKey.long) {
            let bytes = try FileAccess.readFile(path: path, limit: maximumKeyFileBytes)
            let name = InputReader.name(of: path)
            do {
                let text = String(decoding: bytes, as: UTF8.self)
                keys.append(
                    text.contains("-----BEGIN")
                        ? try NFCOriginalityKey(name: name, pem: text) : try NFCOriginalityKey(name: name, der: bytes))
            } catch {
                throw CommandLineError(.dataError, "--signature-key \(name): \(error.reason)")
            }
        }
        return keys
    }

    /// `signature` of the chip `uid` checked against `keys`.
    static func check(
        _ signature: [UInt8], uid: [UInt8], keys: [NFCOriginalityKey]
    ) throws(CommandLineError) -> OriginalitySignatureCheck {
        do {
            return try NFCOriginalityKey.check(signature: signature, uid: uid, keys: keys)
        } catch {
            throw CommandLineError(.internalError, "checking the originality signature: \(error.reason)")
        }
    }
}
