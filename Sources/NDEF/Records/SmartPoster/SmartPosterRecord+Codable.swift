/// The JSON `value` of a smart poster:
///
/// ```json
/// {"uri": "https://example.com", "titles": [{"text": "Example", "language": "en", "encoding": "utf-8"}],
///  "action": "execute", "size": 1024, "mediaType": "text/html",
///  "icons": [{"mediaType": "image/png", "dataHex": "89504e47"}], "extraRecords": []}
/// ```
///
/// `action` is omitted when there is no action record; a reserved action code is written as
/// `"actionCode": n` instead. `size` and `mediaType` are omitted when absent. When decoding,
/// only `uri` is required.
extension SmartPosterRecord {
    enum CodingKeys: String, CodingKey {
        case uri, titles, action, actionCode, size, mediaType, icons, extraRecords
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var action: Action?
        if let name = try container.decodeIfPresent(String.self, forKey: .action) {
            guard let known = Action(name: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .action,
                    in: container,
                    debugDescription: "action must be execute, save or open (or give actionCode), not \(name)"
                )
            }
            action = known
        } else if container.contains(.actionCode) {
            action = Action(rawValue: try container.decodeInteger(UInt8.self, forKey: .actionCode))
        }
        var size: UInt32?
        if container.contains(.size) {
            size = try container.decodeInteger(UInt32.self, forKey: .size)
        }
        self.init(
            uri: try container.decode(String.self, forKey: .uri),
            titles: try container.decodeIfPresent([TextRecord].self, forKey: .titles) ?? [],
            action: action,
            size: size,
            mediaType: try container.decodeIfPresent(String.self, forKey: .mediaType),
            icons: try container.decodeIfPresent([Icon].self, forKey: .icons) ?? [],
            extraRecords: try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .extraRecords) ?? []
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let parts = self.parts  // once: a parsed poster reads its fields from its payload
        let (titles, action, size, mediaType, icons, extraRecords) = (
            parts.titles, parts.action, parts.size, parts.mediaType, parts.icons, parts.extraRecords
        )
        try container.encode(parts.link.uri, forKey: .uri)
        try container.encode(titles, forKey: .titles)
        if let action {
            if let name = action.name {
                try container.encode(name, forKey: .action)
            } else {
                try container.encode(Int(action.rawValue), forKey: .actionCode)
            }
        }
        if let size { try container.encode(size, forKey: .size) }
        if let mediaType { try container.encode(mediaType, forKey: .mediaType) }
        try container.encode(icons, forKey: .icons)
        try container.encode(extraRecords, forKey: .extraRecords)
    }
}
