import JSONSupport

/// How journals and JSON Lines plans read a line of JSON: through the package's one JSON parser
/// (``JSONSupport``), strictly (UTF-8 only, no lone surrogates, nesting at most 16 deep), each
/// refusal a ``ProvisioningError`` naming the line and byte column.
enum JSONLine {
    static let options = JSONParseOptions(
        maximumDepth: 16, rejectsDuplicateKeys: false, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true)

    /// Parses `bytes`, the line `line` of its file, as exactly one JSON value; errors carry
    /// `code` (``ProvisioningError/Code/invalidUTF8`` for bytes that are not UTF-8).
    static func parse(
        _ bytes: ArraySlice<UInt8>, line: Int, code: ProvisioningError.Code
    ) throws(ProvisioningError) -> JSONValue {
        do {
            return try JSONValue.parse(Array(bytes), options: options)
        } catch {
            throw ProvisioningError(
                error.isInvalidUTF8 ? .invalidUTF8 : code, line: line, column: error.offset + 1, error.reason)
        }
    }
}
