/// One logical NDEF record: type name format, type, identifier and payload.
///
/// NFC Forum NDEF 1.0, section 3.2. The name follows CoreNFC's `NFCNDEFPayload`. A record
/// that arrived in chunks (CF flag) is stored reassembled: type and identifier from the first
/// chunk, payloads concatenated; ``chunkCount`` remembers how many chunks there were.
///
/// The byte fields are `ArraySlice<UInt8>`, so a decoded record shares storage with the
/// buffer it was decoded from instead of copying it.
public struct NFCNDEFPayload: Sendable, Hashable {
    /// How ``type`` is to be read.
    public var typeNameFormat: NFCTypeNameFormat
    /// The TYPE field (at most 255 bytes).
    public var type: ArraySlice<UInt8>
    /// The ID field (at most 255 bytes; empty when the record has none).
    public var identifier: ArraySlice<UInt8>
    /// The payload (at most 2³² − 1 bytes).
    public var payload: ArraySlice<UInt8>
    /// How many chunks the record was decoded from (``chunkSizes``); 1 for an unchunked record.
    ///
    /// Not part of equality: a record is the same record however it was chunked.
    public var chunkCount: Int { chunkSizes?.count ?? 1 }
    /// The payload sizes of the chunks, in order, when the record was decoded from chunks (NDEF
    /// 1.0, 3.2.3), or is to be written in chunks of these sizes; nil otherwise.
    ///
    /// Encoding without a chunk size honours it (``NFCNDEFMessage/encoded(chunkSize:)``), so a
    /// decoded message is encoded back byte for byte; the sizes must add up to the payload's
    /// size. Not part of equality.
    public var chunkSizes: [Int]?

    /// Creates a record from its fields.
    public init(
        format: NFCTypeNameFormat,
        type: ArraySlice<UInt8> = [],
        identifier: ArraySlice<UInt8> = [],
        payload: ArraySlice<UInt8> = []
    ) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// Creates a record from byte arrays.
    public init(format: NFCTypeNameFormat, type: [UInt8], identifier: [UInt8] = [], payload: [UInt8]) {
        self.init(format: format, type: type[...], identifier: identifier[...], payload: payload[...])
    }

    /// Creates a record whose TYPE field is the UTF-8 of `type` (for example `"U"` or `"text/plain"`).
    public init(format: NFCTypeNameFormat, type: String, identifier: [UInt8] = [], payload: [UInt8]) {
        self.init(format: format, type: Array(type.utf8)[...], identifier: identifier[...], payload: payload[...])
    }

    /// An empty record (TNF 0), as used for an empty NDEF message.
    public static let empty = NFCNDEFPayload(format: .empty)

    /// The TYPE field as text when it is printable ASCII (as every RTD and media type is).
    public var typeString: String? { printableASCII(type) }

    /// The ID field as text when it is printable ASCII.
    public var identifierString: String? { printableASCII(identifier) }

    public static func == (lhs: NFCNDEFPayload, rhs: NFCNDEFPayload) -> Bool {
        lhs.typeNameFormat == rhs.typeNameFormat && lhs.type == rhs.type && lhs.identifier == rhs.identifier
            && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeNameFormat)
        hasher.combine(type)
        hasher.combine(identifier)
        hasher.combine(payload)
    }

    /// Whether the record is of the given format and its TYPE field equals `type`'s UTF-8.
    public func hasType(_ format: NFCTypeNameFormat, _ type: String) -> Bool {
        typeNameFormat == format && self.type.elementsEqual(type.utf8)
    }
}

/// `bytes` as a String when every byte is printable ASCII (0x20-0x7E) and there is at least one.
func printableASCII(_ bytes: ArraySlice<UInt8>) -> String? {
    guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}
