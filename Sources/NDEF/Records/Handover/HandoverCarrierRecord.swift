import HexText

/// A Handover Carrier record (`Hc`, TNF 1): names a carrier technology in a handover request
/// when there is no configuration data to give, or only a little.
///
/// NFC Forum Connection Handover 1.3, section 6.4: CTF (carrier type format, a TNF value 1-4 in
/// the low 3 bits; the other bits are reserved), carrier type length, carrier type (for example
/// `application/vnd.wfa.wsc`), then carrier data to the end of the payload.
public struct HandoverCarrierRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "handover-carrier"

    /// The record type, `Hc`.
    public static let recordType = "Hc"

    /// How ``carrierType`` is to be read, as a TNF (well-known, media, absolute URI, external).
    public let carrierTypeFormat: NFCTypeNameFormat
    /// The carrier type (at most 255 bytes).
    public let carrierType: [UInt8]
    /// The carrier data.
    public let carrierData: [UInt8]
    /// The reserved high 5 bits of the CTF byte (the byte with the format bits cleared), kept so
    /// a parsed record is written back unchanged; 0 in records this library builds by default.
    public let reservedBits: UInt8

    /// The bits of the CTF byte that are not the carrier type format (Connection Handover 1.3, 6.4).
    static let reservedMask: UInt8 = 0xF8

    /// The carrier type as text when printable.
    public var carrierTypeString: String? { printableASCII(carrierType[...]) }

    /// Builds a Handover Carrier record.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the format is not 1-4, the type is
    ///   empty or longer than 255 bytes, or `reservedBits` has any of the low 3 bits set.
    public init(
        carrierTypeFormat: NFCTypeNameFormat,
        carrierType: [UInt8],
        carrierData: [UInt8] = [],
        reservedBits: UInt8 = 0
    ) throws(NDEFError) {
        guard (1...4).contains(carrierTypeFormat.rawValue) else {
            throw NDEFError(.invalidValue, "a carrier type format is TNF 1-4, not \(carrierTypeFormat.rawValue)")
        }
        guard !carrierType.isEmpty, carrierType.count <= 255 else {
            throw NDEFError(.invalidValue, "a carrier type is 1 to 255 bytes, not \(carrierType.count)")
        }
        guard reservedBits & ~Self.reservedMask == 0 else {
            throw NDEFError(
                .invalidValue, "reserved CTF bits 0x\(Hex.encode([reservedBits])) overlap the format bits")
        }
        self.carrierTypeFormat = carrierTypeFormat
        self.carrierType = carrierType
        self.carrierData = carrierData
        self.reservedBits = reservedBits
    }

    /// Builds a Handover Carrier record for a media type such as `application/vnd.wfa.wsc`.
    public init(mediaType: String, carrierData: [UInt8] = []) throws(NDEFError) {
        try self.init(carrierTypeFormat: .media, carrierType: Array(mediaType.utf8), carrierData: carrierData)
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("Hc")  // recordType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        var reader = CarrierByteReader(record.payload, context: "handover carrier record")
        let ctf = try reader.readByte("carrier type format")
        // The mask keeps the value within 0...7, so the conversion always succeeds.
        let format = NFCTypeNameFormat(rawValue: ctf & 0x07) ?? .unknown
        guard (1...4).contains(format.rawValue) else {
            throw reader.error("carrier type format \(format.rawValue) is not a TNF of 1-4", at: 0)
        }
        let length = try reader.readByte("carrier type length")
        guard length > 0 else { throw reader.error("the carrier type is empty", at: 1) }
        self.carrierType = Array(try reader.readBytes(Int(length), "carrier type"))
        self.carrierData = Array(reader.readRest())
        self.carrierTypeFormat = format
        self.reservedBits = ctf & Self.reservedMask
    }

    /// The record, without an ID; a parsed record is written back byte for byte.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        guard carrierType.count <= 255 else { throw NDEFError(.invalidValue, "the carrier type is over 255 bytes") }
        let payload = [reservedBits | carrierTypeFormat.rawValue, UInt8(carrierType.count)] + carrierType + carrierData
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }

    /// For example `Handover carrier media application/vnd.wfa.wsc, 0 bytes of data`.
    public var description: String {
        let type = carrierTypeString ?? "0x" + Hex.encode(carrierType)
        return "Handover carrier \(carrierTypeFormat.name) \(type), \(carrierData.count) bytes of data"
    }
}

/// The JSON `value` of a Handover Carrier record:
/// `{"carrierTNF":2,"carrierType":"application/vnd.wfa.wsc","carrierDataHex":""}`.
///
/// The carrier type is text when printable, else `carrierTypeHex`. `reservedBits`, present when
/// not 0, is the CTF byte with the format bits cleared (a multiple of 8).
extension HandoverCarrierRecord {
    enum CodingKeys: String, CodingKey {
        case carrierTNF, carrierType, carrierTypeHex, carrierDataHex, reservedBits
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(carrierTypeFormat.rawValue, forKey: .carrierTNF)
        if let text = carrierTypeString {
            try container.encode(text, forKey: .carrierType)
        } else {
            try container.encode(Hex.encode(carrierType), forKey: .carrierTypeHex)
        }
        try container.encode(Hex.encode(carrierData), forKey: .carrierDataHex)
        if reservedBits != 0 { try container.encode(reservedBits, forKey: .reservedBits) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decode(UInt8.self, forKey: .carrierTNF)
        let type = try CarrierJSON.textOrHex(container, text: .carrierType, hex: .carrierTypeHex) ?? []
        let data = try CarrierJSON.hex(container, .carrierDataHex) ?? []
        let reserved = try container.decodeIfPresent(UInt8.self, forKey: .reservedBits) ?? 0
        guard let format = NFCTypeNameFormat(rawValue: raw) else {
            throw CarrierJSON.invalid(container, .carrierTNF, "carrierTNF must be 1-4, not \(raw)")
        }
        do {
            self = try HandoverCarrierRecord(
                carrierTypeFormat: format, carrierType: type, carrierData: data, reservedBits: reserved)
        } catch {
            throw CarrierJSON.invalid(container, .carrierType, error)
        }
    }
}
