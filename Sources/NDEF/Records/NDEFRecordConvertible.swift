/// A typed view of one kind of NDEF record: a parser from, and a builder of, ``NFCNDEFPayload``.
///
/// Each conforming type documents the NFC Forum RTD (or other specification) it implements.
/// Parsing never traps: a malformed payload throws ``NDEFError`` with code
/// ``NDEFError/Code/invalidPayload`` and the offset within the payload.
///
/// The `Codable` form is the `value` object of the JSON contract
/// (`{"records":[{"tnf":1,"typeHex":"55",...,"value":{"uri":"..."}}]}`), so its keys are
/// stable. `description` is a one-line human summary, for example `Text (en): "Hello"`.
public protocol NDEFRecordConvertible: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A short stable name for this kind of record, for example `"text"` or `"uri"`.
    static var kind: String { get }

    /// Whether records with this type name format and type are read by this view.
    static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool

    /// Parses `record`, which must match; nested messages are decoded within `options`.
    init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError)

    /// Builds the record (without an ID; set ``NFCNDEFPayload/identifier`` afterwards if needed).
    func makeRecord() throws(NDEFError) -> NFCNDEFPayload
}

extension NDEFRecordConvertible {
    /// Whether `record` is read by this view.
    public static func matches(_ record: NFCNDEFPayload) -> Bool {
        matches(format: record.typeNameFormat, type: record.type)
    }

    /// Parses `record` with default decoding options.
    public init(parsing record: NFCNDEFPayload) throws(NDEFError) {
        try self.init(parsing: record, options: NDEFDecodingOptions())
    }

    /// Throws ``NDEFError/Code/wrongRecordType`` unless `record` matches this view.
    public static func requireMatch(_ record: NFCNDEFPayload) throws(NDEFError) {
        guard matches(record) else {
            let type = record.typeString ?? NDEFHex.encode(record.type)
            throw NDEFError(
                .wrongRecordType, "not a \(kind) record: TNF \(record.typeNameFormat.rawValue), type \(type)")
        }
    }
}
