import HexText

/// The JSON form of a record, a contract scripts rely on:
///
/// ```json
/// {"tnf":1,"typeHex":"55","idHex":"","payloadHex":"04...","type":"U","value":{"uri":"..."}}
/// ```
///
/// `tnf` is the integer 0-7; `typeHex`, `idHex` and `payloadHex` are lower-case hex of the
/// logical record (chunks reassembled); `type` is the type as text when printable; `value` is
/// the typed interpretation when a built-in view reads the record (``NDEFRecordRegistry``);
/// `valueError` says why a matching view could not read it; `chunks` and `chunkSizes` (the
/// payload size of each chunk, in order) are present when the record was decoded from more than
/// one chunk, so that `encode --from-json` writes the same chunks again (NDEF 1.0, 3.2.3).
///
/// When decoding, `tnf` is required; the type comes from `typeHex` or else `type`; the payload
/// from `payloadHex` or else is built from `value` by the matching view.
extension NFCNDEFPayload: Codable {
    enum CodingKeys: String, CodingKey {
        case tnf, typeHex, idHex, payloadHex, type, value, valueError, chunks, chunkSizes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeNameFormat.rawValue, forKey: .tnf)
        try container.encode(Hex.encode(type), forKey: .typeHex)
        try container.encode(Hex.encode(identifier), forKey: .idHex)
        try container.encode(Hex.encode(payload), forKey: .payloadHex)
        if let typeString { try container.encode(typeString, forKey: .type) }
        switch Result(catching: { () throws(NDEFError) in try interpreted() }) {
        case .success(let value?): try container.encode(value, forKey: .value)
        case .success(nil): break
        case .failure(let error): try container.encode(error.description, forKey: .valueError)
        }
        if chunkCount > 1 { try container.encode(chunkCount, forKey: .chunks) }
        if let chunkSizes, chunkSizes.count > 1 { try container.encode(chunkSizes, forKey: .chunkSizes) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rawFormat = try container.decode(UInt8.self, forKey: .tnf)
        guard let format = NFCTypeNameFormat(rawValue: rawFormat) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tnf, in: container, debugDescription: "tnf must be 0-7, not \(rawFormat)")
        }
        var type: [UInt8] = []
        if let hex = try container.decodeIfPresent(String.self, forKey: .typeHex) {
            type = try Self.hex(hex, key: .typeHex, in: container)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .type) {
            type = Array(text.utf8)
        }
        var identifier: [UInt8] = []
        if let hex = try container.decodeIfPresent(String.self, forKey: .idHex) {
            identifier = try Self.hex(hex, key: .idHex, in: container)
        }
        if let hex = try container.decodeIfPresent(String.self, forKey: .payloadHex) {
            let payload = try Self.hex(hex, key: .payloadHex, in: container)
            self.init(format: format, type: type[...], identifier: identifier[...], payload: payload[...])
        } else if container.contains(.value) {
            guard let view = NDEFRecordRegistry.view(format: format, type: type[...]) else {
                let name = printableASCII(type[...]) ?? Hex.encode(type)
                throw DecodingError.dataCorruptedError(
                    forKey: .value,
                    in: container,
                    debugDescription:
                        "no built-in record reads TNF \(rawFormat) type \(name): give payloadHex instead of value"
                )
            }
            let value = try view.init(from: container.superDecoder(forKey: .value))
            self = try value.makeRecord()
            self.identifier = identifier[...]
        } else {
            self.init(format: format, type: type[...], identifier: identifier[...], payload: [])
        }
        if let sizes = try container.decodeIfPresent([Int].self, forKey: .chunkSizes) {
            guard sizes.count > 1, sizes.allSatisfy({ $0 >= 0 }), sizes.reduce(0, { $0 &+ $1 }) == payload.count,
                format != .empty
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .chunkSizes, in: container,
                    debugDescription:
                        "chunkSizes must be two or more sizes that add up to the payload's \(payload.count) bytes")
            }
            chunkSizes = sizes
        }
    }

    private static func hex(_ text: String, key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws
        -> [UInt8]
    {
        do {
            return try Hex.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
        }
    }
}

/// The JSON form of a message: `{"records":[...]}` with each record as in ``NFCNDEFPayload``.
extension NFCNDEFMessage: Codable {
    enum CodingKeys: String, CodingKey {
        case records
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(records, forKey: .records)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(records: try container.decode([NFCNDEFPayload].self, forKey: .records))
    }
}
