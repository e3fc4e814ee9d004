/// A device information record (NFC Forum Device Information RTD 1.0, type `Di`).
///
/// The payload is a sequence of data elements, each a 1-byte type, a 1-byte length and that
/// many bytes of value (section 3.2): 0 manufacturer name, 1 model name, 2 device unique
/// name, 3 UUID (16 bytes), 4 firmware version; 5-255 are reserved and kept in
/// ``extraFields``. Names and the version are UTF-8. The manufacturer and model names are
/// required. Each defined element may appear once.
public struct DeviceInformationRecord: NDEFRecordConvertible {
    /// A data element of a reserved type (5-255), kept as it was read.
    public struct Field: Sendable, Hashable {
        /// The data element type.
        public var type: UInt8
        /// The value (at most 255 bytes).
        public var data: [UInt8]

        /// Creates a data element.
        public init(type: UInt8, data: [UInt8]) {
            self.type = type
            self.data = data
        }
    }

    /// The well-known type name, `Di`.
    public static let recordType: [UInt8] = [0x44, 0x69]

    /// The data element types defined by Device Information RTD 1.0, section 3.2.
    enum ElementType: UInt8 {
        case manufacturer = 0
        case model = 1
        case deviceName = 2
        case uuid = 3
        case firmwareVersion = 4

        var name: String {
            switch self {
            case .manufacturer: "manufacturer name"
            case .model: "model name"
            case .deviceName: "device unique name"
            case .uuid: "UUID"
            case .firmwareVersion: "firmware version"
            }
        }
    }

    /// The name of this view in the registry, `"device-info"`.
    public static let kind = "device-info"

    /// The manufacturer name (required).
    public var manufacturer: String
    /// The model name (required).
    public var model: String
    /// The device's unique name, for example one its owner gave it.
    public var deviceName: String?
    /// The device's UUID, 16 bytes (RFC 4122 byte order).
    public var uuid: [UInt8]?
    /// The firmware version.
    public var firmwareVersion: String?
    /// Data elements of reserved types (5-255), in order.
    public var extraFields: [Field]

    /// Creates a device information value; ``makeRecord()`` checks it.
    public init(
        manufacturer: String,
        model: String,
        deviceName: String? = nil,
        uuid: [UInt8]? = nil,
        firmwareVersion: String? = nil,
        extraFields: [Field] = []
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.deviceName = deviceName
        self.uuid = uuid
        self.firmwareVersion = firmwareVersion
        self.extraFields = extraFields
    }

    /// The UUID in canonical form, lower-case `8-4-4-4-12` hex digits, when it is 16 bytes.
    public var uuidString: String? {
        guard let uuid, uuid.count == 16 else { return nil }
        let hex = Array(NDEFHex.encode(uuid))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// The 16 bytes of a UUID written as 32 hex digits, with or without hyphens.
    public static func uuidBytes(_ text: String) -> [UInt8]? {
        guard let bytes = try? NDEFHex.decode(text, allowSeparators: true), bytes.count == 16 else { return nil }
        return bytes
    }

    /// Reads TNF 1 records of type `Di`.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("Di")  // recordType, without loading it
    }

    /// A one-line summary for people.
    public var description: String {
        var text = "Device \(manufacturer.quotedForDescription) \(model.quotedForDescription)"
        if let deviceName { text += " name \(deviceName.quotedForDescription)" }
        if let firmwareVersion { text += " firmware \(firmwareVersion.quotedForDescription)" }
        if let uuidString { text += " UUID \(uuidString)" }
        return text
    }
}
