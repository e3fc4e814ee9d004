import NDEF
import NFCSession
import TagMemory

/// The NDEF operations the tag commands run, on either kind of tag: an NFC Forum Type 2 tag
/// (``NFCSession/NFCMiFareTag``, Type 2 Tag 1.1, 6.4) or a Type 4 tag
/// (``NFCSession/NFCISO7816Tag``, Type 4 Tag 3.0, 5.5). Each forwards to the session's
/// operation of the same name; the commands are written once against this.
extension NFCTag {
    /// The chip's name, when known: the identified Type 2 chip, or `NFC Forum Type 4 Tag`.
    var chipName: String? {
        switch self {
        case .miFare(let tag): tag.chip?.name
        case .iso7816: Self.type4Name
        }
    }

    /// What `chip` says of a Type 4 tag: the NDEF mapping, not the product, which the
    /// NFC Forum commands do not tell.
    static let type4Name = "NFC Forum Type 4 Tag"

    /// Whether the tag is a Type 4 tag.
    var isType4: Bool {
        if case .iso7816 = self { return true }
        return false
    }

    /// What one write of a plan is on this tag: `page write` (WRITE, T2T 1.1 5.2) or
    /// `UPDATE BINARY` (T4T 3.0, 5.4.4).
    var writeUnit: String { isType4 ? "UPDATE BINARY" : "page write" }

    func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage {
        switch self {
        case .miFare(let tag): try await tag.readNDEF()
        case .iso7816(let tag): try await tag.readNDEF()
        }
    }

    /// The message bytes as stored on the tag (empty for an empty message); nil when a Type 2 tag
    /// holds no NDEF Message TLV.
    func storedMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
        switch self {
        case .miFare(let tag): try await tag.readMemory().ndefMessageBytes
        case .iso7816(let tag): try await tag.readNDEFMessageBytes()
        }
    }

    func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus {
        switch self {
        case .miFare(let tag): try await tag.ndefStatus()
        case .iso7816(let tag): try await tag.ndefStatus()
        }
    }

    /// The NDEF status after a write, erase or format (no command on a Type 2 tag that just
    /// wrote).
    func statusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        switch self {
        case .miFare(let tag): try await tag.statusAfterChange()
        case .iso7816(let tag): try await tag.ndefStatus()
        }
    }

    func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag): try await tag.writeNDEF(message)
        case .iso7816(let tag): try await tag.writeNDEF(message)
        }
    }

    /// A write with the NTAG213/215/216 mirror (``NFCSession/NFCMiFareTag/writeNDEF(_:mirror:)``);
    /// without a mirror request, ``writeNDEF(_:)``. `resume` completes an interrupted one.
    func writeNDEF(_ message: NFCNDEFMessage, mirror: Type2MirrorRequest?, resume: Bool) async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag):
            if resume {
                try await tag.resumeWrite(message, mirror: mirror)
            } else {
                try await tag.writeNDEF(message, mirror: mirror)
            }
        case .iso7816(let tag):
            guard mirror == nil else { throw Self.noMirror }
            if resume { try await tag.resumeWrite(message) } else { try await tag.writeNDEF(message) }
        }
    }

    /// ``NFCSession/NFCMiFareTag/plannedWrite(of:mirror:)`` on a Type 2 tag.
    func plannedWrite(of message: NFCNDEFMessage, mirror: Type2MirrorRequest?) async throws(NFCReaderError)
        -> TagWritePlan
    {
        switch self {
        case .miFare(let tag): return try await tag.plannedWrite(of: message, mirror: mirror)
        case .iso7816(let tag):
            guard mirror == nil else { throw Self.noMirror }
            return try await tag.plannedWrite(of: message)
        }
    }

    /// The mirror set up by the last write, on a Type 2 tag.
    var lastWrittenMirror: Type2Configuration.Mirror? {
        get async {
            switch self {
            case .miFare(let tag): await tag.lastWrittenMirror
            case .iso7816: nil
            }
        }
    }

    private static let noMirror = NFCReaderError(
        .unsupportedFeature, "a Type 4 tag has no UID or NFC counter mirror (NTAG213/215/216 have)")

    func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag): try await tag.resumeWrite(message)
        case .iso7816(let tag): try await tag.resumeWrite(message)
        }
    }

    func erase() async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag): try await tag.erase()
        case .iso7816(let tag): try await tag.erase()
        }
    }

    func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan {
        switch self {
        case .miFare(let tag): try await tag.plannedWrite(of: message)
        case .iso7816(let tag): try await tag.plannedWrite(of: message)
        }
    }

    func plannedErase() async throws(NFCReaderError) -> TagWritePlan {
        switch self {
        case .miFare(let tag): try await tag.plannedErase()
        case .iso7816(let tag): try await tag.plannedErase()
        }
    }

    func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation {
        switch self {
        case .miFare(let tag): try await tag.prepareLock()
        case .iso7816(let tag): try await tag.prepareLock()
        }
    }

    /// Locks when `code` is the tag's lock code now (the session checks it against a fresh read).
    func writeLock(code: String, confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag): try await tag.writeLock(code: code, options: confirmation.options)
        case .iso7816(let tag): try await tag.writeLock(code: code)
        }
    }

    /// Locks as `confirmation` describes, after the session checks it still describes the tag.
    func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        switch self {
        case .miFare(let tag): try await tag.writeLock(confirmation)
        case .iso7816(let tag): try await tag.writeLock(confirmation)
        }
    }
}

extension NFCMiFareTag {
    /// The NDEF status to report after a write, erase or format: the one the operation left
    /// (no command), or a fresh read when it left none.
    func statusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        if let status = lastWrittenStatus { return status }
        return try await ndefStatus()
    }
}
