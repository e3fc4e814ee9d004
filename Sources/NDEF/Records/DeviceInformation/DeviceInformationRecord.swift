import HexText

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
        let hex = Array(Hex.encode(uuid))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// The 16 bytes of a UUID written as 32 hex digits, with or without hyphens.
    public static func uuidBytes(_ text: String) -> [UInt8]? {
        guard let bytes = try? Hex.decode(text, allowSeparators: true), bytes.count == 16 else { return nil }
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

extension DeviceInformationRecord {
    /// Parses a Device Information RTD 1.0 payload (section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` (with the payload offset) for a data
    ///   element cut short, a name that is not valid UTF-8, a UUID that is not 16 bytes, a
    ///   defined element that appears twice, or a missing or empty manufacturer or model name.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let payload = record.payload
        var strings: [ElementType: String] = [:]
        var uuid: [UInt8]?
        var extras: [Field] = []
        var index = payload.startIndex
        while index < payload.endIndex {
            let offset = index - payload.startIndex
            guard payload.endIndex - index >= 2 else {
                throw NDEFError(.invalidPayload, at: offset, "a data element needs a type and a length byte")
            }
            let type = payload[index]
            let length = Int(payload[index + 1])
            let valueStart = index + 2
            guard payload.endIndex - valueStart >= length else {
                throw NDEFError(
                    .invalidPayload,
                    at: offset,
                    "data element \(type) of \(length) bytes runs past the end of the payload"
                )
            }
            let value = payload[valueStart..<(valueStart + length)]
            index = valueStart + length
            guard let element = ElementType(rawValue: type) else {
                extras.append(Field(type: type, data: Array(value)))
                continue
            }
            guard strings[element] == nil, element != .uuid || uuid == nil else {
                throw NDEFError(.invalidPayload, at: offset, "the \(element.name) appears more than once")
            }
            if element == .uuid {
                guard length == 16 else {
                    throw NDEFError(.invalidPayload, at: offset, "the UUID is \(length) bytes, not 16")
                }
                uuid = Array(value)
            } else {
                strings[element] = try RecordText.utf8(value, at: offset + 2, "the \(element.name)")
            }
        }
        for element in [ElementType.manufacturer, .model] where strings[element]?.isEmpty ?? true {
            throw NDEFError(.invalidPayload, "a device information record needs a \(element.name)")
        }
        self.init(
            manufacturer: strings[.manufacturer] ?? "",
            model: strings[.model] ?? "",
            deviceName: strings[.deviceName],
            uuid: uuid,
            firmwareVersion: strings[.firmwareVersion],
            extraFields: extras
        )
    }

    /// Builds the record: manufacturer, model, device name, UUID, firmware version, then the
    /// extra fields (Device Information RTD 1.0, section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the manufacturer or model name is
    ///   empty, a value is longer than 255 bytes, the UUID is not 16 bytes, or an extra field
    ///   has a defined type (0-4).
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        var payload: [UInt8] = []
        func append(_ type: UInt8, _ value: [UInt8], _ name: String) throws(NDEFError) {
            guard value.count <= 255 else {
                throw NDEFError(.invalidValue, "the \(name) is \(value.count) bytes, at most 255")
            }
            payload.append(type)
            payload.append(UInt8(value.count))
            payload += value
        }
        for (element, value) in [(ElementType.manufacturer, manufacturer), (.model, model)] {
            guard !value.isEmpty else {
                throw NDEFError(.invalidValue, "a device information record needs a \(element.name)")
            }
            try append(element.rawValue, Array(value.utf8), element.name)
        }
        if let deviceName {
            try append(ElementType.deviceName.rawValue, Array(deviceName.utf8), ElementType.deviceName.name)
        }
        if let uuid {
            guard uuid.count == 16 else { throw NDEFError(.invalidValue, "the UUID is \(uuid.count) bytes, not 16") }
            try append(ElementType.uuid.rawValue, uuid, "UUID")
        }
        if let firmwareVersion {
            let element = ElementType.firmwareVersion
            try append(element.rawValue, Array(firmwareVersion.utf8), element.name)
        }
        for field in extraFields {
            guard ElementType(rawValue: field.type) == nil else {
                throw NDEFError(.invalidValue, "extra field type \(field.type) is a defined element: set that property")
            }
            try append(field.type, field.data, "data element \(field.type)")
        }
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }
}

/// The JSON `value` of a device information record:
///
/// ```json
/// {"manufacturer": "Sony", "model": "RC-S380", "deviceName": "Reader",
///  "uuid": "123e4567-e89b-12d3-a456-426655440000", "firmwareVersion": "1.02",
///  "extraFields": [{"type": 255, "dataHex": "313233"}]}
/// ```
///
/// `deviceName`, `uuid` and `firmwareVersion` are omitted when absent. When decoding, the
/// UUID may be 32 hex digits with or without hyphens, and `extraFields` may be left out.
extension DeviceInformationRecord {
    enum CodingKeys: String, CodingKey {
        case manufacturer, model, deviceName, uuid, firmwareVersion, extraFields
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var uuid: [UInt8]?
        if let text = try container.decodeIfPresent(String.self, forKey: .uuid) {
            guard let bytes = Self.uuidBytes(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .uuid,
                    in: container,
                    debugDescription: "a UUID is 32 hex digits (8-4-4-4-12), not \(text)"
                )
            }
            uuid = bytes
        }
        self.init(
            manufacturer: try container.decode(String.self, forKey: .manufacturer),
            model: try container.decode(String.self, forKey: .model),
            deviceName: try container.decodeIfPresent(String.self, forKey: .deviceName),
            uuid: uuid,
            firmwareVersion: try container.decodeIfPresent(String.self, forKey: .firmwareVersion),
            extraFields: try container.decodeIfPresent([Field].self, forKey: .extraFields) ?? []
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(manufacturer, forKey: .manufacturer)
        try container.encode(model, forKey: .model)
        try container.encodeIfPresent(deviceName, forKey: .deviceName)
        if let uuid {
            // A UUID of the wrong length cannot be built; show it as plain hex rather than lose it.
            try container.encode(uuidString ?? Hex.encode(uuid), forKey: .uuid)
        }
        try container.encodeIfPresent(firmwareVersion, forKey: .firmwareVersion)
        try container.encode(extraFields, forKey: .extraFields)
    }
}

/// The JSON form of an extra data element: `{"type": 255, "dataHex": "313233"}`.
extension DeviceInformationRecord.Field: Codable {
    enum CodingKeys: String, CodingKey {
        case type, dataHex
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decodeInteger(UInt8.self, forKey: .type),
            data: try container.decodeHex(forKey: .dataHex)
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int(type), forKey: .type)
        try container.encode(Hex.encode(data), forKey: .dataHex)
    }
}
