import NFCCrypto

/// SHA-256 and HMAC-SHA256 from ``NFCCrypto`` as the journal uses them (the plan's digest, the
/// digest of each message written, per-tag passwords), with libcrypto's failures reported as
/// ``ProvisioningError/Code/crypto``.
enum ProvisioningDigest {
    /// The 32-byte SHA-256 digest of `bytes` (FIPS 180-4).
    static func sha256(_ bytes: [UInt8]) throws(ProvisioningError) -> [UInt8] {
        do { return try SHA256.hash(bytes) } catch { throw ProvisioningError(.crypto, error.reason) }
    }

    /// The 32-byte HMAC-SHA256 (RFC 2104) of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) throws(ProvisioningError) -> [UInt8] {
        do { return try HMACSHA256.authenticationCode(for: message, key: key) } catch {
            throw ProvisioningError(.crypto, error.reason)
        }
    }
}
