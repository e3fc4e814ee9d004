/// How far a planned write has gone, reported after each acknowledged step
/// (``NFCNDEFTag/observeWriteProgress(_:)``): a page WRITE of a Type 2 tag (NFC Forum Type 2 Tag
/// 1.1, 5.2) or an UPDATE BINARY of a Type 4 tag (Type 4 Tag 3.0, 5.4.4).
public struct NFCWriteProgress: Sendable, Hashable {
    /// The steps written and acknowledged so far, from 1.
    public var written: Int
    /// The steps of the plan (``NFCNDEFTag/writeCommandName`` names them).
    public var planned: Int
    /// What the writes are for: `the NDEF write`, `the erase`, `the lock`, ...
    public var purpose: String

    /// A progress report.
    public init(written: Int, planned: Int, purpose: String) {
        self.written = written
        self.planned = planned
        self.purpose = purpose
    }
}
