internal import CCrypto

/// An elliptic-curve private key that makes ECDSA signatures (SEC 1, 4.1.3) through
/// libcrypto: for simulated tags that sign their UID as NXP's originality signature does, and
/// for test keys. Its description never shows the key.
public struct ECDSAPrivateKey: Sendable, CustomStringConvertible {
    let key: EVPKey

    /// The key in a PEM `PRIVATE KEY` or `EC PRIVATE KEY` block (RFC 5915, RFC 5958),
    /// unencrypted.
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` when the text holds no unencrypted
    ///   elliptic-curve private key.
    public init(pem: String) throws(CryptoError) {
        // A callback that gives no password: an encrypted key is refused, never prompted for.
        key = try EVPKey.fromPEM(pem, what: "unencrypted private key") {
            PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil)
        }
    }

    /// A new random key on the curve libcrypto names `curve` (`secp128r1`, `prime256v1`, ...).
    ///
    /// - Throws: ``CryptoError/Code/unsupportedAlgorithm`` for a curve libcrypto does not know.
    public init(generatingOn curve: String) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .library("no EC key context", code: .unsupportedAlgorithm)
        }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, curve) == 1,
            EVP_PKEY_generate(context, &made) == 1, let made
        else { throw .library("no key could be made on the curve \(curve)", code: .unsupportedAlgorithm) }
        key = EVPKey(made)
    }

    /// The key's curve, by libcrypto's name (`secp128r1`, `prime256v1`, ...).
    public var curveName: String { key.curveName }

    /// The matching public key.
    public var publicKey: ECDSAPublicKey {
        get throws(CryptoError) { try ECDSAPublicKey(der: key.publicKeyDER) }
    }

    /// The key as PEM text (`PRIVATE KEY`, PKCS #8, unencrypted).
    public var pemRepresentation: String {
        get throws(CryptoError) {
            guard let bio = BIO_new(BIO_s_mem()) else { throw .library("no memory buffer") }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else {
                throw .library("the key could not be written as PEM")
            }
            var text = [UInt8](repeating: 0, count: BIO_ctrl_pending(bio))
            let read = text.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
            guard read == text.count else { throw .library("the PEM text could not be read back") }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The ECDSA signature of `message` (used as the digest, unhashed) as fixed-width
    /// `r ‖ s`, each half the byte length of the group order.
    ///
    /// - Throws: ``CryptoError/Code/library`` when libcrypto fails.
    public func signature(for message: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { throw .library("no signing context") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1 else { throw .library("ECDSA signing could not start") }
        let width = key.scalarByteCount
        let raw = withContiguousBytes(message) { message -> [UInt8]? in
            var count = 0
            guard EVP_PKEY_sign(context, nil, &count, message.baseAddress, message.count) == 1 else { return nil }
            var der = [UInt8](repeating: 0, count: count)
            let signed = der.withUnsafeMutableBufferPointer {
                EVP_PKEY_sign(context, $0.baseAddress, &count, message.baseAddress, message.count)
            }
            guard signed == 1 else { return nil }
            return der.prefix(count).withUnsafeBufferPointer { EVPKey.rawSignature(fromDER: $0, width: width) }
        }
        guard let raw else { throw .library("ECDSA signing failed") }
        return raw
    }

    /// Always `ECDSAPrivateKey(<curve>, **)`: a private key is never printed.
    public var description: String { "ECDSAPrivateKey(\(key.curveName), **)" }
}
