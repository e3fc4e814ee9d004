internal import CCrypto

/// SHA-256 (FIPS 180-4) through libcrypto.
public enum SHA256 {
    /// The length of a digest in bytes.
    public static let byteCount = 32

    /// The 32-byte SHA-256 digest of `bytes`.
    ///
    /// - Throws: ``CryptoError/Code/library`` only when libcrypto fails (out of memory).
    public static func hash(_ bytes: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        let done = withContiguousBytes(bytes) { data in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Q_digest(nil, "SHA256", nil, data.baseAddress, data.count, out.baseAddress, &length)
            }
        }
        guard done == 1, length == byteCount else { throw .library("SHA-256 failed") }
        return digest
    }
}

/// HMAC (RFC 2104) with SHA-256, as RFC 4231 specifies and tests it, through libcrypto.
public enum HMACSHA256 {
    /// The length of an authentication code in bytes.
    public static let byteCount = 32

    /// The 32-byte HMAC-SHA256 of `message` under `key` (any length, empty included).
    ///
    /// - Throws: ``CryptoError/Code/library`` only when libcrypto fails.
    public static func authenticationCode(
        for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        try MAC.compute("HMAC", subalgorithm: "SHA256", key: key, message: message, byteCount: byteCount)
    }
}

/// CMAC (NIST SP 800-38B; RFC 4493 for AES-128) with AES, through libcrypto: the MAC of
/// NTAG 424 DNA secure messaging and secure unique NFC messages.
public enum AESCMAC {
    /// The length of a full CMAC in bytes (one AES block).
    public static let byteCount = 16

    /// The 16-byte CMAC of `message` under the AES `key` (16, 24 or 32 bytes).
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` for a key of another length.
    public static func authenticationCode(
        for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        guard let cipher = AES.cbcName(keyCount: key.count) else {
            throw CryptoError(.invalidKey, "an AES key is 16, 24 or 32 bytes, not \(key.count)")
        }
        return try MAC.compute("CMAC", subalgorithm: cipher, key: key, message: message, byteCount: byteCount)
    }
}

/// libcrypto's one-shot MAC (`EVP_Q_mac`).
enum MAC {
    static func compute(
        _ name: String, subalgorithm: String, key: some Collection<UInt8>, message: some Collection<UInt8>,
        byteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        // An empty buffer may have no address, which libcrypto would take for "no key": give
        // it a one-byte buffer and the length 0 instead.
        let done = withContiguousBytes(key) { keyBuffer in
            withContiguousBytes(message) { data in
                out.withUnsafeMutableBufferPointer { out in
                    EVP_Q_mac(
                        nil, name, nil, subalgorithm, nil, keyBuffer.baseAddress, keyBuffer.count, data.baseAddress,
                        data.count, out.baseAddress, out.count, &length) != nil
                }
            }
        }
        guard done, length == byteCount else { throw .library("\(name) failed") }
        return out
    }
}

/// `body` over the bytes of `bytes` in memory (copied into an array when they are not there).
/// An empty collection comes as a buffer with an address and a count of 0: libcrypto takes a
/// null pointer for "no input" and refuses it in some calls, even with a length of 0.
func withContiguousBytes<Result>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
    if bytes.isEmpty {
        let placeholder: [UInt8] = [0]
        return placeholder.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<0])) }
    }
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
}
