/// A Handover Request record (`Hr`, TNF 1): the first record of a handover request message,
/// naming the alternative carriers the requester supports.
///
/// NFC Forum Connection Handover 1.3, section 6.1: a version byte and an NDEF message of a
/// Collision Resolution record (`cr`, a 2-byte big-endian random number, required since
/// version 1.2) and Alternative Carrier records (`ac`). The nested message is decoded strictly,
/// one nesting level deeper; its other records are kept in ``extraRecords`` and every nested
/// record is written back in order.
public struct HandoverRequestRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "handover-request"

    /// The record type, `Hr`.
    public static let recordType = "Hr"

    /// The record type of a Collision Resolution record, `cr`.
    static let collisionResolutionType = "cr"

    /// The version, major in the high nibble and minor in the low (0x13 is 1.3).
    public let version: UInt8
    /// Every nested record in order; encoding writes exactly these.
    public let records: [NFCNDEFPayload]
    /// The random number of the (first) Collision Resolution record.
    public let collisionResolution: UInt16?
    /// The alternative carriers (`ac` records), in order of preference.
    public let carriers: [AlternativeCarrier]
    /// The nested records other than the `ac` records and the first `cr` record.
    public let extraRecords: [NFCNDEFPayload]

    /// The version as `"1.3"`.
    public var versionString: String { CarrierCoding.versionString(version) }

    /// Builds a Handover Request record: the `cr` record, the `ac` records, then `extraRecords`.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` for a version whose major number is not 1, a
    ///   missing collision resolution number at version 1.2 or later, or a reference over 255
    ///   bytes.
    public init(
        version: UInt8 = 0x13,
        collisionResolution: UInt16?,
        carriers: [AlternativeCarrier] = [],
        extraRecords: [NFCNDEFPayload] = []
    ) throws(NDEFError) {
        guard version >> 4 == 1 else {
            throw NDEFError(.invalidValue, "handover version \(CarrierCoding.versionString(version)) is not 1.x")
        }
        guard collisionResolution != nil || version < 0x12 else {
            throw NDEFError(
                .invalidValue, "a version \(CarrierCoding.versionString(version)) request needs a random number")
        }
        var records: [NFCNDEFPayload] = []
        if let collisionResolution {
            var bytes: [UInt8] = []
            CarrierCoding.appendBigEndian(collisionResolution, to: &bytes)
            records.append(NFCNDEFPayload(format: .nfcWellKnown, type: Self.collisionResolutionType, payload: bytes))
        }
        for carrier in carriers { records.append(try carrier.record()) }
        records += extraRecords
        self.version = version
        self.records = records
        self.collisionResolution = collisionResolution
        self.carriers = carriers
        self.extraRecords = extraRecords
    }

    /// A Handover Request record holding exactly `records`, read as parsing reads them.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` for a version whose major number is not 1, or
    ///   records that cannot be encoded or do not parse (a malformed `ac` or `cr` record, no
    ///   `cr` record at version 1.2 or later, ...).
    public init(version: UInt8, records: [NFCNDEFPayload]) throws(NDEFError) {
        self = try HandoverPayload.build(type: Self.recordType, version: version, records: records) {
            (record) throws(NDEFError) in try HandoverRequestRecord(parsing: record)
        }
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("Hr")  // recordType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let payload = record.payload
        let context = "handover request record"
        let (version, records) = try HandoverPayload.decode(payload, options: options, context: context)
        let carriers = try HandoverPayload.carriers(in: records, of: payload)
        var random: UInt16?
        var extra: [NFCNDEFPayload] = []
        for nested in records where !HandoverPayload.isLocal(nested, AlternativeCarrier.recordType) {
            guard random == nil, HandoverPayload.isLocal(nested, Self.collisionResolutionType) else {
                extra.append(nested)
                continue
            }
            guard nested.payload.count == 2 else {
                let error = NDEFError(
                    .invalidPayload,
                    at: 0,
                    "collision resolution record: the random number is 2 bytes, not \(nested.payload.count)"
                )
                throw HandoverPayload.relocate(error, in: nested, of: payload)
            }
            let first = nested.payload.startIndex
            random = UInt16(nested.payload[first]) << 8 | UInt16(nested.payload[first + 1])
        }
        if random == nil && version >= 0x12 {
            throw NDEFError(
                .invalidPayload,
                at: 1,
                "\(context): version \(CarrierCoding.versionString(version)) needs a collision resolution record"
            )
        }
        self.version = version
        self.records = records
        self.collisionResolution = random
        self.carriers = carriers
        self.extraRecords = extra
    }

    /// The record, without an ID; a parsed record is written back byte for byte.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        NFCNDEFPayload(
            format: .nfcWellKnown,
            type: Self.recordType,
            payload: try HandoverPayload.encode(version: version, records: records)
        )
    }

    /// For example `Handover request 1.3 (random 0x1234): carrier "0" active`.
    public var description: String {
        var text = "Handover request \(versionString)"
        if let collisionResolution { text += " (random 0x\(WSCAttribute.typeHex(collisionResolution)))" }
        let parts = carriers.map { "carrier \(HandoverSelectRecord.reference($0.dataReference)) \($0.powerState)" }
        text += parts.isEmpty ? ": no carrier" : ": " + parts.joined(separator: ", ")
        if !extraRecords.isEmpty {
            text += ", \(extraRecords.count) other record" + (extraRecords.count == 1 ? "" : "s")
        }
        return text
    }
}

/// The JSON `value` of a Handover Request record:
/// `{"version":"1.3","collisionResolution":4660,"carriers":[...],"extraRecords":[]}`.
///
/// `carriers` entries are as in ``AlternativeCarrier``. When decoding, `collisionResolution`
/// is required for version 1.2 and later; the version defaults to 1.3.
///
/// Decoding these keys lays the nested records out as the builder does. When that would not give
/// back this value's nested records (another order, an ID on a `cr` or `ac` record, ...),
/// `records` lists every nested record in order, in the record JSON form; when decoding it
/// takes precedence over every key but `version`.
extension HandoverRequestRecord {
    enum CodingKeys: String, CodingKey {
        case version, collisionResolution, carriers, extraRecords, records
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(versionString, forKey: .version)
        try container.encodeIfPresent(collisionResolution, forKey: .collisionResolution)
        try container.encode(carriers, forKey: .carriers)
        try container.encode(extraRecords, forKey: .extraRecords)
        let rebuilt = try? HandoverRequestRecord(
            version: version, collisionResolution: collisionResolution, carriers: carriers, extraRecords: extraRecords)
        if rebuilt != self { try container.encode(records, forKey: .records) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try HandoverCoding.version(container, .version)
        if let records = try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .records) {
            do {
                self = try HandoverRequestRecord(version: version, records: records)
            } catch {
                throw CarrierJSON.invalid(container, .records, error)
            }
            return
        }
        do {
            self = try HandoverRequestRecord(
                version: version,
                collisionResolution: try container.decodeIfPresent(UInt16.self, forKey: .collisionResolution),
                carriers: try container.decodeIfPresent([AlternativeCarrier].self, forKey: .carriers) ?? [],
                extraRecords: try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .extraRecords) ?? []
            )
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .collisionResolution, error)
        }
    }
}
