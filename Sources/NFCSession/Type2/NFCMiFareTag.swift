import NDEF
import TagMemory

/// An NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight family) handed out by an
/// ``NFCTagReaderSession``, with the operations of CoreNFC's `NFCMiFareTag` and `NFCNDEFTag`.
///
/// Every operation starts from what the tag holds: it reads the pages it needs afresh (NFC Forum
/// Type 2 Tag 1.1, 5.1 READ; NTAG213/215/216 10.3 FAST_READ), plans changes with TagMemory, sends
/// page WRITEs (T2T 1.1, 5.2), and reads back what it wrote. Pages read within one operation are
/// reused inside it, never across operations. Operations on one tag run one at a time, in the
/// order they are called.
///
/// Commands are kept to the minimum the checks need, and counted: FAST_READ ranges are sized to
/// the reader's ``NFCReaderCapabilities/maximumFrameSize`` and only sent to chips identified by
/// GET_VERSION; otherwise READ gives 4 pages per command.
///
/// A NAK sends a Type 2 tag back to IDLE (NTAG213/215/216 9.3): the tag is selected again before
/// the next command, which also ends a PWD_AUTH authentication. A write interrupted by the tag
/// leaving the field reports ``NFCReaderError/mayBeHalfWritten``; write operations are ordered so
/// that an interrupted write leaves the old content, an empty message, or the new content (see
/// ``writeNDEF(_:)``), and ``resumeWrite(_:)`` completes one.
///
/// Cancellation and session invalidation are checked when an operation starts; an operation that
/// has started runs to its end, so that a write is never abandoned half-way by the caller.
public actor NFCMiFareTag {
    /// The UID (CoreNFC's `identifier`), 7 bytes on NXP Type 2 chips.
    public nonisolated let identifier: [UInt8]
    /// What polling found: UID, ATQA, SAK.
    public nonisolated let targetInfo: NFCTargetInfo
    /// The chip, and how it was identified.
    public nonisolated let identification: Type2Identification

    /// The reader the tag is in.
    let reader: any NFCReaderDevice
    /// The session's validity.
    let lifetime: SessionLifetime
    /// Whether a PWD_AUTH succeeded since the tag was last selected.
    var authenticated = false
    /// Whether a NAK or a lost answer left the tag outside the ACTIVE state.
    var needsReselect = false
    /// Told after each acknowledged WRITE of a plan (``observeWriteProgress(_:)``).
    var writeProgressObserver: (@Sendable (NFCWriteProgress) -> Void)?
    /// The NDEF status the last completed write, erase or format left on the tag (read-write, with
    /// the capacity its checks read), so a caller can report the capacity without reading again;
    /// nil before the first such operation.
    public internal(set) var lastWrittenStatus: NDEFTagStatus?
    /// The mirror the last completed write set up (``writeNDEF(_:mirror:)``), nil after a write
    /// without one.
    public internal(set) var lastWrittenMirror: Type2Configuration.Mirror?
    /// The frames sent to the tag through this object, identification excepted.
    public internal(set) var commandsSent = 0
    /// Runs the operations on this tag one at a time.
    private let gate: OperationGate

    init(
        reader: any NFCReaderDevice, target: NFCTargetInfo, identification: Type2Identification,
        lifetime: SessionLifetime
    ) {
        self.reader = reader
        self.targetInfo = target
        self.identifier = target.uid
        self.identification = identification
        self.lifetime = lifetime
        self.gate = OperationGate(lifetime: lifetime)
    }

    /// The chip, when identified (see ``identification``).
    public nonisolated var chip: Type2Chip? { identification.chip }

    /// Whether PWD_AUTH succeeded since the tag was last selected: writes to password-protected
    /// pages are allowed (NTAG213/215/216 8.8.1).
    public var isAuthenticated: Bool { authenticated }

    /// Waits for the operation running to end, then starts one.
    ///
    /// - Throws: ``NFCReaderError/Code/cancelled`` when the session was invalidated or the task
    ///   is cancelled.
    func beginOperation() async throws(NFCReaderError) {
        try await gate.enter()
    }

    /// Ends the running operation; the next one waiting starts.
    func endOperation() {
        gate.leave()
    }
}

extension NFCMiFareTag: NFCNDEFTag {
    public nonisolated var isAvailable: Bool { !lifetime.isInvalidated }

    /// The UID and the identification: `04:A1:B2:C3:D4:E5:F6: NTAG215 (GET_VERSION)`.
    public nonisolated var description: String { "\(targetInfo.uidDescription): \(identification)" }

    /// The identified chip's name (``chip``), nil when it is not identified.
    public nonisolated var chipName: String? { chip?.name }

    /// `page write`: a plan's steps are WRITE commands of one page (T2T 1.1, 5.2).
    public nonisolated var writeCommandName: String { "page write" }

    /// The status the last write, erase or format left (``lastWrittenStatus``, no command), or
    /// a fresh ``ndefStatus()`` when no such operation completed.
    public func ndefStatusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        if let lastWrittenStatus { return lastWrittenStatus }
        return try await ndefStatus()
    }

    /// The bytes of the first NDEF Message TLV's value (T2T 1.1, 2.3.4), read with
    /// ``readMemory()``; nil when the tag holds no NDEF Message TLV.
    public func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
        try await readMemory().ndefMessageBytes
    }
}
