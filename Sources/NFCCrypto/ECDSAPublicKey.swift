internal import CCrypto

/// An elliptic-curve public key that verifies ECDSA signatures (SEC 1, 4.1.4) through
/// libcrypto: the originality signatures of NXP tags (AN11350: secp128r1 over the UID for
/// NTAG21x and Ultralight EV1; secp224r1 for NTAG 424 DNA), or any other curve libcrypto has.
///
/// Signatures are the fixed-width `r ‖ s` the tags return, and the signed message is used as
/// it is, without hashing, as those tags sign it; hash first to verify a hashed message.
public struct ECDSAPublicKey: Sendable, Hashable, CustomStringConvertible {
    let key: EVPKey

    /// The key in a PEM `PUBLIC KEY` block (RFC 7468, 13: a SubjectPublicKeyInfo).
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` when the text holds no elliptic-curve public key.
    public init(pem: String) throws(CryptoError) {
        key = try EVPKey.fromPEM(pem, what: "public key") { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
    }

    /// The key in a DER SubjectPublicKeyInfo (RFC 5480, 2).
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` when the bytes hold no elliptic-curve public key.
    public init(der: [UInt8]) throws(CryptoError) {
        let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let count = Int(exactly: buffer.count) else { return nil }
            return d2i_PUBKEY(nil, &cursor, count)
        }
        guard let decoded else { throw .library("the DER bytes hold no public key", code: .invalidKey) }
        key = try EVPKey(decoded).requiringEllipticCurve()
    }

    /// The point `point` (SEC 1, 2.3.4: 04h, X, Y uncompressed, or 02h/03h, X compressed) on
    /// the curve libcrypto names `curve` (`secp128r1`, `secp224r1`, `prime256v1`, ...).
    ///
    /// - Throws: ``CryptoError/Code/unsupportedAlgorithm`` for a curve libcrypto does not know,
    ///   ``CryptoError/Code/invalidKey`` for a point that is not on the curve.
    public init(curve: String, point: [UInt8]) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .library("no EC key context", code: .unsupportedAlgorithm)
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else { throw .library("no EC key import") }
        var made: OpaquePointer?
        var point = point
        // Every pointer in the parameters (names and values) must live while they are read.
        let done = "group".withCString { groupName in
            "pub".withCString { pointName in
                curve.withCString { curveName in
                    point.withUnsafeMutableBufferPointer { pointBytes in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupName, UnsafeMutablePointer(mutating: curveName), 0),
                            OSSL_PARAM_construct_octet_string(pointName, pointBytes.baseAddress, pointBytes.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        // EVP_PKEY_PUBLIC_KEY: the public key and all domain parameters (0x86).
                        return parameters.withUnsafeMutableBufferPointer {
                            EVP_PKEY_fromdata(context, &made, 0x86, $0.baseAddress)
                        }
                    }
                }
            }
        }
        guard done == 1, let made else {
            throw .library("no point \(point.count) bytes long on the curve \(curve)", code: .invalidKey)
        }
        key = EVPKey(made)
        guard let check = EVP_PKEY_CTX_new(made, nil) else { throw .library("no EC key context") }
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else {
            throw .library("the point is not a valid public key on \(curve)", code: .invalidKey)
        }
    }

    /// The key's curve, by libcrypto's name (`secp128r1`, `prime256v1`, ...).
    public var curveName: String { key.curveName }

    /// The public point, uncompressed: 04h, X, Y (SEC 1, 2.3.3).
    public var point: [UInt8] { key.publicPoint }

    /// The key as a DER SubjectPublicKeyInfo (RFC 5480).
    public var derRepresentation: [UInt8] { key.publicKeyDER }

    /// The length of a raw `r ‖ s` signature under this key: twice the byte length of the order.
    public var signatureByteCount: Int { 2 * key.scalarByteCount }

    /// Whether `signature` (`r ‖ s`, big-endian, each half the byte length of the group order)
    /// is a valid ECDSA signature of `message` (used as the digest, unhashed) under this key.
    ///
    /// A signature of the wrong length, all zeros or with r or s out of range is not valid.
    ///
    /// - Throws: ``CryptoError/Code/library`` only when libcrypto fails to run the check.
    public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) throws(CryptoError) -> Bool
    {
        guard signature.count == signatureByteCount, let der = EVPKey.derSignature(fromRaw: signature) else {
            return false
        }
        guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { throw .library("no verification context") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_verify_init(context) == 1 else { throw .library("ECDSA verification could not start") }
        let result = der.withUnsafeBufferPointer { der in
            withContiguousBytes(message) { message in
                EVP_PKEY_verify(context, der.baseAddress, der.count, message.baseAddress, message.count)
            }
        }
        // 1: valid; 0: not valid; below 0: r or s out of range, or another refusal of the input.
        ERR_clear_error()
        return result == 1
    }

    /// `ECDSAPublicKey(<curve>)`.
    public var description: String { "ECDSAPublicKey(\(curveName))" }

    /// Keys are equal when their curves and points are.
    public static func == (lhs: ECDSAPublicKey, rhs: ECDSAPublicKey) -> Bool {
        lhs.curveName == rhs.curveName && lhs.point == rhs.point
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(curveName)
        hasher.combine(point)
    }
}
