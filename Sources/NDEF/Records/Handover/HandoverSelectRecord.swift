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
        printableASCII(bytes[...]).map { "\"\($0)\"" } ?? "0x" + NDEFHex.encode(bytes)
    }
}
