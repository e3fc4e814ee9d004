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

    static let requireGenuine = OptionSpec.flag(
        "require-genuine",
        help: "Refuse a tag whose originality signature (READ_SIG) verifies under none of NXP's keys and "
            + "--signature-key's, before anything is written (exit status 82).")

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
            // Named after the file, as people name keys: "acme-2024.pem".
            let name = path.split(separator: "/").last.map(String.init) ?? path
            do {
                let text = String(decoding: bytes, as: UTF8.self)
                keys.append(
                    text.contains("-----BEGIN")
                        ? try NFCOriginalityKey(name: name, pem: text) : try NFCOriginalityKey(name: name, der: bytes))
            } catch {
                throw CommandLineError(.dataError, "--signature-key \(InputReader.name(of: path)): \(error.reason)")
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

    /// With `--require-genuine`: checks that `tag` is a genuine chip of a known key, before
    /// anything is written; `keys` are those to try.
    ///
    /// - Throws: ``ExitStatus/notGenuine`` for a signature no key verifies, an all-zero one, or a
    ///   tag without READ_SIG (a Type 4 tag, an Ultralight C); the errors of READ_SIG.
    static func requireGenuine(_ tag: any NFCNDEFTag, keys: [NFCOriginalityKey]) async throws {
        let what = "tag \(tag.targetInfo.uidDescription)"
        guard let type2 = tag as? NFCMiFareTag, type2.chip?.features.contains(.readSignature) == true else {
            throw CommandLineError(
                .notGenuine,
                "\(what) has no originality signature this tool can check (READ_SIG: NTAG21x, Ultralight EV1), "
                    + "and --require-genuine asks for one: nothing was written")
        }
        let check = try await type2.checkOriginality(keys: keys)
        guard check.isValid else {
            throw CommandLineError(
                .notGenuine,
                "\(what) is refused by --require-genuine: originality signature \(check.summary); nothing was "
                    + "written")
        }
    }
}
