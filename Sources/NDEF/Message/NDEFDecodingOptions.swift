/// Limits that keep decoding bounded on hostile input.
///
/// NFC Forum NDEF 1.0 allows payloads up to 2³² − 1 bytes and any number of records; a
/// decoder facing untrusted data caps the record count and the nesting depth of messages
/// inside records (Smart Poster, Handover). Payload sizes are bounded by the input itself.
public struct NDEFDecodingOptions: Sendable, Hashable {
    /// The most physical records (chunks count one each) a message may have.
    public var maximumRecordCount: Int
    /// How many levels of messages nested in record payloads are decoded.
    ///
    /// A top-level message is depth 0; a Smart Poster's inner message is depth 1.
    public var maximumNestingDepth: Int

    /// Creates options; the defaults suit any real tag (the largest hold a few kilobytes).
    public init(maximumRecordCount: Int = 16_384, maximumNestingDepth: Int = 4) {
        self.maximumRecordCount = maximumRecordCount
        self.maximumNestingDepth = maximumNestingDepth
    }

    /// The options for a message nested one level deeper, or an error when that is too deep.
    public func nested(at offset: Int? = nil) throws(NDEFError) -> NDEFDecodingOptions {
        guard maximumNestingDepth > 0 else {
            throw NDEFError(.nestingTooDeep, at: offset, "messages nested deeper than allowed")
        }
        var inner = self
        inner.maximumNestingDepth -= 1
        return inner
    }
}

/// What lenient decoding recovered, and the problems it stepped over.
public struct NDEFRecovery: Sendable, Hashable {
    /// The records that could be recovered.
    public var message: NFCNDEFMessage
    /// Each deviation from NDEF 1.0 that was tolerated, in input order, with its offset.
    public var issues: [NDEFError]

    /// Whether the input was a valid message (nothing had to be skipped or repaired).
    public var isClean: Bool { issues.isEmpty }
}
