/// A tag handed out by ``NFCTagReaderSession/nextTag(timeout:)``, by the protocol it speaks, as
/// CoreNFC's `NFCTag`.
public enum NFCTag: Sendable {
    /// An NFC Forum Type 2 tag (ISO/IEC 14443-3 Type A, SAK 00h): NTAG21x, MIFARE Ultralight.
    case miFare(NFCMiFareTag)
    /// An ISO-DEP (ISO/IEC 14443-4) tag, which NFC Forum Type 4 tags are.
    case iso7816(NFCISO7816Tag)

    /// What polling found.
    public var targetInfo: NFCTargetInfo {
        switch self {
        case .miFare(let tag): tag.targetInfo
        case .iso7816(let tag): tag.targetInfo
        }
    }

    /// The UID.
    public var identifier: [UInt8] { targetInfo.uid }
}
