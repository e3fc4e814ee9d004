import CLibNFC
import NFCSession
import Testing

@testable import LibNFCReader

/// libnfc results become errors in one place (LibNFCError.check) and session errors in one
/// place (LibNFCError.readerError); every code of libnfc 1.8.0's nfc.h is named with the header's
/// value, and unknown codes are kept.
@Suite("libnfc error mapping")
struct LibNFCErrorTests {
    /// Every NFC_E* macro of libnfc 1.8.0's nfc/nfc.h as the C compiler sees it, and the session
    /// code each must become.
    static let headerCodes: [(name: String, value: Int32, code: NFCReaderError.Code)] = [
        ("NFC_EIO", NFC_EIO, .readerUnavailable),
        ("NFC_EINVARG", NFC_EINVARG, .invalidParameter),
        ("NFC_EDEVNOTSUPP", NFC_EDEVNOTSUPP, .unsupportedFeature),
        ("NFC_ENOTSUCHDEV", NFC_ENOTSUCHDEV, .readerUnavailable),
        ("NFC_EOVFLOW", NFC_EOVFLOW, .tagResponseError),
        ("NFC_ETIMEOUT", NFC_ETIMEOUT, .readerUnavailable),
        ("NFC_EOPABORTED", NFC_EOPABORTED, .cancelled),
        ("NFC_ENOTIMPL", NFC_ENOTIMPL, .unsupportedFeature),
        ("NFC_ETGRELEASED", NFC_ETGRELEASED, .tagConnectionLost),
        ("NFC_ERFTRANS", NFC_ERFTRANS, .tagConnectionLost),
        ("NFC_EMFCAUTHFAIL", NFC_EMFCAUTHFAIL, .authenticationFailed),
        ("NFC_ESOFT", NFC_ESOFT, .readerUnavailable),
        ("NFC_ECHIP", NFC_ECHIP, .tagResponseError),
    ]

    @Test("every libnfc code is named with the header's value and becomes the session code for it")
    func everyHeaderCode() {
        for (name, value, code) in Self.headerCodes {
            let status = LibNFCStatusCode(rawValue: value)
            #expect(status.name == name, "\(name)")
            let error = LibNFCError(status: status, operation: "nfc_test", device: "pn532_uart:/dev/ttyS9")
            #expect(error.status.name == name)
            #expect(error.readerError.code == code, "\(name)")
            #expect(error.readerError.reason.contains(name), "\(name): the reason names the code")
            #expect(error.readerError.reason.contains("nfc_test on pn532_uart:/dev/ttyS9"))
            #expect(!error.message.isEmpty)
        }
        #expect(LibNFCStatusCode.allKnown.count == Self.headerCodes.count)
        #expect(LibNFCStatusCode.rfTransmission.rawValue == NFC_ERFTRANS)
        #expect(LibNFCStatusCode.inputOutput.rawValue == NFC_EIO)
        #expect(LibNFCStatusCode.targetReleased.rawValue == NFC_ETGRELEASED)
    }

    @Test("a code libnfc does not define is kept and said to be unknown; it becomes reader-unavailable")
    func unknownCode() {
        let error = LibNFCError(status: LibNFCStatusCode(rawValue: -42), operation: "nfc_initiator_transceive_bytes")
        #expect(error.status.name == nil)
        #expect(error.status.rawValue == -42)
        #expect("\(error.status)" == "-42")
        #expect(error.message.contains("does not define"))
        #expect(error.readerError.code == .readerUnavailable)
        #expect(error.readerError.reason.contains("-42"))
    }

    @Test("check passes non-negative results through and throws negative ones")
    func check() throws {
        #expect(try LibNFCError.check(0, "nfc_test") == 0)
        #expect(try LibNFCError.check(18, "nfc_test") == 18)
        #expect(throws: LibNFCError(status: LibNFCStatusCode(rawValue: NFC_ERFTRANS), operation: "")) {
            try LibNFCError.check(NFC_ERFTRANS, "nfc_initiator_transceive_bytes", device: "pn532_uart:/dev/ttyS9")
        }
    }

    @Test("errors are equal by code; the description names call, device and code")
    func equalityAndDescription() {
        let one = LibNFCError(status: LibNFCStatusCode(rawValue: NFC_EIO), operation: "a")
        let other = LibNFCError(status: LibNFCStatusCode(rawValue: NFC_EIO), operation: "b", device: "x")
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != LibNFCError(status: LibNFCStatusCode(rawValue: NFC_ECHIP), operation: "a"))
        #expect(other.description.hasSuffix("(NFC_EIO (-1) from b on x)"))
        // A client's switch over codes needs a default: codes are an open set.
        let lost: Bool =
            switch one.status {
            case .rfTransmission, .targetReleased: true
            default: false
            }
        #expect(!lost)
    }
}
