/// A per-tag password and PACK (NTAG21x datasheet section 8.8: PWD is 4 bytes, PACK 2 bytes).
/// Its description never shows the bytes.
public struct DerivedTagPassword: Sendable, Hashable, CustomStringConvertible {
    /// The 4-byte password (PWD).
    public let password: [UInt8]
    /// The 2-byte password acknowledge (PACK).
    public let pack: [UInt8]

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
        return DerivedTagPassword(password: Array(mac[0..<4]), pack: Array(mac[4..<6]))
    }

    /// Always `TagPasswordDerivation(**)`.
    public var description: String { "TagPasswordDerivation(**)" }
}
