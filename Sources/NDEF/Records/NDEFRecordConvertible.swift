import HexText

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
            let type = record.typeString ?? Hex.encode(record.type)
            throw NDEFError(
                .wrongRecordType, "not a \(kind) record: TNF \(record.typeNameFormat.rawValue), type \(type)")
        }
    }
}

/// The typed record views the library knows, most specific first.
///
/// A record is interpreted by the first view that matches it (so the Wi-Fi view, a media
/// type, comes before the generic media view). Records no view matches stay raw
/// ``NFCNDEFPayload`` values and are preserved byte for byte.
public enum NDEFRecordRegistry {
    /// Every built-in view, most specific first.
    public static let standard: [any NDEFRecordConvertible.Type] = [
        // Specific views first, then the generic per-TNF views.
        TextRecord.self,
        URIRecord.self,
        SmartPosterRecord.self,
        DeviceInformationRecord.self,
        // Connection handover.
        HandoverSelectRecord.self,
        HandoverRequestRecord.self,
        HandoverCarrierRecord.self,
        AndroidApplicationRecord.self,
        ExternalRecord.self,
        AbsoluteURIRecord.self,
        // Carrier configuration: specific media types before the generic media view.
        WiFiCredentialRecord.self,
        BluetoothOOBRecord.self,
        BluetoothLowEnergyOOBRecord.self,
        MediaRecord.self,
    ]

    /// The first built-in view that reads records of this format and type.
    public static func view(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> (any NDEFRecordConvertible.Type)? {
        standard.first { $0.matches(format: format, type: type) }
    }

    /// The first built-in view that reads records with this kind name (for example `"text"`).
    public static func view(kind: String) -> (any NDEFRecordConvertible.Type)? {
        standard.first { $0.kind == kind }
    }
}

/// Keeps a record that holds records (Smart Poster, Handover Select and Request) within the
/// decoding limits as a whole, nested records included (see ``NDEFDecodingOptions``).
enum NestedRecordLimits {
    /// Reads `record` through its typed view, if one matches, only to enforce the limits of
    /// `options` on the messages nested in it; throws ``NDEFError/Code/nestingTooDeep`` or
    /// ``NDEFError/Code/tooManyRecords`` (with the offset inside `record`'s payload). Any other
    /// problem is left to whoever interprets `record` itself.
    ///
    /// Without this check a chain of records nested in each other's extra records would be
    /// accepted at any depth, and everything that walks the chain (the JSON form) would recurse
    /// once per level.
    static func check(_ record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        guard let view = NDEFRecordRegistry.view(format: record.typeNameFormat, type: record.type) else { return }
        do {
            _ = try view.init(parsing: record, options: options)
        } catch {
            if error.code == .nestingTooDeep || error.code == .tooManyRecords { throw error }
        }
    }
}
