/// A read or write access condition byte of a Type 4 file control TLV.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1.2 (NDEF File Control TLV, tables for the read and
/// write access fields): `00` access granted without any security, `01`-`7F` reserved (RFU),
/// `80`-`FE` proprietary (for example an authentication the tag defines), `FF` no access.
/// The raw byte is kept, so a reserved or proprietary value reads back unchanged.
public struct Type4AccessCondition: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The byte as stored in the capability container.
    public var rawValue: UInt8

    /// Creates a condition from its byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `00`: access granted without any security.
    public static let granted = Type4AccessCondition(rawValue: 0x00)
    /// `FF`: no access granted (for write access: the file is read-only).
    public static let none = Type4AccessCondition(rawValue: 0xFF)

    /// Whether access is granted without any security (`00`).
    public var isGranted: Bool { rawValue == 0x00 }
    /// Whether no access is granted at all (`FF`).
    public var isNone: Bool { rawValue == 0xFF }
    /// Whether the value is in the proprietary range `80`-`FE`.
    public var isProprietary: Bool { (0x80...0xFE).contains(rawValue) }
    /// Whether the value is reserved for future use (`01`-`7F`).
    public var isReserved: Bool { (0x01...0x7F).contains(rawValue) }

    public var description: String {
        let hex = TagHex.byte(rawValue)
        if isGranted { return "granted (00)" }
        if isNone { return "none (FF)" }
        if isProprietary { return "proprietary (\(hex))" }
        return "reserved (\(hex))"
    }
}
