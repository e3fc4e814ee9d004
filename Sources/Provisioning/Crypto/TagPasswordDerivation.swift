/// A per-tag password and PACK (NTAG21x datasheet section 8.8: PWD is 4 bytes, PACK 2 bytes).
/// Its description never shows the bytes.
public struct DerivedTagPassword: Sendable, Hashable, CustomStringConvertible {
    /// The 4-byte password (PWD).
    public let password: [UInt8]
    /// The 2-byte password acknowledge (PACK).
    public let passwordAcknowledge: [UInt8]

    /// Always `**`: a password is never printed.
    public var description: String { "**" }
}

/// Derives each tag's password from one master secret, so that a batch needs to keep only
/// the master secret and a tag's password can be recomputed from its UID:
/// `HMAC-SHA256(master, UID bytes)` (RFC 2104), password = bytes 0..<4, PACK = bytes 4..<6.
///
/// The master secret is never written to a journal or a report, and this type's description
/// hides it.
public struct TagPasswordDerivation: Sendable, CustomStringConvertible {
    private let masterSecret: [UInt8]

    /// A derivation under `masterSecret`, which must not be empty.
    public init(masterSecret: [UInt8]) throws(ProvisioningError) {
        guard !masterSecret.isEmpty else { throw ProvisioningError(.crypto, "the master secret is empty") }
        self.masterSecret = masterSecret
    }

    /// The password and PACK of the tag with `uid` (its UID bytes, 4, 7 or 10 of them).
    public func derive(uid: [UInt8]) throws(ProvisioningError) -> DerivedTagPassword {
        guard !uid.isEmpty else { throw ProvisioningError(.crypto, "the tag UID is empty") }
        let mac = try ProvisioningDigest.hmacSHA256(key: masterSecret, message: uid)
        return DerivedTagPassword(password: Array(mac[0..<4]), passwordAcknowledge: Array(mac[4..<6]))
    }

    /// What a journal records to recognise the master secret on a resume without revealing it:
    /// the first 8 bytes of `HMAC-SHA256(master, "ndeftool job secret check")`, in lower-case
    /// hex. The message is 25 bytes long, so it is never a UID (4, 7 or 10 bytes) and the check
    /// is no tag's password; a keyed hash truncated to 64 bits tells nothing usable of the
    /// secret (RFC 2104, 5: truncated output).
    public func secretCheck() throws(ProvisioningError) -> String {
        let mac = try ProvisioningDigest.hmacSHA256(key: masterSecret, message: Array(Self.checkMessage.utf8))
        let digits = Array("0123456789abcdef".utf8)
        return String(
            decoding: mac.prefix(8).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// The message of ``secretCheck()``.
    static let checkMessage = "ndeftool job secret check"

    /// Always `TagPasswordDerivation(**)`.
    public var description: String { "TagPasswordDerivation(**)" }
}
