/// A typed view of one kind of NDEF record: a parser from, and a builder of, ``NFCNDEFPayload``.
///
/// Each conforming type documents the NFC Forum RTD (or other specification) it implements.
/// Parsing never traps: a malformed payload throws ``NDEFError`` with code
/// ``NDEFError/Code/invalidPayload`` and the offset within the payload.
public protocol NDEFRecordConvertible: Sendable, Hashable {
    /// Whether `record` has the type name format and type this view reads.
    static func matches(_ record: NFCNDEFPayload) -> Bool

    /// Parses `record`, which must match; nested messages are decoded within `options`.
    init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError)

    /// Builds the record (without an ID; set ``NFCNDEFPayload/identifier`` afterwards if needed).
    func makeRecord() throws(NDEFError) -> NFCNDEFPayload
}

extension NDEFRecordConvertible {
    /// Parses `record` with default decoding options.
    public init(parsing record: NFCNDEFPayload) throws(NDEFError) {
        try self.init(parsing: record, options: NDEFDecodingOptions())
    }

    /// Throws ``NDEFError/Code/wrongRecordType`` unless `record` matches this view.
    public static func requireMatch(_ record: NFCNDEFPayload) throws(NDEFError) {
        guard matches(record) else {
            throw NDEFError(
                .wrongRecordType,
                "not a \(Self.self): TNF \(record.typeNameFormat.rawValue), type \(record.typeString ?? NDEFHex.encode(record.type))"
            )
        }
    }
}
