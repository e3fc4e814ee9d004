import NFCSession

/// The card a ``PCSCReaderDevice`` is connected to, and what its profile set up on it.
///
/// Not `Sendable` (it holds the ``PCSCCard``): it lives inside the device actor.
struct PCSCConnection {
    /// Where a transparent session stands (``PCSCReaderProfile/pcscTransparent``).
    enum TransparentSession {
        /// Not started (or ended by a reset).
        case closed
        /// Started: Type 2 frames go through Transparent Exchange.
        case open
        /// The reader refused to start one: READ and WRITE fall back to PC/SC part 3 storage
        /// commands, other commands are refused.
        case unavailable
    }

    /// The connection.
    let card: PCSCCard
    /// What polling found.
    var target: NFCTargetInfo
    /// pcscd's card event count when the connection was made: a different count means the tag
    /// left (and maybe came back) since.
    var eventCount: Int
    /// Whether nothing was sent to the tag since it was activated (connected or reset), so a
    /// selection needs no reset.
    var isFresh = true
    /// Who checks the tag's CRC (``PCSCReaderProfile/acr122u``); nil until the first frame.
    var crcMode: ACR122UDirectTransmit.CRCMode?
    /// CIU_RxMode as it was before ``crcMode`` became `.host`, restored on release.
    var savedRxMode: UInt8?
    /// The transparent session (``PCSCReaderProfile/pcscTransparent``).
    var transparentSession = TransparentSession.closed
}

@available(*, unavailable)
extension PCSCConnection: Sendable {}
