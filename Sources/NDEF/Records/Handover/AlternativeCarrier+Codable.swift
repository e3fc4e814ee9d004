/// The JSON form of an alternative carrier, an entry of `carriers` in handover records:
///
/// ```json
/// {"powerState":"active","dataReference":"0","auxiliaryDataReferences":[]}
/// ```
///
/// References are text when printable ASCII, else hex in `dataReferenceHex` and
/// `auxiliaryDataReferencesHex`. `reservedBits`, present when not 0, is the CPS byte with the
/// power state bits cleared (a multiple of 4). When decoding, `powerState` and a data reference
/// are required.
extension AlternativeCarrier: Codable {
    enum CodingKeys: String, CodingKey {
        case powerState, dataReference, dataReferenceHex, auxiliaryDataReferences, auxiliaryDataReferencesHex
        case reservedBits
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(powerState.name, forKey: .powerState)
        if let text = printableASCII(dataReference[...]) {
            try container.encode(text, forKey: .dataReference)
        } else {
            try container.encode(NDEFHex.encode(dataReference), forKey: .dataReferenceHex)
        }
        let texts = auxiliaryDataReferences.compactMap { printableASCII($0[...]) }
        if texts.count == auxiliaryDataReferences.count {
            try container.encode(texts, forKey: .auxiliaryDataReferences)
        } else {
            try container.encode(
                auxiliaryDataReferences.map { NDEFHex.encode($0) }, forKey: .auxiliaryDataReferencesHex)
        }
        if reservedBits != 0 { try container.encode(reservedBits, forKey: .reservedBits) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .powerState)
        guard let state = CarrierPowerState(name: name) else {
            throw CarrierJSON.invalid(container, .powerState, "unknown power state \"\(name)\"")
        }
        guard let reference = try CarrierJSON.textOrHex(container, text: .dataReference, hex: .dataReferenceHex) else {
            throw DecodingError.keyNotFound(
                CodingKeys.dataReference,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "a carrier needs dataReference")
            )
        }
        var auxiliary: [[UInt8]] = []
        if let texts = try container.decodeIfPresent([String].self, forKey: .auxiliaryDataReferences) {
            auxiliary = texts.map { Array($0.utf8) }
        } else if let hexes = try container.decodeIfPresent([String].self, forKey: .auxiliaryDataReferencesHex) {
            for hex in hexes {
                do {
                    auxiliary.append(try NDEFHex.decode(hex))
                } catch {
                    throw CarrierJSON.invalid(container, .auxiliaryDataReferencesHex, error)
                }
            }
        }
        self.init(powerState: state, dataReference: reference, auxiliaryDataReferences: auxiliary)
        let reserved = try container.decodeIfPresent(UInt8.self, forKey: .reservedBits) ?? 0
        guard reserved & ~Self.reservedMask == 0 else {
            throw CarrierJSON.invalid(container, .reservedBits, "reservedBits must be a multiple of 4, not \(reserved)")
        }
        self.reservedBits = reserved
    }
}
