import JSONSupport

/// How tag dumps read JSON (proxmark3's `.json` dumps): through the package's one JSON parser
/// (``JSONSupport``), with keys that may not repeat and strings read leniently (bytes that are
/// not UTF-8 and lone surrogates become U+FFFD, as proxmark3's own reader takes them), each
/// refusal a ``TagMemoryError/Code/malformedDump`` naming the line and byte offset.
enum DumpJSON {
    /// Nesting deeper than 32 is refused.
    static let options = JSONParseOptions(
        maximumDepth: 32, rejectsDuplicateKeys: true, rejectsInvalidUTF8: false, rejectsLoneSurrogates: false)

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(TagMemoryError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes, options: options)
        } catch {
            throw self.error(in: bytes, at: error.offset, error.reason)
        }
    }

    /// A ``TagMemoryError/Code/malformedDump`` at `offset` in `bytes`, naming its line.
    static func error(in bytes: [UInt8], at offset: Int, _ reason: String) -> TagMemoryError {
        let line = JSONParseError.line(of: offset, in: bytes)
        return TagMemoryError(.malformedDump, at: offset, "line \(line): \(reason)")
    }
}
