/// The LE Role data type (0x1C): which GAP roles a device supports and prefers.
///
/// Bluetooth Core Specification Supplement, Part A, section 1.17. Values 0x04-0xFF are
/// reserved and kept as they are.
public struct BluetoothLERole: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The role byte.
    public var rawValue: UInt8

    /// Creates a role from its byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 0x00: only the Peripheral role is supported.
    public static let peripheralOnly = BluetoothLERole(rawValue: 0)
    /// 0x01: only the Central role is supported.
    public static let centralOnly = BluetoothLERole(rawValue: 1)
    /// 0x02: both roles; Peripheral preferred for connection establishment.
    public static let peripheralPreferred = BluetoothLERole(rawValue: 2)
    /// 0x03: both roles; Central preferred for connection establishment.
    public static let centralPreferred = BluetoothLERole(rawValue: 3)

    private static let names = ["peripheral-only", "central-only", "peripheral-preferred", "central-preferred"]

    /// The stable JSON name (for example `"peripheral-only"`), or `nil` for a reserved value.
    public var name: String? {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    /// The role with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: UInt8(index))
    }

    /// The name, or `reserved 0x04` for a reserved value.
    public var description: String { name ?? "reserved 0x" + NDEFHex.encode([rawValue]) }
}

/// Whether an LE device address is public or random (bit 0 of the address type byte of the
/// LE Bluetooth Device Address data type, Core Specification Supplement, Part A, 1.16).
public enum BluetoothLEAddressType: String, Sendable, Hashable, Codable {
    /// A public device address.
    case `public`
    /// A random device address (static or private).
    case random
}
