/// A contactless reader as the session layer sees it: the contract the PC/SC, libnfc and
/// simulator backends implement.
///
/// The session polls, checks that exactly one target is in the field, selects it, and then
/// exchanges raw Type 2 frames (``transceive(_:)``) or ISO 7816-4 APDUs (``sendAPDU(_:)``).
/// Implementations run blocking work (C library calls, serial I/O) on their own thread or
/// serial executor, never on the cooperative thread pool, and report failures as
/// ``NFCReaderError`` with the codes documented on each method.
public protocol NFCReaderDevice: AnyObject, Sendable {
    /// A name for people: the PC/SC reader name, the libnfc connstring, `sim:ntag215`.
    var name: String { get }

    /// What the reader can do.
    var capabilities: NFCReaderCapabilities { get }

    /// Every ISO/IEC 14443 Type A target in the field, in the order the reader found them;
    /// empty when there is none. Targets stay unselected. A reader that cannot tell how many
    /// tags are present (``NFCReaderCapabilities/detectsMultipleTargets`` false) lists the one
    /// it sees.
    ///
    /// Throws ``NFCReaderError/Code/readerUnavailable`` when the reader is gone.
    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo]

    /// Activates `target` (ISO/IEC 14443-3 SELECT; RATS as well for ISO-DEP targets), after
    /// which ``transceive(_:)`` and ``sendAPDU(_:)`` talk to it. Selecting again resets the
    /// tag's session state (authentication, a pending COMPATIBILITY_WRITE).
    ///
    /// Throws ``NFCReaderError/Code/tagConnectionLost`` when the target left the field.
    func select(_ target: NFCTargetInfo) async throws(NFCReaderError)

    /// Sends one Type 2 command frame without CRC (the reader appends CRC_A and checks and
    /// strips the answer's) and returns the answer.
    ///
    /// Throws ``NFCReaderError/Code/tagConnectionLost`` when the tag does not answer (it left
    /// the field, or a NAK sent it back to IDLE), ``NFCReaderError/Code/tagResponseError`` for
    /// a garbled answer (CRC or parity error), ``NFCReaderError/Code/unsupportedFeature`` for a
    /// command this reader cannot pass through.
    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse

    /// Sends one MIFARE Classic command (``NFCWireFormat/MifareClassicCommand``: AUTH_A or
    /// AUTH_B with the key and the UID's last four bytes, READ, WRITE) to the selected Classic
    /// card and returns its answer: ``NFCRawResponse/ack`` for an authentication or a WRITE
    /// carried out, the 16 bytes of a READ, a NAK for a command the card refused (after which
    /// it waits to be selected again). The reader runs Crypto-1: a PN532's InDataExchange
    /// (UM0701 7.3.8), a PC/SC reader's LOAD KEYS and GENERAL AUTHENTICATE (PC/SC Part 3
    /// 3.2.2.1.4, 3.2.2.1.6) and READ/UPDATE BINARY. Implementations never log the key.
    ///
    /// Throws ``NFCReaderError/Code/authenticationFailed`` when the card does not accept the
    /// key (it then waits in IDLE or HALT: select it again before the next command),
    /// ``NFCReaderError/Code/tagConnectionLost`` when the card does not answer otherwise,
    /// ``NFCReaderError/Code/unsupportedFeature`` for a command or card this reader cannot
    /// carry (the default implementation, for readers without MIFARE Classic).
    func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse
    /// Tries the "Gen1a" backdoor of magic MIFARE Classic clones on the selected card: HLTA,
    /// the 7-bit short frame 40h and, when the card acknowledges it (a 4-bit ACK, Ah), the
    /// 8-bit 43h, all without CRC, as libnfc's `nfc-mfsetuid` and proxmark3 send them. True
    /// when the card acknowledged both: its block 0 (UID and manufacturer data) can be written
    /// without a key. A genuine card answers neither (ISO/IEC 14443-3 6.3.1 defines only REQA
    /// and WUPA as short frames). Nothing is written. The card is halted afterwards: select it
    /// again before the next command.
    ///
    /// Throws ``NFCReaderError/Code/unsupportedFeature`` for readers that cannot send a frame
    /// of 7 bits (the default implementation; PC/SC readers' storage commands cannot).
    func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool
    /// Sends one command APDU to the selected ISO-DEP target and returns the response APDU
    /// (data followed by SW1 SW2, ISO/IEC 7816-4 5.1).
    ///
    /// Throws ``NFCReaderError/Code/tagConnectionLost`` when the target does not answer or the
    /// answer is shorter than the two status bytes.
    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8]

    /// Releases the selected target (HLTA or DESELECT) and turns the field off briefly where
    /// the reader can, so tags return to IDLE. Never fails: a reader that is gone is released.
    func releaseTargets() async

    /// Closes the reader. After this every method throws ``NFCReaderError/Code/readerUnavailable``.
    func close() async
}

extension NFCReaderDevice {
    /// Readers without MIFARE Classic support: ``NFCReaderError/Code/unsupportedFeature``.
    public func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        throw NFCReaderError(.unsupportedFeature, "the reader \(name) cannot authenticate MIFARE Classic cards")
    }

    /// Readers that cannot send 7-bit frames: ``NFCReaderError/Code/unsupportedFeature``.
    public func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool {
        throw NFCReaderError(
            .unsupportedFeature, "the reader \(name) cannot send the 7-bit frames of the Gen1a backdoor")
    }
}
