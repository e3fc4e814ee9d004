import HexText
import NFCWireFormat

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

/// What a reader can do, as it reports it: the session plans its commands from this.
public struct NFCReaderCapabilities: Sendable, Hashable {
    /// The largest response frame the reader passes on, in bytes without CRC (PN532: 262 minus
    /// framing; a PC/SC reader: its maximum APDU response). FAST_READ ranges are sized to it.
    public var maximumFrameSize: Int
    /// Whether raw Type 2 commands beyond READ and WRITE pass through (GET_VERSION, PWD_AUTH,
    /// READ_SIG, READ_CNT): needed for identification by version and for passwords.
    public var supportsRawCommands: Bool
    /// Whether FAST_READ (3Ah) passes through.
    public var supportsFastRead: Bool
    /// Whether ISO-DEP (ISO/IEC 14443-4) APDUs can be exchanged, for Type 4 tags.
    public var supportsISODEP: Bool
    /// Whether the reader can report every target in the field (so two tags are detected).
    public var detectsMultipleTargets: Bool
    /// The largest data field of an APDU exchanged with an ISO-DEP tag, in either direction (Nc
    /// and Ne, ISO/IEC 7816-4:2020 5.1): 256 or less for a reader limited to short APDUs; above
    /// 256 the reader passes extended-length APDUs, up to 65,536 data bytes, and Type 4 reads and
    /// writes use them when the tag's MLe and MLc allow (NFC Forum Type 4 Tag 3.0, 5.1.2).
    public var maximumAPDUDataSize: Int

    /// Whether extended-length APDUs pass through (``maximumAPDUDataSize`` above 256).
    public var supportsExtendedLengthAPDUs: Bool { maximumAPDUDataSize > 256 }

    /// Creates a capability set. Without `maximumAPDUDataSize` the reader exchanges short APDUs
    /// that fit its frame: the frame less SW1 SW2, at most 256 bytes.
    public init(
        maximumFrameSize: Int,
        supportsRawCommands: Bool,
        supportsFastRead: Bool,
        supportsISODEP: Bool,
        detectsMultipleTargets: Bool,
        maximumAPDUDataSize: Int? = nil
    ) {
        self.maximumFrameSize = maximumFrameSize
        self.supportsRawCommands = supportsRawCommands
        self.supportsFastRead = supportsFastRead
        self.supportsISODEP = supportsISODEP
        self.detectsMultipleTargets = detectsMultipleTargets
        self.maximumAPDUDataSize = max(1, min(1 << 16, maximumAPDUDataSize ?? min(256, maximumFrameSize - 2)))
    }
}

/// The answer of a Type 2 tag (NTAG21x, MIFARE Ultralight) to one raw command frame.
///
/// Frames are exchanged without CRC: the reader appends CRC_A to each command and checks and
/// strips it from each answer (ISO/IEC 14443-3 6.2.4). A 4-bit answer is an ACK or a NAK
/// (NTAG213/215/216 datasheet 9.3, table 23); a silent tag is reported by the reader as
/// ``NFCReaderError/Code/tagConnectionLost``, never as a response.
public enum NFCRawResponse: Sendable, Hashable, CustomStringConvertible {
    /// Data bytes (for example the 16 bytes of a READ, the 2-byte PACK of a PWD_AUTH).
    case data([UInt8])
    /// The 4-bit ACK (Ah): a WRITE or COMPATIBILITY_WRITE step was accepted.
    case ack
    /// A 4-bit NAK: 0h invalid argument, 1h parity or CRC error, 4h authentication counter
    /// overflow, 5h EEPROM write error (NTAG213/215/216 table 23).
    case nak(UInt8)

    public var description: String {
        switch self {
        case .data(let bytes): bytes.map { byte in Hex.byte(byte) }.joined(separator: " ")
        case .ack: "ACK"
        case .nak(let code): "NAK \(Hex.number(code))h"
        }
    }
}

/// What a reader shows a person with its lights and buzzer (``NFCReaderSignalling``).
public enum NFCReaderSignal: String, Sendable, Hashable, CaseIterable, Codable {
    /// The tag was done: green light and a short beep.
    case success
    /// The tag failed: red light and a long beep.
    case failure
    /// Blink a few times, so a person can tell which reader this is.
    case identify
}

/// A reader with lights or a buzzer for the person at it: an optional capability next to
/// ``NFCReaderDevice``; find it with `reader as? any NFCReaderSignalling`.
///
/// Signals are feedback only: showing one never fails an operation, and a reader that cannot
/// show them (``supportsSignals`` false) ignores them.
public protocol NFCReaderSignalling: AnyObject, Sendable {
    /// Whether this reader has lights or a buzzer that ``signal(_:)`` drives (a PC/SC reader, for
    /// example, only with the ACR122U profile).
    var supportsSignals: Bool { get }

    /// Shows `signal`.
    ///
    /// - Returns: whether the reader showed it (false when it has no lights, refused the
    ///   command, or is gone).
    @discardableResult
    func signal(_ signal: NFCReaderSignal) async -> Bool
}

extension ACR122ULightCommand {
    /// The command that shows `signal`.
    public static func showing(_ signal: NFCReaderSignal) -> ACR122ULightCommand {
        switch signal {
        case .success: success
        case .failure: failure
        case .identify: identify
        }
    }

    /// The signal this command shows, when it is one of ``success``, ``failure`` and ``identify``.
    public var signal: NFCReaderSignal? {
        NFCReaderSignal.allCases.first { Self.showing($0) == self }
    }
}
