import NDEF
import TagMemory

/// The NDEF operations every kind of tag offers, as CoreNFC's `NFCNDEFTag` protocol:
/// ``queryNDEFStatus()``, ``readNDEF()``, ``writeNDEF(_:)`` and a lock, here in two steps
/// (``prepareLock()``, then ``writeLock(_:)`` with the confirmation it gave).
///
/// ``NFCTagReaderSession/nextTag(timeout:)`` hands out an `any NFCNDEFTag`; ask it for the kind
/// whose own commands you need, as CoreNFC's `switch tag { case .miFare(let t): ... }` does:
///
/// ```swift
/// let tag = try await session.nextTag(timeout: .seconds(10))
/// if let type2 = tag as? NFCMiFareTag { print(try await type2.passwordStatus()) }
/// ```
///
/// Adopted by ``NFCMiFareTag`` (NFC Forum Type 2: NTAG21x, MIFARE Ultralight; Type 2 Tag 1.1,
/// 6.4), ``NFCISO7816Tag`` (Type 4; Type 4 Tag 3.0, 5.5), ``NFCNTAG424Tag`` and
/// ``NFCMiFareClassicTag`` (MIFARE Classic; NXP AN1304). More kinds will come (Type 5): code
/// that handles some kinds should leave the others to a default branch.
///
/// Every write is whole, capacity-checked, tearing-safe and read back (see
/// ``NFCMiFareTag/writeNDEF(_:)`` and ``NFCISO7816Tag/writeNDEF(_:)`` for each kind's order).
/// Operations on one tag run one at a time, in the order they are called. A tag's
/// `description` is its UID and what it was identified as (`04:A1:B2:C3:D4:E5:F6: NTAG215
/// (GET_VERSION)`).
public protocol NFCNDEFTag: AnyObject, Sendable, CustomStringConvertible {
    /// The UID (CoreNFC's `identifier`).
    var identifier: [UInt8] { get }
    /// What polling found: UID, ATQA, SAK, and ATS for ISO-DEP tags.
    var targetInfo: NFCTargetInfo { get }
    /// Whether the session that handed the tag out is still valid (CoreNFC's `isAvailable`):
    /// after ``NFCTagReaderSession/invalidate()`` every operation throws
    /// ``NFCReaderError/Code/cancelled``.
    var isAvailable: Bool { get }
    /// The chip's name when known (`NTAG215`, `NTAG 424 DNA`), else the NFC Forum mapping
    /// (`NFC Forum Type 4 Tag`); nil for a Type 2 chip that was not identified.
    var chipName: String? { get }
    /// What one step of a ``TagMemory/TagWritePlan`` sends, a noun whose plural takes an `s`:
    /// `page write` (WRITE, T2T 1.1 5.2) or `UPDATE BINARY command` (ISO/IEC 7816-4 11.3.5).
    var writeCommandName: String { get }
    /// The commands sent to the tag through this object so far (identification excepted).
    var commandsSent: Int { get async }
    /// Calls `observer` after each accepted write of every plan the tag sends from now on, for a
    /// progress display; nil stops the calls. It runs on the tag's executor: return at once.
    func observeWriteProgress(_ observer: (@Sendable (NFCWriteProgress) -> Void)?) async

    /// The NDEF status and capacity, as CoreNFC's `queryNDEFStatus` gives them.
    func queryNDEFStatus() async throws(NFCReaderError) -> (NFCNDEFStatus, Int)
    /// The NDEF status and capacity as one value.
    func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus
    /// The NDEF status the last completed write, erase or format left, without a command when
    /// the tag kept it; else a fresh ``ndefStatus()``.
    func ndefStatusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus

    /// The message on the tag, as CoreNFC's `readNDEF`.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` for an empty message;
    ///   ``NFCReaderError/Code/invalidMessage`` for bytes that are no NDEF message.
    func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage
    /// The message as it was written: as ``readNDEF()`` reads it, with what a UID or counter
    /// mirror shows put back to its placeholder (``NFCMiFareTag/readNDEFAsWritten()``), so that
    /// it compares equal to the message written whatever the counter is now.
    func readNDEFAsWritten() async throws(NFCReaderError) -> NFCNDEFMessage
    /// The message bytes exactly as stored (empty for an empty message), without decoding them;
    /// nil when a Type 2 tag holds no NDEF Message TLV.
    func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8]?

    /// Writes `message` as CoreNFC's `writeNDEF`: capacity-checked, in a tearing-safe order,
    /// read back. An interrupted write throws with ``NFCReaderError/mayBeHalfWritten`` and leaves
    /// the old message, an empty one or the new one; ``resumeWrite(_:)`` completes it.
    func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError)
    /// Completes an interrupted ``writeNDEF(_:)`` of `message`: writes only what is missing.
    func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError)
    /// The writes ``writeNDEF(_:)`` would send for `message` to the tag as it is now, in order,
    /// without writing (a dry run).
    func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan
    /// Replaces the message with an empty one.
    func erase() async throws(NFCReaderError)
    /// The writes ``erase()`` would send, without writing.
    func plannedErase() async throws(NFCReaderError) -> TagWritePlan
    /// Makes the tag NDEF formatted and empty: a capability container where it has none, else
    /// ``erase()``.
    func format() async throws(NFCReaderError)

    /// Reads the tag and makes the confirmation a lock needs, without writing: a person confirms
    /// its ``NFCLockConfirmation/code`` (or ``NFCLockConfirmation/confirmed(byCode:)`` checks one
    /// they typed), then ``writeLock(_:)`` locks.
    func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation
    /// Makes the tag read-only for good as `confirmation` describes, after checking against a
    /// fresh read that it still describes this tag, its content and its lock state
    /// (``NFCReaderError/Code/confirmationMismatch`` before any write otherwise). CoreNFC's
    /// `writeLock` asks for no confirmation; locking is irreversible, so here it must be shown.
    func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError)
}
