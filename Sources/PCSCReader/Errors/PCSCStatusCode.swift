import HexText
import NFCSession

/// A PC/SC result code (`LONG` in pcsc-lite, reduced to its 32 bits): a constant per code pcsc-lite
/// defines, with its macro name, what it means, and the reader error it becomes.
///
/// The values are those of pcsc-lite's `pcsclite.h` (PC/SC Workgroup specification part 5 and
/// Microsoft's `winerror.h` share them). pcsc-lite gives `SCARD_E_UNEXPECTED` and
/// `SCARD_E_UNSUPPORTED_FEATURE` the same value, 8010001Fh. A code pcsc-lite does not define is
/// kept as it is: ``name`` and ``meaning`` are then nil and ``description`` shows it in hex.
/// An open set, as a `RawRepresentable` struct: a `switch` over codes needs a `default`.
public struct PCSCStatusCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 32-bit result code, `0x8010001D`.
    public let rawValue: UInt32

    /// The code `rawValue`, known or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The macro name (`SCARD_E_NO_SERVICE`); nil for a code pcsc-lite does not define.
    public var name: String? { Self.entries[rawValue]?.name }

    /// What the code means, for people; nil for a code pcsc-lite does not define.
    public var meaning: String? { Self.entries[rawValue]?.meaning }

    /// The session error the code is reported as (reader-unavailable for a code pcsc-lite does
    /// not define).
    public var readerErrorCode: NFCReaderError.Code { Self.entries[rawValue]?.readerErrorCode ?? .readerUnavailable }

    /// Whether pcsc-lite defines the code.
    public var isKnown: Bool { Self.entries[rawValue] != nil }

    /// The code as eight hex digits with `0x`, `0x8010001D`.
    public var hexValue: String {
        "0x" + Hex.number(rawValue, minimumDigits: 8)
    }

    /// The name followed by the hex value, `SCARD_E_NO_SERVICE 0x8010001D`, or the hex alone.
    public var description: String { name.map { "\($0) \(hexValue)" } ?? hexValue }

    /// Every code pcsc-lite 1.9 defines, in numeric order.
    public static var allKnown: [PCSCStatusCode] { entries.keys.sorted().map(PCSCStatusCode.init(rawValue:)) }

    /// Codes after which the card handle is useless: the tag left, was reset or the reader went.
    static let cardGone: Set<PCSCStatusCode> = [
        .noSmartcard, .notTransacted, .removedCard, .resetCard, .unresponsiveCard, .unpoweredCard, .readerUnavailable,
        .unknownReader,
    ]

    /// Codes after which the context is useless: pcscd stopped or restarted.
    static let serviceGone: Set<PCSCStatusCode> = [.noService, .serviceStopped, .commError, .invalidHandle]

    /// `SCARD_F_INTERNAL_ERROR` (80100001h): an internal consistency check of pcscd failed.
    public static let internalError = PCSCStatusCode(rawValue: 0x8010_0001)

    /// `SCARD_E_CANCELLED` (80100002h): the wait was cancelled (SCardCancel).
    public static let cancelled = PCSCStatusCode(rawValue: 0x8010_0002)

    /// `SCARD_E_INVALID_HANDLE` (80100003h): the context or card handle is no longer valid.
    public static let invalidHandle = PCSCStatusCode(rawValue: 0x8010_0003)

    /// `SCARD_E_INVALID_PARAMETER` (80100004h): a parameter could not be interpreted.
    public static let invalidParameter = PCSCStatusCode(rawValue: 0x8010_0004)

    /// `SCARD_E_INVALID_TARGET` (80100005h): registry startup information is missing.
    public static let invalidTarget = PCSCStatusCode(rawValue: 0x8010_0005)

    /// `SCARD_E_NO_MEMORY` (80100006h): not enough memory.
    public static let noMemory = PCSCStatusCode(rawValue: 0x8010_0006)

    /// `SCARD_F_WAITED_TOO_LONG` (80100007h): an internal timer of pcscd expired.
    public static let waitedTooLong = PCSCStatusCode(rawValue: 0x8010_0007)

    /// `SCARD_E_INSUFFICIENT_BUFFER` (80100008h): the answer is larger than the buffer.
    public static let insufficientBuffer = PCSCStatusCode(rawValue: 0x8010_0008)

    /// `SCARD_E_UNKNOWN_READER` (80100009h): no reader has this name (was it unplugged?).
    public static let unknownReader = PCSCStatusCode(rawValue: 0x8010_0009)

    /// `SCARD_E_TIMEOUT` (8010000Ah): the time allowed has passed.
    public static let timeout = PCSCStatusCode(rawValue: 0x8010_000A)

    /// `SCARD_E_SHARING_VIOLATION` (8010000Bh): the reader is busy: another program holds it exclusively (close it, or wait for it to finish).
    public static let sharingViolation = PCSCStatusCode(rawValue: 0x8010_000B)

    /// `SCARD_E_NO_SMARTCARD` (8010000Ch): no tag is on the reader.
    public static let noSmartcard = PCSCStatusCode(rawValue: 0x8010_000C)

    /// `SCARD_E_UNKNOWN_CARD` (8010000Dh): the card is not recognised.
    public static let unknownCard = PCSCStatusCode(rawValue: 0x8010_000D)

    /// `SCARD_E_CANT_DISPOSE` (8010000Eh): the card could not be disposed of as asked.
    public static let cantDispose = PCSCStatusCode(rawValue: 0x8010_000E)

    /// `SCARD_E_PROTO_MISMATCH` (8010000Fh): protocol mismatch: the card speaks neither T=0 nor T=1 as requested.
    public static let protoMismatch = PCSCStatusCode(rawValue: 0x8010_000F)

    /// `SCARD_E_NOT_READY` (80100010h): the reader or card is not ready.
    public static let notReady = PCSCStatusCode(rawValue: 0x8010_0010)

    /// `SCARD_E_INVALID_VALUE` (80100011h): a parameter value could not be interpreted.
    public static let invalidValue = PCSCStatusCode(rawValue: 0x8010_0011)

    /// `SCARD_E_SYSTEM_CANCELLED` (80100012h): the system cancelled the action.
    public static let systemCancelled = PCSCStatusCode(rawValue: 0x8010_0012)

    /// `SCARD_F_COMM_ERROR` (80100013h): communication with pcscd broke.
    public static let commError = PCSCStatusCode(rawValue: 0x8010_0013)

    /// `SCARD_F_UNKNOWN_ERROR` (80100014h): pcscd reports an internal error of unknown source.
    public static let unknownError = PCSCStatusCode(rawValue: 0x8010_0014)

    /// `SCARD_E_INVALID_ATR` (80100015h): the card's ATR is not valid.
    public static let invalidAtr = PCSCStatusCode(rawValue: 0x8010_0015)

    /// `SCARD_E_NOT_TRANSACTED` (80100016h): the command did not reach the card: the tag left the reader.
    public static let notTransacted = PCSCStatusCode(rawValue: 0x8010_0016)

    /// `SCARD_E_READER_UNAVAILABLE` (80100017h): the reader is not available (unplugged?).
    public static let readerUnavailable = PCSCStatusCode(rawValue: 0x8010_0017)

    /// `SCARD_P_SHUTDOWN` (80100018h): pcscd is shutting down.
    public static let shutdown = PCSCStatusCode(rawValue: 0x8010_0018)

    /// `SCARD_E_PCI_TOO_SMALL` (80100019h): the protocol control information buffer is too small.
    public static let pciTooSmall = PCSCStatusCode(rawValue: 0x8010_0019)

    /// `SCARD_E_READER_UNSUPPORTED` (8010001Ah): the reader driver does not meet the requirements.
    public static let readerUnsupported = PCSCStatusCode(rawValue: 0x8010_001A)

    /// `SCARD_E_DUPLICATE_READER` (8010001Bh): the reader driver gave a name already in use.
    public static let duplicateReader = PCSCStatusCode(rawValue: 0x8010_001B)

    /// `SCARD_E_CARD_UNSUPPORTED` (8010001Ch): the card does not meet the minimal requirements.
    public static let cardUnsupported = PCSCStatusCode(rawValue: 0x8010_001C)

    /// `SCARD_E_NO_SERVICE` (8010001Dh): pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`).
    public static let noService = PCSCStatusCode(rawValue: 0x8010_001D)

    /// `SCARD_E_SERVICE_STOPPED` (8010001Eh): pcscd has stopped: start it again with `sudo systemctl start pcscd` (or `pcscd -f`).
    public static let serviceStopped = PCSCStatusCode(rawValue: 0x8010_001E)

    /// `SCARD_E_UNSUPPORTED_FEATURE` (8010001Fh): the reader or card does not support this (also SCARD_E_UNEXPECTED).
    public static let unsupportedFeature = PCSCStatusCode(rawValue: 0x8010_001F)

    /// `SCARD_E_ICC_INSTALLATION` (80100020h): no primary provider for the card.
    public static let iccInstallation = PCSCStatusCode(rawValue: 0x8010_0020)

    /// `SCARD_E_ICC_CREATEORDER` (80100021h): the requested order of object creation is not supported.
    public static let iccCreateorder = PCSCStatusCode(rawValue: 0x8010_0021)

    /// `SCARD_E_DIR_NOT_FOUND` (80100023h): the directory does not exist on the card.
    public static let dirNotFound = PCSCStatusCode(rawValue: 0x8010_0023)

    /// `SCARD_E_FILE_NOT_FOUND` (80100024h): the file does not exist on the card.
    public static let fileNotFound = PCSCStatusCode(rawValue: 0x8010_0024)

    /// `SCARD_E_NO_DIR` (80100025h): the path is not a directory.
    public static let noDir = PCSCStatusCode(rawValue: 0x8010_0025)

    /// `SCARD_E_NO_FILE` (80100026h): the path is not a file.
    public static let noFile = PCSCStatusCode(rawValue: 0x8010_0026)

    /// `SCARD_E_NO_ACCESS` (80100027h): access to the file is denied.
    public static let noAccess = PCSCStatusCode(rawValue: 0x8010_0027)

    /// `SCARD_E_WRITE_TOO_MANY` (80100028h): the card has not enough memory for the data.
    public static let writeTooMany = PCSCStatusCode(rawValue: 0x8010_0028)

    /// `SCARD_E_BAD_SEEK` (80100029h): the file pointer could not be set.
    public static let badSeek = PCSCStatusCode(rawValue: 0x8010_0029)

    /// `SCARD_E_INVALID_CHV` (8010002Ah): the PIN is incorrect.
    public static let invalidChv = PCSCStatusCode(rawValue: 0x8010_002A)

    /// `SCARD_E_UNKNOWN_RES_MNG` (8010002Bh): an unrecognised error came from a lower layer.
    public static let unknownResMng = PCSCStatusCode(rawValue: 0x8010_002B)

    /// `SCARD_E_NO_SUCH_CERTIFICATE` (8010002Ch): the certificate does not exist.
    public static let noSuchCertificate = PCSCStatusCode(rawValue: 0x8010_002C)

    /// `SCARD_E_CERTIFICATE_UNAVAILABLE` (8010002Dh): the certificate could not be obtained.
    public static let certificateUnavailable = PCSCStatusCode(rawValue: 0x8010_002D)

    /// `SCARD_E_NO_READERS_AVAILABLE` (8010002Eh): no reader is connected (pcscd sees none).
    public static let noReadersAvailable = PCSCStatusCode(rawValue: 0x8010_002E)

    /// `SCARD_E_COMM_DATA_LOST` (8010002Fh): communication with the card failed: the tag may have left.
    public static let commDataLost = PCSCStatusCode(rawValue: 0x8010_002F)

    /// `SCARD_E_NO_KEY_CONTAINER` (80100030h): the key container does not exist.
    public static let noKeyContainer = PCSCStatusCode(rawValue: 0x8010_0030)

    /// `SCARD_E_SERVER_TOO_BUSY` (80100031h): pcscd is too busy.
    public static let serverTooBusy = PCSCStatusCode(rawValue: 0x8010_0031)

    /// `SCARD_W_UNSUPPORTED_CARD` (80100065h): the reader cannot talk to the card (ATR conflict).
    public static let unsupportedCard = PCSCStatusCode(rawValue: 0x8010_0065)

    /// `SCARD_W_UNRESPONSIVE_CARD` (80100066h): the card does not answer the reset.
    public static let unresponsiveCard = PCSCStatusCode(rawValue: 0x8010_0066)

    /// `SCARD_W_UNPOWERED_CARD` (80100067h): the card is not powered.
    public static let unpoweredCard = PCSCStatusCode(rawValue: 0x8010_0067)

    /// `SCARD_W_RESET_CARD` (80100068h): the card was reset (by another program?): its session state is lost.
    public static let resetCard = PCSCStatusCode(rawValue: 0x8010_0068)

    /// `SCARD_W_REMOVED_CARD` (80100069h): the tag was removed from the reader.
    public static let removedCard = PCSCStatusCode(rawValue: 0x8010_0069)

    /// `SCARD_W_SECURITY_VIOLATION` (8010006Ah): access was denied (security violation).
    public static let securityViolation = PCSCStatusCode(rawValue: 0x8010_006A)

    /// `SCARD_W_WRONG_CHV` (8010006Bh): the wrong PIN was presented.
    public static let wrongChv = PCSCStatusCode(rawValue: 0x8010_006B)

    /// `SCARD_W_CHV_BLOCKED` (8010006Ch): the PIN is blocked (too many attempts).
    public static let chvBlocked = PCSCStatusCode(rawValue: 0x8010_006C)

    /// `SCARD_W_EOF` (8010006Dh): the end of the card file was reached.
    public static let eof = PCSCStatusCode(rawValue: 0x8010_006D)

    /// `SCARD_W_CANCELLED_BY_USER` (8010006Eh): the user cancelled.
    public static let cancelledByUser = PCSCStatusCode(rawValue: 0x8010_006E)

    /// `SCARD_W_CARD_NOT_AUTHENTICATED` (8010006Fh): no PIN was presented.
    public static let cardNotAuthenticated = PCSCStatusCode(rawValue: 0x8010_006F)

    /// Every error and warning code pcsc-lite 1.9 defines.
    private static let entries: [UInt32: CLibraryStatus] = [
        0x8010_0001: CLibraryStatus(
            "SCARD_F_INTERNAL_ERROR", .readerUnavailable, "an internal consistency check of pcscd failed"),
        0x8010_0002: CLibraryStatus("SCARD_E_CANCELLED", .cancelled, "the wait was cancelled (SCardCancel)"),
        0x8010_0003: CLibraryStatus(
            "SCARD_E_INVALID_HANDLE", .readerUnavailable, "the context or card handle is no longer valid"),
        0x8010_0004: CLibraryStatus(
            "SCARD_E_INVALID_PARAMETER", .invalidParameter, "a parameter could not be interpreted"),
        0x8010_0005: CLibraryStatus(
            "SCARD_E_INVALID_TARGET", .readerUnavailable, "registry startup information is missing"),
        0x8010_0006: CLibraryStatus("SCARD_E_NO_MEMORY", .readerUnavailable, "not enough memory"),
        0x8010_0007: CLibraryStatus("SCARD_F_WAITED_TOO_LONG", .timeout, "an internal timer of pcscd expired"),
        0x8010_0008: CLibraryStatus(
            "SCARD_E_INSUFFICIENT_BUFFER", .tagResponseError, "the answer is larger than the buffer"),
        0x8010_0009: CLibraryStatus(
            "SCARD_E_UNKNOWN_READER", .readerUnavailable, "no reader has this name (was it unplugged?)"),
        0x8010_000A: CLibraryStatus("SCARD_E_TIMEOUT", .timeout, "the time allowed has passed"),
        0x8010_000B: CLibraryStatus(
            "SCARD_E_SHARING_VIOLATION", .readerUnavailable,
            "the reader is busy: another program holds it exclusively (close it, or wait for it to finish)"),
        0x8010_000C: CLibraryStatus("SCARD_E_NO_SMARTCARD", .tagConnectionLost, "no tag is on the reader"),
        0x8010_000D: CLibraryStatus("SCARD_E_UNKNOWN_CARD", .tagNotSupported, "the card is not recognised"),
        0x8010_000E: CLibraryStatus(
            "SCARD_E_CANT_DISPOSE", .readerUnavailable, "the card could not be disposed of as asked"),
        0x8010_000F: CLibraryStatus(
            "SCARD_E_PROTO_MISMATCH", .tagNotSupported,
            "protocol mismatch: the card speaks neither T=0 nor T=1 as requested"),
        0x8010_0010: CLibraryStatus("SCARD_E_NOT_READY", .readerUnavailable, "the reader or card is not ready"),
        0x8010_0011: CLibraryStatus(
            "SCARD_E_INVALID_VALUE", .invalidParameter, "a parameter value could not be interpreted"),
        0x8010_0012: CLibraryStatus("SCARD_E_SYSTEM_CANCELLED", .cancelled, "the system cancelled the action"),
        0x8010_0013: CLibraryStatus("SCARD_F_COMM_ERROR", .readerUnavailable, "communication with pcscd broke"),
        0x8010_0014: CLibraryStatus(
            "SCARD_F_UNKNOWN_ERROR", .readerUnavailable, "pcscd reports an internal error of unknown source"),
        0x8010_0015: CLibraryStatus("SCARD_E_INVALID_ATR", .tagNotSupported, "the card's ATR is not valid"),
        0x8010_0016: CLibraryStatus(
            "SCARD_E_NOT_TRANSACTED", .tagConnectionLost, "the command did not reach the card: the tag left the reader"),
        0x8010_0017: CLibraryStatus(
            "SCARD_E_READER_UNAVAILABLE", .readerUnavailable, "the reader is not available (unplugged?)"),
        0x8010_0018: CLibraryStatus("SCARD_P_SHUTDOWN", .readerUnavailable, "pcscd is shutting down"),
        0x8010_0019: CLibraryStatus(
            "SCARD_E_PCI_TOO_SMALL", .tagResponseError, "the protocol control information buffer is too small"),
        0x8010_001A: CLibraryStatus(
            "SCARD_E_READER_UNSUPPORTED", .readerUnavailable, "the reader driver does not meet the requirements"),
        0x8010_001B: CLibraryStatus(
            "SCARD_E_DUPLICATE_READER", .readerUnavailable, "the reader driver gave a name already in use"),
        0x8010_001C: CLibraryStatus(
            "SCARD_E_CARD_UNSUPPORTED", .tagNotSupported, "the card does not meet the minimal requirements"),
        0x8010_001D: CLibraryStatus(
            "SCARD_E_NO_SERVICE", .readerUnavailable,
            "pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`)"),
        0x8010_001E: CLibraryStatus(
            "SCARD_E_SERVICE_STOPPED", .readerUnavailable,
            "pcscd has stopped: start it again with `sudo systemctl start pcscd` (or `pcscd -f`)"),
        0x8010_001F: CLibraryStatus(
            "SCARD_E_UNSUPPORTED_FEATURE", .unsupportedFeature,
            "the reader or card does not support this (also SCARD_E_UNEXPECTED)"),
        0x8010_0020: CLibraryStatus("SCARD_E_ICC_INSTALLATION", .tagNotSupported, "no primary provider for the card"),
        0x8010_0021: CLibraryStatus(
            "SCARD_E_ICC_CREATEORDER", .tagNotSupported, "the requested order of object creation is not supported"),
        0x8010_0023: CLibraryStatus(
            "SCARD_E_DIR_NOT_FOUND", .tagResponseError, "the directory does not exist on the card"),
        0x8010_0024: CLibraryStatus("SCARD_E_FILE_NOT_FOUND", .tagResponseError, "the file does not exist on the card"),
        0x8010_0025: CLibraryStatus("SCARD_E_NO_DIR", .tagResponseError, "the path is not a directory"),
        0x8010_0026: CLibraryStatus("SCARD_E_NO_FILE", .tagResponseError, "the path is not a file"),
        0x8010_0027: CLibraryStatus("SCARD_E_NO_ACCESS", .tagResponseError, "access to the file is denied"),
        0x8010_0028: CLibraryStatus(
            "SCARD_E_WRITE_TOO_MANY", .tagSizeTooSmall, "the card has not enough memory for the data"),
        0x8010_0029: CLibraryStatus("SCARD_E_BAD_SEEK", .tagResponseError, "the file pointer could not be set"),
        0x8010_002A: CLibraryStatus("SCARD_E_INVALID_CHV", .authenticationFailed, "the PIN is incorrect"),
        0x8010_002B: CLibraryStatus(
            "SCARD_E_UNKNOWN_RES_MNG", .readerUnavailable, "an unrecognised error came from a lower layer"),
        0x8010_002C: CLibraryStatus("SCARD_E_NO_SUCH_CERTIFICATE", .tagResponseError, "the certificate does not exist"),
        0x8010_002D: CLibraryStatus(
            "SCARD_E_CERTIFICATE_UNAVAILABLE", .tagResponseError, "the certificate could not be obtained"),
        0x8010_002E: CLibraryStatus(
            "SCARD_E_NO_READERS_AVAILABLE", .readerUnavailable, "no reader is connected (pcscd sees none)"),
        0x8010_002F: CLibraryStatus(
            "SCARD_E_COMM_DATA_LOST", .tagConnectionLost, "communication with the card failed: the tag may have left"),
        0x8010_0030: CLibraryStatus("SCARD_E_NO_KEY_CONTAINER", .tagResponseError, "the key container does not exist"),
        0x8010_0031: CLibraryStatus("SCARD_E_SERVER_TOO_BUSY", .readerUnavailable, "pcscd is too busy"),
        0x8010_0065: CLibraryStatus(
            "SCARD_W_UNSUPPORTED_CARD", .tagNotSupported, "the reader cannot talk to the card (ATR conflict)"),
        0x8010_0066: CLibraryStatus(
            "SCARD_W_UNRESPONSIVE_CARD", .tagConnectionLost, "the card does not answer the reset"),
        0x8010_0067: CLibraryStatus("SCARD_W_UNPOWERED_CARD", .tagConnectionLost, "the card is not powered"),
        0x8010_0068: CLibraryStatus(
            "SCARD_W_RESET_CARD", .tagConnectionLost,
            "the card was reset (by another program?): its session state is lost"),
        0x8010_0069: CLibraryStatus("SCARD_W_REMOVED_CARD", .tagConnectionLost, "the tag was removed from the reader"),
        0x8010_006A: CLibraryStatus(
            "SCARD_W_SECURITY_VIOLATION", .authenticationRequired, "access was denied (security violation)"),
        0x8010_006B: CLibraryStatus("SCARD_W_WRONG_CHV", .authenticationFailed, "the wrong PIN was presented"),
        0x8010_006C: CLibraryStatus("SCARD_W_CHV_BLOCKED", .passwordDisabled, "the PIN is blocked (too many attempts)"),
        0x8010_006D: CLibraryStatus("SCARD_W_EOF", .tagResponseError, "the end of the card file was reached"),
        0x8010_006E: CLibraryStatus("SCARD_W_CANCELLED_BY_USER", .cancelled, "the user cancelled"),
        0x8010_006F: CLibraryStatus("SCARD_W_CARD_NOT_AUTHENTICATED", .authenticationRequired, "no PIN was presented"),
    ]
}
