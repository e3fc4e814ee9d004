import NFCSession

/// One PC/SC result code: its macro name, what it means, and the reader error it becomes.
///
/// The values are those of pcsc-lite's `pcsclite.h` (PC/SC Workgroup specification part 5 and
/// Microsoft's `winerror.h` share them). pcsc-lite gives `SCARD_E_UNEXPECTED` and
/// `SCARD_E_UNSUPPORTED_FEATURE` the same value, 8010001Fh.
public struct PCSCStatusCode: Sendable, Hashable {
    /// The 32-bit result code.
    public let value: UInt32
    /// The macro name, `SCARD_E_NO_SERVICE`.
    public let name: String
    /// What the code means, for people.
    public let meaning: String
    /// The session error it is reported as.
    public let readerErrorCode: NFCReaderError.Code

    init(_ value: UInt32, _ name: String, _ readerErrorCode: NFCReaderError.Code, _ meaning: String) {
        self.value = value
        self.name = name
        self.meaning = meaning
        self.readerErrorCode = readerErrorCode
    }

    /// The entry for `value`; nil for a code not in ``all`` (kept as hex by ``PCSCError``).
    public static func named(_ value: UInt32) -> PCSCStatusCode? {
        all.first { $0.value == value }
    }

    /// Every error and warning code pcsc-lite 1.9 defines, in numeric order.
    public static let all: [PCSCStatusCode] = [
        .init(
            0x8010_0001, "SCARD_F_INTERNAL_ERROR", .readerUnavailable, "an internal consistency check of pcscd failed"),
        .init(0x8010_0002, "SCARD_E_CANCELLED", .cancelled, "the wait was cancelled (SCardCancel)"),
        .init(
            0x8010_0003, "SCARD_E_INVALID_HANDLE", .readerUnavailable, "the context or card handle is no longer valid"),
        .init(0x8010_0004, "SCARD_E_INVALID_PARAMETER", .invalidParameter, "a parameter could not be interpreted"),
        .init(0x8010_0005, "SCARD_E_INVALID_TARGET", .readerUnavailable, "registry startup information is missing"),
        .init(0x8010_0006, "SCARD_E_NO_MEMORY", .readerUnavailable, "not enough memory"),
        .init(0x8010_0007, "SCARD_F_WAITED_TOO_LONG", .timeout, "an internal timer of pcscd expired"),
        .init(0x8010_0008, "SCARD_E_INSUFFICIENT_BUFFER", .tagResponseError, "the answer is larger than the buffer"),
        .init(0x8010_0009, "SCARD_E_UNKNOWN_READER", .readerUnavailable, "no reader has this name (was it unplugged?)"),
        .init(0x8010_000A, "SCARD_E_TIMEOUT", .timeout, "the time allowed has passed"),
        .init(
            0x8010_000B, "SCARD_E_SHARING_VIOLATION", .readerUnavailable,
            "the reader is busy: another program holds it exclusively (close it, or wait for it to finish)"),
        .init(0x8010_000C, "SCARD_E_NO_SMARTCARD", .tagConnectionLost, "no tag is on the reader"),
        .init(0x8010_000D, "SCARD_E_UNKNOWN_CARD", .tagNotSupported, "the card is not recognised"),
        .init(0x8010_000E, "SCARD_E_CANT_DISPOSE", .readerUnavailable, "the card could not be disposed of as asked"),
        .init(
            0x8010_000F, "SCARD_E_PROTO_MISMATCH", .tagNotSupported,
            "protocol mismatch: the card speaks neither T=0 nor T=1 as requested"),
        .init(0x8010_0010, "SCARD_E_NOT_READY", .readerUnavailable, "the reader or card is not ready"),
        .init(0x8010_0011, "SCARD_E_INVALID_VALUE", .invalidParameter, "a parameter value could not be interpreted"),
        .init(0x8010_0012, "SCARD_E_SYSTEM_CANCELLED", .cancelled, "the system cancelled the action"),
        .init(0x8010_0013, "SCARD_F_COMM_ERROR", .readerUnavailable, "communication with pcscd broke"),
        .init(
            0x8010_0014, "SCARD_F_UNKNOWN_ERROR", .readerUnavailable,
            "pcscd reports an internal error of unknown source"),
        .init(0x8010_0015, "SCARD_E_INVALID_ATR", .tagNotSupported, "the card's ATR is not valid"),
        .init(
            0x8010_0016, "SCARD_E_NOT_TRANSACTED", .tagConnectionLost,
            "the command did not reach the card: the tag left the reader"),
        .init(
            0x8010_0017, "SCARD_E_READER_UNAVAILABLE", .readerUnavailable, "the reader is not available (unplugged?)"),
        .init(0x8010_0018, "SCARD_P_SHUTDOWN", .readerUnavailable, "pcscd is shutting down"),
        .init(
            0x8010_0019, "SCARD_E_PCI_TOO_SMALL", .tagResponseError,
            "the protocol control information buffer is too small"),
        .init(
            0x8010_001A, "SCARD_E_READER_UNSUPPORTED", .readerUnavailable,
            "the reader driver does not meet the requirements"),
        .init(
            0x8010_001B, "SCARD_E_DUPLICATE_READER", .readerUnavailable, "the reader driver gave a name already in use"),
        .init(
            0x8010_001C, "SCARD_E_CARD_UNSUPPORTED", .tagNotSupported, "the card does not meet the minimal requirements"
        ),
        .init(
            0x8010_001D, "SCARD_E_NO_SERVICE", .readerUnavailable,
            "pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`)"),
        .init(
            0x8010_001E, "SCARD_E_SERVICE_STOPPED", .readerUnavailable,
            "pcscd has stopped: start it again with `sudo systemctl start pcscd` (or `pcscd -f`)"),
        .init(
            0x8010_001F, "SCARD_E_UNSUPPORTED_FEATURE", .unsupportedFeature,
            "the reader or card does not support this (also SCARD_E_UNEXPECTED)"),
        .init(0x8010_0020, "SCARD_E_ICC_INSTALLATION", .tagNotSupported, "no primary provider for the card"),
        .init(
            0x8010_0021, "SCARD_E_ICC_CREATEORDER", .tagNotSupported,
            "the requested order of object creation is not supported"),
        .init(0x8010_0023, "SCARD_E_DIR_NOT_FOUND", .tagResponseError, "the directory does not exist on the card"),
        .init(0x8010_0024, "SCARD_E_FILE_NOT_FOUND", .tagResponseError, "the file does not exist on the card"),
        .init(0x8010_0025, "SCARD_E_NO_DIR", .tagResponseError, "the path is not a directory"),
        .init(0x8010_0026, "SCARD_E_NO_FILE", .tagResponseError, "the path is not a file"),
        .init(0x8010_0027, "SCARD_E_NO_ACCESS", .tagResponseError, "access to the file is denied"),
        .init(0x8010_0028, "SCARD_E_WRITE_TOO_MANY", .tagSizeTooSmall, "the card has not enough memory for the data"),
        .init(0x8010_0029, "SCARD_E_BAD_SEEK", .tagResponseError, "the file pointer could not be set"),
        .init(0x8010_002A, "SCARD_E_INVALID_CHV", .authenticationFailed, "the PIN is incorrect"),
        .init(
            0x8010_002B, "SCARD_E_UNKNOWN_RES_MNG", .readerUnavailable, "an unrecognised error came from a lower layer"),
        .init(0x8010_002C, "SCARD_E_NO_SUCH_CERTIFICATE", .tagResponseError, "the certificate does not exist"),
        .init(
            0x8010_002D, "SCARD_E_CERTIFICATE_UNAVAILABLE", .tagResponseError, "the certificate could not be obtained"),
        .init(
            0x8010_002E, "SCARD_E_NO_READERS_AVAILABLE", .readerUnavailable,
            "no reader is connected (pcscd sees none)"),
        .init(
            0x8010_002F, "SCARD_E_COMM_DATA_LOST", .tagConnectionLost,
            "communication with the card failed: the tag may have left"),
        .init(0x8010_0030, "SCARD_E_NO_KEY_CONTAINER", .tagResponseError, "the key container does not exist"),
        .init(0x8010_0031, "SCARD_E_SERVER_TOO_BUSY", .readerUnavailable, "pcscd is too busy"),
        .init(
            0x8010_0065, "SCARD_W_UNSUPPORTED_CARD", .tagNotSupported,
            "the reader cannot talk to the card (ATR conflict)"),
        .init(0x8010_0066, "SCARD_W_UNRESPONSIVE_CARD", .tagConnectionLost, "the card does not answer the reset"),
        .init(0x8010_0067, "SCARD_W_UNPOWERED_CARD", .tagConnectionLost, "the card is not powered"),
        .init(
            0x8010_0068, "SCARD_W_RESET_CARD", .tagConnectionLost,
            "the card was reset (by another program?): its session state is lost"),
        .init(0x8010_0069, "SCARD_W_REMOVED_CARD", .tagConnectionLost, "the tag was removed from the reader"),
        .init(
            0x8010_006A, "SCARD_W_SECURITY_VIOLATION", .authenticationRequired, "access was denied (security violation)"
        ),
        .init(0x8010_006B, "SCARD_W_WRONG_CHV", .authenticationFailed, "the wrong PIN was presented"),
        .init(0x8010_006C, "SCARD_W_CHV_BLOCKED", .passwordDisabled, "the PIN is blocked (too many attempts)"),
        .init(0x8010_006D, "SCARD_W_EOF", .tagResponseError, "the end of the card file was reached"),
        .init(0x8010_006E, "SCARD_W_CANCELLED_BY_USER", .cancelled, "the user cancelled"),
        .init(0x8010_006F, "SCARD_W_CARD_NOT_AUTHENTICATED", .authenticationRequired, "no PIN was presented"),
    ]
}
