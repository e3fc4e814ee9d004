/// The Authentication Type bitfield of a Wi-Fi credential (attribute 0x1003).
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 12, table 32. Values other
/// than the named ones are kept as they are.
public struct WiFiAuthenticationType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit bitfield.
    public var rawValue: UInt16

    /// Creates a value from its bitfield.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 0x0001: open network, no authentication.
    public static let open = WiFiAuthenticationType(rawValue: 0x0001)
    /// 0x0002: WPA-Personal (deprecated in WSC 2.0).
    public static let wpaPersonal = WiFiAuthenticationType(rawValue: 0x0002)
    /// 0x0004: shared key (deprecated).
    public static let shared = WiFiAuthenticationType(rawValue: 0x0004)
    /// 0x0008: WPA-Enterprise (deprecated).
    public static let wpaEnterprise = WiFiAuthenticationType(rawValue: 0x0008)
    /// 0x0010: WPA2-Enterprise.
    public static let wpa2Enterprise = WiFiAuthenticationType(rawValue: 0x0010)
    /// 0x0020: WPA2-Personal.
    public static let wpa2Personal = WiFiAuthenticationType(rawValue: 0x0020)
    /// 0x0022: WPA/WPA2-Personal mixed mode.
    public static let wpaWPA2Personal = WiFiAuthenticationType(rawValue: 0x0022)
    /// 0x0040: WPA3-Personal (SAE). Not in WSC 2.0 itself; Wi-Fi EasyMesh uses this bit of the
    /// same attribute.
    public static let wpa3Personal = WiFiAuthenticationType(rawValue: 0x0040)
    /// 0x0060: WPA2/WPA3-Personal transition mode (0x0020 | 0x0040, as Wi-Fi EasyMesh uses it).
    public static let wpa2WPA3Personal = WiFiAuthenticationType(rawValue: 0x0060)

    private static let names: [(WiFiAuthenticationType, String)] = [
        (.open, "open"),
        (.wpaPersonal, "wpa-personal"),
        (.shared, "shared"),
        (.wpaEnterprise, "wpa-enterprise"),
        (.wpa2Enterprise, "wpa2-enterprise"),
        (.wpa2Personal, "wpa2-personal"),
        (.wpaWPA2Personal, "wpa-wpa2-personal"),
        (.wpa3Personal, "wpa3-personal"),
        (.wpa2WPA3Personal, "wpa2-wpa3-personal"),
    ]

    /// The stable JSON name (for example `"wpa2-personal"`), or `nil` for other bitfields.
    public var name: String? {
        Self.names.first { $0.0 == self }?.1
    }

    /// The value with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let match = Self.names.first(where: { $0.1 == name }) else { return nil }
        self = match.0
    }

    /// The name, or the bitfield in hex (`0x0081`) when it has none.
    public var description: String { name ?? "0x\(WSCAttribute.typeHex(rawValue))" }
}
