/// One logical NDEF record: type name format, type, identifier and payload.
///
/// NFC Forum NDEF 1.0, section 3.2. The name follows CoreNFC's `NFCNDEFPayload`. A record
/// that arrived in chunks (CF flag) is stored reassembled: type and identifier from the first
/// chunk, payloads concatenated; ``chunkCount`` remembers how many chunks there were.
///
/// The byte fields are `ArraySlice<UInt8>`, so a decoded record shares storage with the
/// buffer it was decoded from instead of copying it. The record keeps TYPE, ID and payload
/// one after the other in one buffer, as a message lays them out: a decoded record is a
/// single slice of the message, and a record built from separate fields (or changed) joins
/// them in a new buffer. Index each field from its own `startIndex`, which need not be 0.
public struct NFCNDEFPayload: Sendable, Hashable {
    /// How ``type`` is to be read.
    public var typeNameFormat: NFCTypeNameFormat {
        get { format }
        set {
            format = newValue
            typeIsChecked = false
        }
    }
    /// The TYPE field (at most 255 bytes).
    public var type: ArraySlice<UInt8> {
        get { fields[fields.startIndex..<typeEnd] }
        set { setFields(type: newValue, identifier: identifier, payload: payload) }
    }
    /// The ID field (at most 255 bytes; empty when the record has none).
    public var identifier: ArraySlice<UInt8> {
        get { fields[typeEnd..<payloadStart] }
        set { setFields(type: type, identifier: newValue, payload: payload) }
    }
    /// The payload (at most 2³² − 1 bytes).
    public var payload: ArraySlice<UInt8> {
        get { fields[payloadStart...] }
        set { setFields(type: type, identifier: identifier, payload: newValue) }
    }
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

    // Stored properties in this order make the record 64 bytes, with both one-byte fields
    // together: a record moves as four aligned 16-byte words.
    private var format: NFCTypeNameFormat
    /// Whether the decoder has found the TYPE to be of the syntax its TNF requires
    /// (``NDEFTypeSyntax``), so the typed views need not check it again. Any change to the
    /// format or type clears it. Not part of equality.
    private(set) var typeIsChecked = false
    /// TYPE, ID and PAYLOAD one after the other, as a record lays them out (NDEF 1.0, 3.2): a
    /// decoded record is one slice of the message, so making and dropping it costs one
    /// reference instead of three.
    private var fields: ArraySlice<UInt8>
    /// The index in `fields` where the ID starts.
    private var typeEnd: Int
    /// The index in `fields` where the payload starts.
    private var payloadStart: Int

    /// Creates a record from its fields.
    public init(
        format: NFCTypeNameFormat,
        type: ArraySlice<UInt8> = [],
        identifier: ArraySlice<UInt8> = [],
        payload: ArraySlice<UInt8> = []
    ) {
        self.format = format
        fields = []
        typeEnd = 0
        payloadStart = 0
        setFields(type: type, identifier: identifier, payload: payload)
    }

    /// A record read from a message: its fields are the index ranges `type`, `identifier` and
    /// `payload` of `message`, as a record lays them out (the ID right after the TYPE, the
    /// payload right after the ID; an empty `type` may be anywhere, for a type the lenient
    /// decoder dropped). The record is one slice of `message`. `typeIsChecked` says the TYPE
    /// has the syntax its TNF requires.
    init(
        format: NFCTypeNameFormat,
        in message: ArraySlice<UInt8>,
        type: Range<Int>,
        identifier: Range<Int>,
        payload: Range<Int>,
        typeIsChecked: Bool
    ) {
        self.format = format
        fields = message[(type.isEmpty ? identifier.lowerBound : type.lowerBound)..<payload.upperBound]
        typeEnd = identifier.lowerBound
        payloadStart = payload.lowerBound
        self.typeIsChecked = typeIsChecked
    }

    /// Creates a record from byte arrays.
    public init(format: NFCTypeNameFormat, type: [UInt8], identifier: [UInt8] = [], payload: [UInt8]) {
        self.init(format: format, type: type[...], identifier: identifier[...], payload: payload[...])
    }

    /// Creates a record whose TYPE field is the UTF-8 of `type` (for example `"U"` or `"text/plain"`).
    public init(format: NFCTypeNameFormat, type: String, identifier: [UInt8] = [], payload: [UInt8]) {
        self.init(format: format, type: Array(type.utf8)[...], identifier: identifier[...], payload: payload[...])
    }

    /// Stores the three fields one after the other in new storage.
    private mutating func setFields(type: ArraySlice<UInt8>, identifier: ArraySlice<UInt8>, payload: ArraySlice<UInt8>)
    {
        var joined: [UInt8] = []
        joined.reserveCapacity(type.count + identifier.count + payload.count)
        joined += type
        joined += identifier
        joined += payload
        fields = joined[...]
        typeEnd = type.count
        payloadStart = type.count + identifier.count
        typeIsChecked = false
    }

    /// Adds `bytes` to the end of the payload (the decoder joining a chunked record's chunks):
    /// the payload is copied out of the message once, at the first call, and grows in its own
    /// storage after that.
    mutating func appendToPayload(_ bytes: ArraySlice<UInt8>) {
        fields.append(contentsOf: bytes)
    }

    /// The sizes of the three fields, without making slices.
    var typeCount: Int { typeEnd - fields.startIndex }
    var identifierCount: Int { payloadStart - typeEnd }
    var payloadCount: Int { fields.endIndex - payloadStart }

    /// Calls `body` with the TYPE, ID and payload in memory.
    func withFields<Result, Failure: Error>(
        _ body: (
            _ type: UnsafeBufferPointer<UInt8>, _ identifier: UnsafeBufferPointer<UInt8>,
            _ payload: UnsafeBufferPointer<UInt8>
        ) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (start, typeEnd, payloadStart) = (fields.startIndex, self.typeEnd, self.payloadStart)
        return try fields.withUnsafeBufferPointer { (all) throws(Failure) in
            try body(
                UnsafeBufferPointer(rebasing: all[..<(typeEnd - start)]),
                UnsafeBufferPointer(rebasing: all[(typeEnd - start)..<(payloadStart - start)]),
                UnsafeBufferPointer(rebasing: all[(payloadStart - start)...]))
        }
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

/// Conveniences for the two most common well-known records: the factories are named after
/// CoreNFC's `NFCNDEFPayload.wellKnownTypeURIPayload(string:)` and
/// `wellKnownTypeTextPayload(string:locale:)` (the `URL` and `Locale` forms, and CoreNFC's
/// reading methods, are in `NDEFFoundation`); ``wellKnownURI`` and ``wellKnownText`` read them.
extension NFCNDEFPayload {
    /// A URI record for `string`, abbreviated with the longest matching prefix (NFC Forum URI
    /// RTD 1.0, section 3.2), or `nil` when `string` holds a control character.
    public static func wellKnownTypeURIPayload(string: String) -> NFCNDEFPayload? {
        try? URIRecord(uri: string).makeRecord()
    }

    /// A UTF-8 text record (NFC Forum Text RTD 1.0, section 3.2.1), or `nil` when `language`
    /// is longer than 63 bytes or not ASCII.
    public static func wellKnownTypeTextPayload(string: String, language: String = "en") -> NFCNDEFPayload? {
        try? TextRecord(text: string, language: language).makeRecord()
    }

    /// The URI of a valid URI record, prefix expanded; `nil` for any other record.
    public var wellKnownURI: String? {
        guard URIRecord.matches(self) else { return nil }
        return try? URIRecord(parsing: self).uri
    }

    /// The text and language of a valid text record; `nil` for any other record.
    public var wellKnownText: (text: String, language: String)? {
        guard TextRecord.matches(self), let record = try? TextRecord(parsing: self) else { return nil }
        return (record.text, record.language)
    }
}
