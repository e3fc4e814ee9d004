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
            try container.encode(uuidString ?? NDEFHex.encode(uuid), forKey: .uuid)
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
        try container.encode(NDEFHex.encode(data), forKey: .dataHex)
    }
}
