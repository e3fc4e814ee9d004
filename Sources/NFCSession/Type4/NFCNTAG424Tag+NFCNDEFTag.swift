import NDEF
import TagMemory

/// The NDEF operations of an NTAG 424 DNA: those of its ISO-DEP tag (NFC Forum Type 4 Tag 3.0,
/// 5.5, through the ISO commands the chip supports, NT4H2421Gx 10.9), which select the NDEF
/// application by name and so end any secure messaging session of this object first (a
/// selection ends the authentication on the chip, 9.1.9).
///
/// A message file whose write access is a key refuses a plain UPDATE BINARY: write it with
/// ``NFCNTAG424Tag/writeNDEFFileWithKey0(_:mode:emptyAlready:)`` after authenticating.
extension NFCNTAG424Tag: NFCNDEFTag {
    /// The NTAG 424 DNA commands of `tag`: the tag itself when it is an ``NFCNTAG424Tag``, a new
    /// one over it when it is an ``NFCISO7816Tag`` (whether it is an NTAG 424 DNA, its first
    /// command tells: ``selectApplication()`` throws ``NFCReaderError/Code/tagNotSupported``),
    /// nil for a tag that does not speak ISO-DEP.
    public static func commands(of tag: any NFCNDEFTag) -> NFCNTAG424Tag? {
        if let ntag = tag as? NFCNTAG424Tag { return ntag }
        return (tag as? NFCISO7816Tag).map(NFCNTAG424Tag.init)
    }

    public nonisolated var targetInfo: NFCTargetInfo { tag.targetInfo }
    public nonisolated var isAvailable: Bool { tag.isAvailable }
    /// The UID and the chip: `04:A1:B2:C3:D4:E5:F6: NTAG 424 DNA (ISO-DEP)`.
    public nonisolated var description: String { "\(targetInfo.uidDescription): NTAG 424 DNA (ISO-DEP)" }
    /// `NTAG 424 DNA`.
    public nonisolated var chipName: String? { "NTAG 424 DNA" }
    public nonisolated var writeCommandName: String { tag.writeCommandName }
    public var commandsSent: Int { get async { await tag.commandsSent } }

    public func observeWriteProgress(_ observer: (@Sendable (NFCWriteProgress) -> Void)?) async {
        await tag.observeWriteProgress(observer)
    }

    public func queryNDEFStatus() async throws(NFCReaderError) -> (NFCNDEFStatus, Int) {
        endSession()
        return try await tag.queryNDEFStatus()
    }

    public func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus {
        endSession()
        return try await tag.ndefStatus()
    }

    public func ndefStatusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        try await ndefStatus()
    }

    public func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage {
        endSession()
        return try await tag.readNDEF()
    }

    /// ``readNDEF()``: what SDM mirrors (UID, counter, CMAC) shows as read.
    public func readNDEFAsWritten() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await readNDEF()
    }

    public func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
        endSession()
        return try await tag.readNDEFMessageBytes()
    }

    public func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        endSession()
        try await tag.writeNDEF(message)
    }

    public func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        endSession()
        try await tag.resumeWrite(message)
    }

    public func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan {
        endSession()
        return try await tag.plannedWrite(of: message)
    }

    public func erase() async throws(NFCReaderError) {
        endSession()
        try await tag.erase()
    }

    public func plannedErase() async throws(NFCReaderError) -> TagWritePlan {
        endSession()
        return try await tag.plannedErase()
    }

    public func format() async throws(NFCReaderError) {
        endSession()
        try await tag.format()
    }

    public func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation {
        endSession()
        return try await tag.prepareLock()
    }

    public func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        endSession()
        try await tag.writeLock(confirmation)
    }
}
