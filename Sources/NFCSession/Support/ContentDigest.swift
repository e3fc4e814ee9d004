internal import CCrypto

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto EVP interface.
enum ContentDigest {
    /// The 32-byte SHA-256 digest of `bytes`, or nil if libcrypto fails (out of memory).
    static func sha256(_ bytes: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        let updated = bytes.withUnsafeBytes { buffer in
            EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
        guard updated == 1 else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        guard finished == 1, length == 32 else { return nil }
        return Array(digest.prefix(32))
    }
}
