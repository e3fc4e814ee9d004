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
