import HexText

/// A Handover Select record (`Hs`, TNF 1): the first record of a handover select message,
/// naming the alternative carriers (Bluetooth, Wi-Fi) whose configuration records follow it.
///
/// NFC Forum Connection Handover 1.3, section 6.2: a version byte (major and minor nibbles,
/// 0x13 for 1.3) and an NDEF message of Alternative Carrier records (`ac`) and an optional
/// Error record (`err`). With no carriers (version 1.2 and later) the payload is just the
/// version byte. The nested message is decoded strictly, one nesting level deeper; its other
/// records are kept in ``extraRecords`` and every nested record is written back in order.
public struct HandoverSelectRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "handover-select"

    /// The record type, `Hs`.
    public static let recordType = "Hs"

    /// The version, major in the high nibble and minor in the low (0x13 is 1.3).
    public let version: UInt8
    /// Every nested record in order; encoding writes exactly these.
    public let records: [NFCNDEFPayload]
    /// The alternative carriers (`ac` records), in order of preference.
    public let carriers: [AlternativeCarrier]
    /// The error information (the first `err` record), when the selector reports one.
    public let error: HandoverSelectError?
    /// The nested records other than the `ac` records and the first `err` record.
    public let extraRecords: [NFCNDEFPayload]

    /// The version as `"1.3"`.
    public var versionString: String { CarrierCoding.versionString(version) }

    /// Builds a Handover Select record: the `ac` records, then the `err` record, then
    /// `extraRecords`.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` for a version whose major number is not 1, a
    ///   reference over 255 bytes, or error data that does not fit its reason.
    public init(
        version: UInt8 = 0x13,
        carriers: [AlternativeCarrier] = [],
        error: HandoverSelectError? = nil,
        extraRecords: [NFCNDEFPayload] = []
    ) throws(NDEFError) {
        guard version >> 4 == 1 else {
            throw NDEFError(.invalidValue, "handover version \(CarrierCoding.versionString(version)) is not 1.x")
        }
        var records: [NFCNDEFPayload] = []
        for carrier in carriers { records.append(try carrier.record()) }
        if let error { records.append(try error.record()) }
        records += extraRecords
        self.version = version
        self.records = records
        self.carriers = carriers
        self.error = error
        self.extraRecords = extraRecords
    }

    /// A Handover Select record holding exactly `records`, read as parsing reads them.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` for a version whose major number is not 1, or
    ///   records that cannot be encoded or do not parse (a malformed `ac` or `err` record, ...).
    public init(version: UInt8, records: [NFCNDEFPayload]) throws(NDEFError) {
        self = try HandoverPayload.build(type: Self.recordType, version: version, records: records) {
            (record) throws(NDEFError) in try HandoverSelectRecord(parsing: record)
        }
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("Hs")  // recordType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let payload = record.payload
        let (version, records) = try HandoverPayload.decode(
            payload, options: options, context: "handover select record")
        let carriers = try HandoverPayload.carriers(in: records, of: payload)
        var errorInfo: HandoverSelectError?
        var extra: [NFCNDEFPayload] = []
        for nested in records where !HandoverPayload.isLocal(nested, AlternativeCarrier.recordType) {
            guard errorInfo == nil, HandoverPayload.isLocal(nested, HandoverSelectError.recordType) else {
                extra.append(nested)
                continue
            }
            do {
                errorInfo = try HandoverSelectError(payload: nested.payload)
            } catch {
                throw HandoverPayload.relocate(error, in: nested, of: payload)
            }
        }
        self.version = version
        self.records = records
        self.carriers = carriers
        self.error = errorInfo
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

    /// For example `Handover select 1.3: carrier "0" active`.
    public var description: String {
        var text = "Handover select \(versionString)"
        let parts = carriers.map { "carrier \(HandoverSelectRecord.reference($0.dataReference)) \($0.powerState)" }
        text += parts.isEmpty ? ": no carrier" : ": " + parts.joined(separator: ", ")
        if let error { text += ", error \(error.reason)" }
        if !extraRecords.isEmpty {
            text += ", \(extraRecords.count) other record" + (extraRecords.count == 1 ? "" : "s")
        }
        return text
    }

    /// A record ID for display: quoted text when printable, else hex.
    static func reference(_ bytes: [UInt8]) -> String {
        printableASCII(bytes[...]).map { "\"\($0)\"" } ?? "0x" + Hex.encode(bytes)
    }
}

/// The Error record (`err`, a local type inside a Handover Select record): why the selector
/// could not process a handover request.
///
/// NFC Forum Connection Handover 1.3, section 6.3: error reason (1 byte; 0 is reserved) and
/// error data. Reason 1 (temporary memory constraints) carries 1 byte, the time in
/// milliseconds after which to retry; reason 2 (permanent memory constraints) 4 bytes, the
/// largest message accepted; reason 3 (carrier specific constraints) 1 byte, a retry time in
/// milliseconds. Other reasons are reserved and their data is kept as it is.
public struct HandoverSelectError: Sendable, Hashable {
    /// The error reason, 1-255.
    public var reason: UInt8
    /// The error data.
    public var data: [UInt8]

    /// Creates error information.
    public init(reason: UInt8, data: [UInt8]) {
        self.reason = reason
        self.data = data
    }

    /// The record type of an Error record, `err`.
    static let recordType = "err"

    /// Reads an `err` payload, checking the data size of reasons 1-3.
    init(payload: ArraySlice<UInt8>, code: NDEFError.Code = .invalidPayload) throws(NDEFError) {
        var reader = CarrierByteReader(payload, context: "handover error record")
        let reason = try reader.readByte("error reason")
        let data = reader.readRest()
        try Self.check(reason: reason, dataCount: data.count, code: code)
        self.reason = reason
        self.data = Array(data)
    }

    static func check(reason: UInt8, dataCount: Int, code: NDEFError.Code) throws(NDEFError) {
        let offset = code == .invalidPayload ? 0 : nil
        guard reason != 0 else {
            throw NDEFError(code, at: offset, "handover error record: error reason 0 is reserved")
        }
        let expected: Int? =
            switch reason {
            case 1, 3: 1
            case 2: 4
            default: nil
            }
        if let expected, dataCount != expected {
            throw NDEFError(
                code,
                at: offset.map { _ in 1 },
                "handover error record: reason \(reason) has \(expected) data bytes, not \(dataCount)"
            )
        }
    }

    /// The `err` record.
    func record() throws(NDEFError) -> NFCNDEFPayload {
        try Self.check(reason: reason, dataCount: data.count, code: .invalidValue)
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: [reason] + data)
    }
}

extension HandoverSelectRecord {
    /// A carrier of a handover message with the records its references name.
    public struct ResolvedCarrier: Sendable, Hashable {
        /// The alternative carrier as the Handover Select record gives it.
        public var carrier: AlternativeCarrier
        /// The record whose ID is the carrier data reference, or `nil` when none has it.
        public var configuration: NFCNDEFPayload?
        /// For each auxiliary data reference, the record with that ID, or `nil`.
        public var auxiliaryData: [NFCNDEFPayload?]
    }

    /// A static handover select message (NFC Forum Connection Handover 1.3, section 5.2): this
    /// Hs record first, then each carrier configuration record, which must carry an ID; one
    /// Alternative Carrier record per configuration refers to it.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a configuration record has no ID or two
    ///   share one.
    public static func message(
        configurations: [NFCNDEFPayload],
        powerState: CarrierPowerState = .active,
        version: UInt8 = 0x13
    ) throws(NDEFError) -> NFCNDEFMessage {
        var seen: Set<ArraySlice<UInt8>> = []
        for (index, configuration) in configurations.enumerated() {
            guard !configuration.identifier.isEmpty else {
                throw NDEFError(
                    .invalidValue, "carrier configuration \(index) has no ID for the handover record to refer to")
            }
            guard seen.insert(configuration.identifier).inserted else {
                throw NDEFError(.invalidValue, "carrier configuration \(index) repeats the ID of an earlier one")
            }
        }
        let carriers = configurations.map {
            AlternativeCarrier(powerState: powerState, dataReference: Array($0.identifier))
        }
        let select = try HandoverSelectRecord(version: version, carriers: carriers)
        return NFCNDEFMessage(records: [try select.makeRecord()] + configurations)
    }

    /// A static handover select message for one carrier, for example a
    /// ``BluetoothOOBRecord``, ``BluetoothLowEnergyOOBRecord`` or ``WiFiCredentialRecord``: the
    /// Hs record and the carrier configuration record with the ID `reference`, as a tag that
    /// pairs a headset or joins a network carries it (NFC Forum BTSSP 1.2, section 4).
    public static func message(
        carrier: some NDEFRecordConvertible,
        reference: String = "0",
        powerState: CarrierPowerState = .active,
        version: UInt8 = 0x13
    ) throws(NDEFError) -> NFCNDEFMessage {
        var configuration = try carrier.makeRecord()
        configuration.identifier = Array(reference.utf8)[...]
        return try message(configurations: [configuration], powerState: powerState, version: version)
    }

    /// Each carrier with the records of `message` its references name (record IDs). The first
    /// record is skipped when it is a handover record itself.
    public func resolveCarriers(in message: NFCNDEFMessage) -> [ResolvedCarrier] {
        var candidates = message.records[...]
        if let first = candidates.first, Self.matches(first) || HandoverRequestRecord.matches(first) {
            candidates = candidates.dropFirst()
        }
        func record(withID reference: [UInt8]) -> NFCNDEFPayload? {
            guard !reference.isEmpty else { return nil }
            return candidates.first { $0.identifier.elementsEqual(reference) }
        }
        return carriers.map { carrier in
            ResolvedCarrier(
                carrier: carrier,
                configuration: record(withID: carrier.dataReference),
                auxiliaryData: carrier.auxiliaryDataReferences.map(record(withID:))
            )
        }
    }
}

/// The JSON `value` of a Handover Select record.
///
/// ```json
/// {"version":"1.3","carriers":[{"powerState":"active","dataReference":"0",
///  "auxiliaryDataReferences":[]}],"error":{"reason":1,"dataHex":"10"},"extraRecords":[]}
/// ```
///
/// `carriers` entries are as in ``AlternativeCarrier``; `error` is present when the record has
/// an Error record; `extraRecords` holds the other nested records in the record JSON form.
/// When decoding, every key is optional (version 1.3, no carriers).
///
/// Decoding these keys lays the nested records out as the builder does. When that would not give
/// back this value's nested records (another order, an ID on an `ac` or `err` record, ...),
/// `records` lists every nested record in order, in the record JSON form; when decoding it
/// takes precedence over every key but `version`.
extension HandoverSelectRecord {
    enum CodingKeys: String, CodingKey {
        case version, carriers, error, extraRecords, records
    }

    /// The JSON form of ``HandoverSelectError``.
    struct ErrorJSON: Codable {
        var reason: UInt8
        var dataHex: String
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(versionString, forKey: .version)
        try container.encode(carriers, forKey: .carriers)
        if let error {
            try container.encode(ErrorJSON(reason: error.reason, dataHex: Hex.encode(error.data)), forKey: .error)
        }
        try container.encode(extraRecords, forKey: .extraRecords)
        let rebuilt = try? HandoverSelectRecord(
            version: version, carriers: carriers, error: error, extraRecords: extraRecords)
        if rebuilt != self { try container.encode(records, forKey: .records) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try HandoverCoding.version(container, .version)
        if let records = try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .records) {
            do {
                self = try HandoverSelectRecord(version: version, records: records)
            } catch {
                throw CarrierJSON.invalid(container, .records, error)
            }
            return
        }
        var errorInfo: HandoverSelectError?
        if let json = try container.decodeIfPresent(ErrorJSON.self, forKey: .error) {
            do {
                errorInfo = HandoverSelectError(reason: json.reason, data: try Hex.decode(json.dataHex))
            } catch {
                throw CarrierJSON.invalid(container, .error, NDEFError(error))
            }
        }
        do {
            self = try HandoverSelectRecord(
                version: version,
                carriers: try container.decodeIfPresent([AlternativeCarrier].self, forKey: .carriers) ?? [],
                error: errorInfo,
                extraRecords: try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .extraRecords) ?? []
            )
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .carriers, error)
        }
    }
}

/// JSON pieces shared by the handover views.
enum HandoverCoding {
    /// The version at `key` (`"1.3"`), 1.3 when absent.
    static func version<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> UInt8 {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return 0x13 }
        guard let version = CarrierCoding.versionByte(text) else {
            throw CarrierJSON.invalid(container, key, "a version is \"major.minor\", not \"\(text)\"")
        }
        return version
    }
}
