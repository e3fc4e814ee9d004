import CPCSC
import NFCSession
import Testing

@testable import PCSCReader

/// PC/SC result codes become errors in one place (PCSCError.check) and keep their code, name and
/// meaning; every code pcsc-lite defines is named with the value of the C header.
@Suite("PC/SC error mapping")
struct PCSCErrorTests {
    /// Every SCARD_* error and warning macro of pcsc-lite 1.9's pcsclite.h, as the C compiler sees it.
    static let headerCodes: [(name: String, value: Int)] = [
        ("SCARD_F_INTERNAL_ERROR", SCARD_F_INTERNAL_ERROR), ("SCARD_E_CANCELLED", SCARD_E_CANCELLED),
        ("SCARD_E_INVALID_HANDLE", SCARD_E_INVALID_HANDLE), ("SCARD_E_INVALID_PARAMETER", SCARD_E_INVALID_PARAMETER),
        ("SCARD_E_INVALID_TARGET", SCARD_E_INVALID_TARGET), ("SCARD_E_NO_MEMORY", SCARD_E_NO_MEMORY),
        ("SCARD_F_WAITED_TOO_LONG", SCARD_F_WAITED_TOO_LONG),
        ("SCARD_E_INSUFFICIENT_BUFFER", SCARD_E_INSUFFICIENT_BUFFER),
        ("SCARD_E_UNKNOWN_READER", SCARD_E_UNKNOWN_READER), ("SCARD_E_TIMEOUT", SCARD_E_TIMEOUT),
        ("SCARD_E_SHARING_VIOLATION", SCARD_E_SHARING_VIOLATION), ("SCARD_E_NO_SMARTCARD", SCARD_E_NO_SMARTCARD),
        ("SCARD_E_UNKNOWN_CARD", SCARD_E_UNKNOWN_CARD), ("SCARD_E_CANT_DISPOSE", SCARD_E_CANT_DISPOSE),
        ("SCARD_E_PROTO_MISMATCH", SCARD_E_PROTO_MISMATCH), ("SCARD_E_NOT_READY", SCARD_E_NOT_READY),
        ("SCARD_E_INVALID_VALUE", SCARD_E_INVALID_VALUE), ("SCARD_E_SYSTEM_CANCELLED", SCARD_E_SYSTEM_CANCELLED),
        ("SCARD_F_COMM_ERROR", SCARD_F_COMM_ERROR), ("SCARD_F_UNKNOWN_ERROR", SCARD_F_UNKNOWN_ERROR),
        ("SCARD_E_INVALID_ATR", SCARD_E_INVALID_ATR), ("SCARD_E_NOT_TRANSACTED", SCARD_E_NOT_TRANSACTED),
        ("SCARD_E_READER_UNAVAILABLE", SCARD_E_READER_UNAVAILABLE), ("SCARD_P_SHUTDOWN", SCARD_P_SHUTDOWN),
        ("SCARD_E_PCI_TOO_SMALL", SCARD_E_PCI_TOO_SMALL), ("SCARD_E_READER_UNSUPPORTED", SCARD_E_READER_UNSUPPORTED),
        ("SCARD_E_DUPLICATE_READER", SCARD_E_DUPLICATE_READER), ("SCARD_E_CARD_UNSUPPORTED", SCARD_E_CARD_UNSUPPORTED),
        ("SCARD_E_NO_SERVICE", SCARD_E_NO_SERVICE), ("SCARD_E_SERVICE_STOPPED", SCARD_E_SERVICE_STOPPED),
        ("SCARD_E_UNSUPPORTED_FEATURE", SCARD_E_UNSUPPORTED_FEATURE),
        ("SCARD_E_ICC_INSTALLATION", SCARD_E_ICC_INSTALLATION), ("SCARD_E_ICC_CREATEORDER", SCARD_E_ICC_CREATEORDER),
        ("SCARD_E_DIR_NOT_FOUND", SCARD_E_DIR_NOT_FOUND), ("SCARD_E_FILE_NOT_FOUND", SCARD_E_FILE_NOT_FOUND),
        ("SCARD_E_NO_DIR", SCARD_E_NO_DIR), ("SCARD_E_NO_FILE", SCARD_E_NO_FILE),
        ("SCARD_E_NO_ACCESS", SCARD_E_NO_ACCESS),
        ("SCARD_E_WRITE_TOO_MANY", SCARD_E_WRITE_TOO_MANY), ("SCARD_E_BAD_SEEK", SCARD_E_BAD_SEEK),
        ("SCARD_E_INVALID_CHV", SCARD_E_INVALID_CHV), ("SCARD_E_UNKNOWN_RES_MNG", SCARD_E_UNKNOWN_RES_MNG),
        ("SCARD_E_NO_SUCH_CERTIFICATE", SCARD_E_NO_SUCH_CERTIFICATE),
        ("SCARD_E_CERTIFICATE_UNAVAILABLE", SCARD_E_CERTIFICATE_UNAVAILABLE),
        ("SCARD_E_NO_READERS_AVAILABLE", SCARD_E_NO_READERS_AVAILABLE),
        ("SCARD_E_COMM_DATA_LOST", SCARD_E_COMM_DATA_LOST), ("SCARD_E_NO_KEY_CONTAINER", SCARD_E_NO_KEY_CONTAINER),
        ("SCARD_E_SERVER_TOO_BUSY", SCARD_E_SERVER_TOO_BUSY), ("SCARD_W_UNSUPPORTED_CARD", SCARD_W_UNSUPPORTED_CARD),
        ("SCARD_W_UNRESPONSIVE_CARD", SCARD_W_UNRESPONSIVE_CARD), ("SCARD_W_UNPOWERED_CARD", SCARD_W_UNPOWERED_CARD),
        ("SCARD_W_RESET_CARD", SCARD_W_RESET_CARD), ("SCARD_W_REMOVED_CARD", SCARD_W_REMOVED_CARD),
        ("SCARD_W_SECURITY_VIOLATION", SCARD_W_SECURITY_VIOLATION), ("SCARD_W_WRONG_CHV", SCARD_W_WRONG_CHV),
        ("SCARD_W_CHV_BLOCKED", SCARD_W_CHV_BLOCKED), ("SCARD_W_EOF", SCARD_W_EOF),
        ("SCARD_W_CANCELLED_BY_USER", SCARD_W_CANCELLED_BY_USER),
        ("SCARD_W_CARD_NOT_AUTHENTICATED", SCARD_W_CARD_NOT_AUTHENTICATED),
    ]

    @Test("every pcsc-lite code is named, with the header's value")
    func everyHeaderCodeIsNamed() {
        for (name, value) in Self.headerCodes {
            let code = UInt32(truncatingIfNeeded: value)
            #expect(PCSCStatusCode(rawValue: code).name == name, "\(name)")
            let error = PCSCError(status: PCSCStatusCode(rawValue: code), operation: "SCardTest")
            #expect(error.status.name == name)
            #expect(!error.message.isEmpty)
        }
        #expect(PCSCStatusCode.allKnown.count == Self.headerCodes.count)
    }

    @Test("the constants the backend acts on equal the header's")
    func returnConstantsMatchHeader() {
        let pairs: [(PCSCStatusCode, Int)] = [
            (PCSCStatusCode.cancelled, SCARD_E_CANCELLED), (PCSCStatusCode.invalidHandle, SCARD_E_INVALID_HANDLE),
            (PCSCStatusCode.noMemory, SCARD_E_NO_MEMORY),
            (PCSCStatusCode.insufficientBuffer, SCARD_E_INSUFFICIENT_BUFFER),
            (PCSCStatusCode.unknownReader, SCARD_E_UNKNOWN_READER), (PCSCStatusCode.timeout, SCARD_E_TIMEOUT),
            (PCSCStatusCode.sharingViolation, SCARD_E_SHARING_VIOLATION),
            (PCSCStatusCode.noSmartcard, SCARD_E_NO_SMARTCARD),
            (PCSCStatusCode.commError, SCARD_F_COMM_ERROR), (PCSCStatusCode.notTransacted, SCARD_E_NOT_TRANSACTED),
            (PCSCStatusCode.readerUnavailable, SCARD_E_READER_UNAVAILABLE),
            (PCSCStatusCode.noService, SCARD_E_NO_SERVICE),
            (PCSCStatusCode.serviceStopped, SCARD_E_SERVICE_STOPPED),
            (PCSCStatusCode.noReadersAvailable, SCARD_E_NO_READERS_AVAILABLE),
            (PCSCStatusCode.unresponsiveCard, SCARD_W_UNRESPONSIVE_CARD),
            (PCSCStatusCode.unpoweredCard, SCARD_W_UNPOWERED_CARD),
            (PCSCStatusCode.resetCard, SCARD_W_RESET_CARD), (PCSCStatusCode.removedCard, SCARD_W_REMOVED_CARD),
        ]
        for (ours, header) in pairs { #expect(ours.rawValue == UInt32(truncatingIfNeeded: header)) }
        let states: [(UInt32, Int32)] = [
            (PCSCReaderState.unaware, SCARD_STATE_UNAWARE), (PCSCReaderState.changed, SCARD_STATE_CHANGED),
            (PCSCReaderState.unknown, SCARD_STATE_UNKNOWN), (PCSCReaderState.unavailable, SCARD_STATE_UNAVAILABLE),
            (PCSCReaderState.empty, SCARD_STATE_EMPTY), (PCSCReaderState.present, SCARD_STATE_PRESENT),
            (PCSCReaderState.exclusive, SCARD_STATE_EXCLUSIVE), (PCSCReaderState.inUse, SCARD_STATE_INUSE),
            (PCSCReaderState.mute, SCARD_STATE_MUTE),
        ]
        for (ours, header) in states { #expect(ours == UInt32(header)) }
    }

    @Test(
        "each code becomes the expected session error",
        arguments: [
            (0x8010_001D, NFCReaderError.Code.readerUnavailable), (0x8010_001E, .readerUnavailable),
            (0x8010_002E, .readerUnavailable), (0x8010_000B, .readerUnavailable), (0x8010_0009, .readerUnavailable),
            (0x8010_0017, .readerUnavailable), (0x8010_0069, .tagConnectionLost), (0x8010_0016, .tagConnectionLost),
            (0x8010_000C, .tagConnectionLost), (0x8010_0068, .tagConnectionLost), (0x8010_0066, .tagConnectionLost),
            (0x8010_000F, .tagNotSupported), (0x8010_0002, .cancelled), (0x8010_000A, .timeout),
            (0x8010_001F, .unsupportedFeature), (0x8010_0004, .invalidParameter),
        ] as [(UInt32, NFCReaderError.Code)])
    func mapping(code: UInt32, expected: NFCReaderError.Code) {
        #expect(PCSCError(status: PCSCStatusCode(rawValue: code), operation: "SCardTest").readerError.code == expected)
    }

    @Test("check passes success and throws every other code, keeping its 32 bits")
    func checkFunction() throws {
        try PCSCError.check(0, "SCardTest")
        #expect(throws: PCSCError(status: PCSCStatusCode(rawValue: 0x8010_001D), operation: "")) {
            try PCSCError.check(Int(bitPattern: 0x8010_001D), "SCardEstablishContext")
        }
        #expect(throws: PCSCError(status: PCSCStatusCode(rawValue: 0x8010_0069), operation: "")) {
            try PCSCError.check(Int32(bitPattern: 0x8010_0069), "SCardTransmit")
        }
        do {
            try PCSCError.check(SCARD_E_NO_SERVICE, "SCardEstablishContext")
            Issue.record("no error thrown")
        } catch {
            #expect(error.status == .noService)
            #expect(error.operation == "SCardEstablishContext")
        }
    }

    @Test("pcscd not running: the message says how to start it")
    func noServiceMessage() {
        let error = PCSCError(status: PCSCStatusCode(rawValue: 0x8010_001D), operation: "SCardEstablishContext")
            .readerError
        #expect(error.code == .readerUnavailable)
        #expect(
            error.reason.hasPrefix("pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`)"))
        #expect(error.reason.contains("SCARD_E_NO_SERVICE 0x8010001D from SCardEstablishContext"))
    }

    @Test("no readers: the message explains the pn533 blacklist")
    func noReadersHint() {
        let error = PCSCError(status: PCSCStatusCode(rawValue: 0x8010_002E), operation: "SCardListReaders").readerError
        #expect(error.code == .readerUnavailable)
        for line in ["blacklist pn533_usb", "blacklist pn533", "blacklist nfc", "/etc/modprobe.d/blacklist-pn533.conf"]
        {
            #expect(error.reason.contains(line))
        }
    }

    @Test("sharing violation names another program; removal names the reader")
    func busyAndRemoved() {
        let busy = PCSCError(
            status: PCSCStatusCode(rawValue: 0x8010_000B), operation: "SCardConnect", readerName: "ACS ACR122U 00 00")
        #expect(busy.readerError.reason.contains("another program holds it exclusively"))
        #expect(busy.readerError.reason.contains("\"ACS ACR122U 00 00\""))
        let removed = PCSCError(
            status: PCSCStatusCode(rawValue: 0x8010_0069), operation: "SCardTransmit", readerName: "R")
        #expect(removed.readerError.code == .tagConnectionLost)
        #expect(
            removed.description
                == "the tag was removed from the reader (SCARD_W_REMOVED_CARD 0x80100069 from SCardTransmit on \"R\")")
    }

    @Test("an unknown code is kept in hex")
    func unknownCode() {
        let error = PCSCError(status: PCSCStatusCode(rawValue: 0x8010_0099), operation: "SCardTransmit")
        #expect(error.status.name == nil && !error.status.isKnown)
        #expect(error.status.hexValue == "0x80100099")
        #expect(error.message.contains("0x80100099"))
        #expect(error.readerError.code == .readerUnavailable)
        #expect(error.readerError.reason.contains("0x80100099"))
        #expect(PCSCStatusCode(rawValue: 0x1234).hexValue == "0x00001234")
        #expect("\(PCSCStatusCode.removedCard)" == "SCARD_W_REMOVED_CARD 0x80100069")
        // A client's switch over codes, with default: codes are an open set.
        func retry(_ code: PCSCStatusCode) -> Bool {
            switch code {
            case .removedCard, .noSmartcard: true
            default: false
            }
        }
        #expect(retry(.removedCard) && !retry(.noService))
    }
}
