/// The Encryption Type bitfield of a Wi-Fi credential (attribute 0x100F).
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 12, table 34. Values other
/// than the named ones are kept as they are.
public struct WiFiEncryptionType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit bitfield.
    public var rawValue: UInt16

    /// Creates a value from its bitfield.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 0x0001: no encryption.
    public static let none = WiFiEncryptionType(rawValue: 0x0001)
    /// 0x0002: WEP (deprecated).
    public static let wep = WiFiEncryptionType(rawValue: 0x0002)
    /// 0x0004: TKIP (deprecated; only in mixed mode).
    public static let tkip = WiFiEncryptionType(rawValue: 0x0004)
    /// 0x0008: AES (CCMP).
    public static let aes = WiFiEncryptionType(rawValue: 0x0008)
    /// 0x000C: AES/TKIP mixed mode.
    public static let aesTKIP = WiFiEncryptionType(rawValue: 0x000C)

    private static let names: [(WiFiEncryptionType, String)] = [
        (.none, "none"),
        (.wep, "wep"),
        (.tkip, "tkip"),
        (.aes, "aes"),
        (.aesTKIP, "aes-tkip"),
    ]

    /// The stable JSON name (for example `"aes"`), or `nil` for other bitfields.
    public var name: String? {
        Self.names.first { $0.0 == self }?.1
    }

    /// The value with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let match = Self.names.first(where: { $0.1 == name }) else { return nil }
        self = match.0
    }

    /// The name, or the bitfield in hex (`0x0010`) when it has none.
    public var description: String { name ?? "0x\(WSCAttribute.typeHex(rawValue))" }
}
