/// What checking a tag's originality signature found: the signature READ_SIG returned (or a dump
/// recorded), and whether a known public key verifies it (NTAG213/215/216 datasheet 10.8,
/// MF0ULX1 8.8.9; NXP application note AN11350).
///
/// The check itself needs elliptic-curve cryptography, which NFCSession does with libcrypto
/// (`NFCOriginalityKey`); this value is what it found, for reports that stay free of cryptography.
public struct OriginalitySignatureCheck: Sendable, Hashable, Encodable {
    /// How the check ended.
    public enum Status: String, Sendable, Hashable {
        /// A known key verifies the signature: the chip was signed by that key's owner.
        case valid
        /// The signature verifies under none of the keys: a clone, or a chip no key given knows.
        case notValid
        /// The signature is all zeros: what an unsigned chip (or a dump without one) holds.
        case allZero
    }

    /// The signature's bytes (32 for NTAG21x and Ultralight EV1: r ‖ s on secp128r1).
    public var signature: [UInt8]
    /// How the check ended.
    public var status: Status
    /// The name of the key that verified it (``Status/valid`` only).
    public var keyName: String?

    /// A check's result from its parts.
    public init(signature: [UInt8], status: Status, keyName: String? = nil) {
        self.signature = signature
        self.status = status
        self.keyName = status == .valid ? keyName : nil
    }

    /// Whether a known key verified it.
    public var isValid: Bool { status == .valid }

    /// `valid (NXP NTAG21x key)`, `NOT VALID: not signed by NXP (a clone, or a chip this tool does
    /// not know)`, or `all zeros: the chip is not signed (a clone, or an unsigned sample)`.
    public var summary: String {
        switch status {
        case .valid: "valid (\(keyName ?? "a known key"))"
        case .notValid: "NOT VALID: not signed by NXP (a clone, or a chip this tool does not know)"
        case .allZero: "NOT VALID: all zeros, the chip is not signed (a clone, or an unsigned sample)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case hex, verified, key, status
    }

    /// `{"hex": "...", "verified": true, "key": "NXP NTAG21x key", "status": "valid"}` (`key`
    /// null unless verified; `status` `valid`, `notValid` or `allZero`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let digits = Array("0123456789ABCDEF".utf8)
        let hex = String(decoding: signature.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
        try container.encode(hex, forKey: .hex)
        try container.encode(isValid, forKey: .verified)
        try container.encode(keyName, forKey: .key)
        try container.encode(status.rawValue, forKey: .status)
    }
}
