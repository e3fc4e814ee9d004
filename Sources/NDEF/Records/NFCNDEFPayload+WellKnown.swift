/// Conveniences for the two most common well-known records, named after CoreNFC's
/// `NFCNDEFPayload.wellKnownTypeURIPayload(string:)` and
/// `wellKnownTypeTextPayload(string:locale:)`.
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
    public var wellKnownTypeURIPayload: String? {
        guard URIRecord.matches(self) else { return nil }
        return try? URIRecord(parsing: self).uri
    }

    /// The text and language of a valid text record; `nil` for any other record.
    public var wellKnownTypeTextPayload: (text: String, language: String)? {
        guard TextRecord.matches(self), let record = try? TextRecord(parsing: self) else { return nil }
        return (record.text, record.language)
    }
}
