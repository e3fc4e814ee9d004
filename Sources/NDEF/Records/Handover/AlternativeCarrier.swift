import HexText

/// The Carrier Power State of an alternative carrier (2 bits).
///
/// NFC Forum Connection Handover 1.3, section 6.2.1, table 6.
public enum CarrierPowerState: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0: the carrier is off.
    case inactive = 0
    /// 1: the carrier is on.
    case active = 1
    /// 2: the carrier is being turned on.
    case activating = 2
    /// 3: the state is unknown (as on a static tag).
    case unknown = 3

    /// The stable JSON name: `"inactive"`, `"active"`, `"activating"` or `"unknown"`.
    public var name: String {
        switch self {
        case .inactive: "inactive"
        case .active: "active"
        case .activating: "activating"
        case .unknown: "unknown"
        }
    }

    /// The state with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public var description: String { name }
}

/// One Alternative Carrier record (`ac`, a local type inside handover records): a carrier's
/// power state and references, by record ID, to its configuration and auxiliary data records.
///
/// NFC Forum Connection Handover 1.3, section 6.2: CPS (low 2 bits of the first byte; the rest
/// reserved), carrier data reference (length byte and bytes), auxiliary data reference count,
/// and each auxiliary data reference (length byte and bytes).
public struct AlternativeCarrier: Sendable, Hashable {
    /// The carrier power state.
    public var powerState: CarrierPowerState
    /// The reserved high 6 bits of the CPS byte (the byte with the power state bits cleared),
    /// kept so a parsed record is written back unchanged; 0 in records this library builds.
    public var reservedBits: UInt8 = 0
    /// The ID of the carrier configuration record in the same handover message.
    public var dataReference: [UInt8]
    /// The IDs of records with auxiliary data for this carrier.
    public var auxiliaryDataReferences: [[UInt8]]

    /// Creates an alternative carrier.
    public init(powerState: CarrierPowerState, dataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = []) {
        self.powerState = powerState
        self.dataReference = dataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    /// Creates an alternative carrier with text references (record IDs such as `"0"`).
    public init(powerState: CarrierPowerState, dataReference: String, auxiliaryDataReferences: [String] = []) {
        self.init(
            powerState: powerState,
            dataReference: Array(dataReference.utf8),
            auxiliaryDataReferences: auxiliaryDataReferences.map { Array($0.utf8) }
        )
    }

    /// The record type of an Alternative Carrier record, `ac`.
    static let recordType = "ac"

    /// The bits of the CPS byte that are not the power state (Connection Handover 1.3, 6.2.1).
    static let reservedMask: UInt8 = 0xFC

    /// Reads an `ac` payload; reserved CPS bits are kept in ``reservedBits``.
    init(payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = CarrierByteReader(payload, context: "alternative carrier record")
        let first = try reader.readByte("carrier power state")
        // The mask keeps the value within 0...3, so the conversion always succeeds.
        self.powerState = CarrierPowerState(rawValue: first & 0x03) ?? .unknown
        self.reservedBits = first & Self.reservedMask
        let length = try reader.readByte("carrier data reference length")
        self.dataReference = Array(try reader.readBytes(Int(length), "carrier data reference"))
        let count = try reader.readByte("auxiliary data reference count")
        var auxiliary: [[UInt8]] = []
        for number in 0..<Int(count) {
            let auxiliaryLength = try reader.readByte("length of auxiliary data reference \(number)")
            auxiliary.append(Array(try reader.readBytes(Int(auxiliaryLength), "auxiliary data reference \(number)")))
        }
        self.auxiliaryDataReferences = auxiliary
        guard reader.isAtEnd else {
            throw reader.error("\(reader.remainingCount) bytes follow the last auxiliary data reference")
        }
    }

    /// The `ac` payload.
    func payload() throws(NDEFError) -> [UInt8] {
        guard dataReference.count <= 255, auxiliaryDataReferences.count <= 255,
            auxiliaryDataReferences.allSatisfy({ $0.count <= 255 })
        else {
            throw NDEFError(
                .invalidValue, "alternative carrier: references are at most 255 bytes, and at most 255 of them")
        }
        guard reservedBits & ~Self.reservedMask == 0 else {
            throw NDEFError(
                .invalidValue,
                "alternative carrier: reserved bits 0x\(Hex.encode([reservedBits])) overlap the power state bits"
            )
        }
        var bytes: [UInt8] = [reservedBits | powerState.rawValue, UInt8(dataReference.count)] + dataReference
        bytes.append(UInt8(auxiliaryDataReferences.count))
        for reference in auxiliaryDataReferences {
            bytes.append(UInt8(reference.count))
            bytes += reference
        }
        return bytes
    }

    /// The `ac` record.
    func record() throws(NDEFError) -> NFCNDEFPayload {
        NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: try payload())
    }
}

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
            try container.encode(Hex.encode(dataReference), forKey: .dataReferenceHex)
        }
        let texts = auxiliaryDataReferences.compactMap { printableASCII($0[...]) }
        if texts.count == auxiliaryDataReferences.count {
            try container.encode(texts, forKey: .auxiliaryDataReferences)
        } else {
            try container.encode(
                auxiliaryDataReferences.map { Hex.encode($0) }, forKey: .auxiliaryDataReferencesHex)
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
                    auxiliary.append(try Hex.decode(hex))
                } catch {
                    throw CarrierJSON.invalid(container, .auxiliaryDataReferencesHex, NDEFError(error))
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
