/// The Type Name Format (TNF) of an NDEF record: how its TYPE field is to be read.
///
/// NFC Forum NDEF 1.0, section 3.2.6. The names follow CoreNFC's `NFCTypeNameFormat`.
/// Value 7 is reserved; the specification asks parsers to treat it as ``unknown``, which
/// ``NFCNDEFMessage`` does when decoding (see ``NDEFDecodingOptions``).
public enum NFCTypeNameFormat: UInt8, Sendable, Hashable, CaseIterable, Codable {
    /// 0x00: the record carries no type, identifier or payload.
    case empty = 0
    /// 0x01: NFC Forum well-known type (RTD), for example `T` or `U`.
    case nfcWellKnown = 1
    /// 0x02: a media type as defined in RFC 2046, for example `text/vcard`.
    case media = 2
    /// 0x03: an absolute URI as defined in RFC 3986 names the payload type.
    case absoluteURI = 3
    /// 0x04: an NFC Forum external type, `domain:type`.
    case nfcExternal = 4
    /// 0x05: the payload type is unknown; the record has no TYPE field.
    case unknown = 5
    /// 0x06: a middle or terminating chunk of a chunked record; no TYPE field.
    case unchanged = 6
    /// 0x07: reserved by the NFC Forum.
    case reserved = 7

    /// The format in the low three bits of `value` (a record header's TNF field): each of the
    /// eight values is a case, so this cannot fail, and it compiles to a mask.
    init(lowBitsOf value: UInt8) {
        switch value & 0x07 {
        case 0: self = .empty
        case 1: self = .nfcWellKnown
        case 2: self = .media
        case 3: self = .absoluteURI
        case 4: self = .nfcExternal
        case 5: self = .unknown
        case 6: self = .unchanged
        default: self = .reserved
        }
    }

    /// Whether records of this format must have an empty TYPE field (NDEF 1.0, 3.2.6).
    public var forbidsType: Bool {
        switch self {
        case .empty, .unknown, .unchanged: true
        default: false
        }
    }

    /// A short, stable name for messages and JSON.
    public var name: String {
        switch self {
        case .empty: "empty"
        case .nfcWellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute-uri"
        case .nfcExternal: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved"
        }
    }
}
