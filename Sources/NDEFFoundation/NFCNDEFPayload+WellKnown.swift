public import NDEF

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// CoreNFC's well-known record conveniences with Foundation's `URL` and `Locale`:
/// `wellKnownTypeURIPayload(url:)`, `wellKnownTypeTextPayload(string:locale:)` and the
/// instance methods that read them back. The `String` forms are in `NDEF`
/// (``NDEF/NFCNDEFPayload/wellKnownTypeURIPayload(string:)``).
extension NFCNDEFPayload {
    /// A URI record for `url` (NFC Forum URI RTD 1.0, 3.2, the longest matching prefix
    /// abbreviated), or `nil` when its text holds a control character.
    public static func wellKnownTypeURIPayload(url: URL) -> NFCNDEFPayload? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A UTF-8 text record (NFC Forum Text RTD 1.0, 3.2.1) in the language of `locale`, its
    /// identifier as an IETF language tag (`en_US` becomes `en-US`), or `nil` when that tag is
    /// longer than 63 bytes or not ASCII.
    public static func wellKnownTypeTextPayload(string: String, locale: Locale) -> NFCNDEFPayload? {
        let tag = String(locale.identifier.map { $0 == "_" ? "-" : $0 })
        return wellKnownTypeTextPayload(string: string, language: tag.isEmpty ? "en" : tag)
    }

    /// The URI of a valid URI record as a `URL`, as CoreNFC's `wellKnownTypeURIPayload()`; nil
    /// for another record or a URI `URL` does not take.
    public func wellKnownTypeURIPayload() -> URL? {
        wellKnownURI.flatMap { URL(string: $0) }
    }

    /// The text and locale of a valid text record, as CoreNFC's `wellKnownTypeTextPayload()`:
    /// `(nil, the default locale)` for another record.
    public func wellKnownTypeTextPayload() -> (String?, Locale) {
        guard let text = wellKnownText else { return (nil, Locale(identifier: "")) }
        return (text.text, Locale(identifier: text.language))
    }
}
