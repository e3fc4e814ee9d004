internal import CCrypto

/// Owns one libcrypto `EVP_PKEY` (an elliptic-curve key) and frees it with the last reference.
///
/// `@unchecked Sendable`: the key is never changed after it is made, and libcrypto allows an
/// unchanging `EVP_PKEY` to be used from several threads at once (OpenSSL 3.0, openssl-threads(7)).
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// The key's curve, by libcrypto's name (`secp128r1`, `prime256v1`, ...).
    var curveName: String {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        let done = buffer.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_utf8_string_param(pointer, "group", $0.baseAddress, $0.count, &length)
        }
        guard done == 1 else { return "unknown" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The number of bytes of each of r and s in a signature: the byte length of the group order.
    var scalarByteCount: Int { (Int(EVP_PKEY_get_bits(pointer)) + 7) / 8 }

    /// Whether the key is an elliptic-curve key.
    var isEllipticCurve: Bool { EVP_PKEY_is_a(pointer, "EC") == 1 }

    /// The public point, uncompressed (04h, X, Y; SEC 1, 2.3.3), whatever form the key keeps.
    var publicPoint: [UInt8] {
        var encoded = [UInt8](repeating: 0, count: 1 + 2 * 66)
        var length = 0
        let done = encoded.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_octet_string_param(pointer, "encoded-pub-key", $0.baseAddress, $0.count, &length)
        }
        guard done == 1, let form = encoded.first else { return [] }
        if form == 0x04 { return Array(encoded.prefix(length)) }
        // Compressed (02h or 03h, X): rebuild Y from the key's coordinates, X's width.
        let width = length - 1
        var x: OpaquePointer?
        var y: OpaquePointer?
        defer {
            BN_free(x)
            BN_free(y)
        }
        guard EVP_PKEY_get_bn_param(pointer, "qx", &x) == 1, EVP_PKEY_get_bn_param(pointer, "qy", &y) == 1,
            let x, let y, let width32 = Int32(exactly: width)
        else { return [] }
        var point = [UInt8](repeating: 0x04, count: 1 + 2 * width)
        let written = point.withUnsafeMutableBufferPointer { point -> Bool in
            guard let base = point.baseAddress else { return false }
            return BN_bn2binpad(x, base + 1, width32) == width32
                && BN_bn2binpad(y, base + 1 + width, width32) == width32
        }
        return written ? point : []
    }

    /// The public key as a DER SubjectPublicKeyInfo (RFC 5480).
    var publicKeyDER: [UInt8] {
        let count = i2d_PUBKEY(pointer, nil)
        guard count > 0 else { return [] }
        var der = [UInt8](repeating: 0, count: Int(count))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        return written == count ? der : []
    }

    /// A key read from PEM text by `read` (`PEM_read_bio_PUBKEY`, `PEM_read_bio_PrivateKey`).
    static func fromPEM(
        _ text: String, what: String,
        read: (OpaquePointer) -> OpaquePointer?
    ) throws(CryptoError) -> EVPKey {
        var text = text
        let key = text.withUTF8 { bytes -> OpaquePointer? in
            guard let count = Int32(exactly: bytes.count), let bio = BIO_new_mem_buf(bytes.baseAddress, count) else {
                return nil
            }
            defer { BIO_free(bio) }
            return read(bio)
        }
        guard let key else { throw .library("the PEM text holds no \(what)", code: .invalidKey) }
        return try EVPKey(key).requiringEllipticCurve()
    }

    /// This key, or an error when it is not an elliptic-curve key.
    func requiringEllipticCurve() throws(CryptoError) -> EVPKey {
        guard isEllipticCurve else { throw CryptoError(.invalidKey, "the key is not an elliptic-curve key") }
        return self
    }

    /// The fixed-width `r ‖ s` of a DER ECDSA-Sig-Value (RFC 3279, 2.2.3), each `width` bytes.
    static func rawSignature(fromDER der: UnsafeBufferPointer<UInt8>, width: Int) -> [UInt8]? {
        var cursor = der.baseAddress
        guard let count = Int(exactly: der.count), let signature = d2i_ECDSA_SIG(nil, &cursor, count) else {
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * width)
        let done = raw.withUnsafeMutableBufferPointer { raw in
            guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
                let base = raw.baseAddress, let width32 = Int32(exactly: width)
            else { return false }
            return BN_bn2binpad(r, base, width32) == width32 && BN_bn2binpad(s, base + width, width32) == width32
        }
        return done ? raw : nil
    }

    /// The DER ECDSA-Sig-Value of a fixed-width `r ‖ s` (two halves of equal length).
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let half = Int32(raw.count / 2)
        let set = raw.withUnsafeBufferPointer { raw -> Bool in
            guard let base = raw.baseAddress, let r = BN_bin2bn(base, half, nil) else { return false }
            guard let s = BN_bin2bn(base + Int(half), half, nil) else {
                BN_free(r)
                return false
            }
            // ECDSA_SIG_set0 takes r and s over when it succeeds.
            guard ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return false
            }
            return true
        }
        guard set else { return nil }
        let count = i2d_ECDSA_SIG(signature, nil)
        guard count > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(count))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == count ? der : nil
    }
}
