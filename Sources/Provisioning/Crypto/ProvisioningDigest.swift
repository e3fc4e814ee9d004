internal import CCrypto

/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) through OpenSSL's libcrypto: the job's
/// identity (the plan's digest) and the digest of each message written, as the journal
/// records them.
public enum ProvisioningDigest {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func sha256(_ bytes: [UInt8]) throws(ProvisioningError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw ProvisioningError(.crypto, "libcrypto: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw ProvisioningError(.crypto, "libcrypto: SHA-256 initialisation failed")
        }
        let updated = bytes.withUnsafeBytes { buffer in EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
        guard updated == 1 else { throw ProvisioningError(.crypto, "libcrypto: SHA-256 update failed") }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        guard finished == 1, length == 32 else { throw ProvisioningError(.crypto, "libcrypto: SHA-256 failed") }
        return Array(digest.prefix(32))
    }

    /// The 32-byte HMAC-SHA256 (RFC 2104 with SHA-256, as RFC 4231 tests it) of `message`
    /// under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) throws(ProvisioningError) -> [UInt8] {
        guard let keyLength = Int32(exactly: key.count) else { throw ProvisioningError(.crypto, "the key is too long") }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // A zero-length buffer may have a nil base address, which HMAC() takes for "no key":
        // pass a valid one-byte buffer with length 0 instead.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            message.withUnsafeBytes { messageBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, keyLength,
                        messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count,
                        outBuffer.baseAddress, &length)
                }
            }
        }
        guard result != nil, length == 32 else { throw ProvisioningError(.crypto, "libcrypto: HMAC-SHA256 failed") }
        return Array(out.prefix(32))
    }
}
