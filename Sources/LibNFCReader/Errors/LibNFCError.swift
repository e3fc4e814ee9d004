import NDEF
import NFCSession

/// A failed libnfc call: the result code, the call and the device.
///
/// ``check(_:_:device:)`` is the one place where libnfc's negative results (`NFC_E*` of
/// `nfc/nfc.h`) become errors, and ``readerError`` the one place they become the session's
/// ``NFCSession/NFCReaderError``. A code libnfc does not define is kept as it is (``LibNFCStatusCode``).
/// Errors are equal when their statuses are.
public struct LibNFCError: NDEFToolError, Hashable {
    /// The negative libnfc result, ``LibNFCStatusCode/rfTransmission`` (`-20`).
    public let status: LibNFCStatusCode
    /// The libnfc call that failed, `nfc_initiator_transceive_bytes`.
    public let operation: String
    /// The device's connection string, if known.
    public let device: String?

    /// An error for `status`, returned by `operation`.
    public init(status: LibNFCStatusCode, operation: String, device: String? = nil) {
        self.status = status
        self.operation = operation
        self.device = device
    }

    /// The non-negative result of a libnfc call (a count of bytes, bits or targets), or the error a
    /// negative one stands for.
    @discardableResult
    public static func check(_ result: Int32, _ operation: String, device: String? = nil) throws(LibNFCError) -> Int {
        guard result < 0 else { return Int(result) }
        throw LibNFCError(status: LibNFCStatusCode(rawValue: result), operation: operation, device: device)
    }

    /// What went wrong, for people; unknown codes say so.
    public var message: String {
        status.meaning ?? "libnfc error \(status.rawValue), a code libnfc 1.8.0 does not define"
    }

    public var description: String {
        var place = operation
        if let device { place += " on \(device)" }
        return "\(message) (\(status) from \(place))"
    }

    /// The session error: the code's ``LibNFCStatusCode/readerErrorCode`` (reader-unavailable for
    /// an unknown code), with a reason naming the call, the device and the libnfc code.
    public var readerError: NFCReaderError {
        NFCReaderError(status.readerErrorCode, description)
    }

    /// The session error code the status becomes (``readerError``): through ``NDEF/NDEFToolError``
    /// every error of the package has a kebab-case code.
    public var code: NFCReaderError.Code { status.readerErrorCode }

    /// The session error's reason: the message, the call, the device and any hint.
    public var reason: String { readerError.reason }

    /// Errors are equal when their statuses are.
    public static func == (lhs: LibNFCError, rhs: LibNFCError) -> Bool { lhs.status == rhs.status }

    public func hash(into hasher: inout Hasher) { hasher.combine(status) }
}

/// One of libnfc's result codes (`NFC_E*` in `nfc/nfc.h`, libnfc 1.8.0): a constant per code, with
/// its name, libnfc's own text, what it means for a reader and the session error it becomes.
///
/// A code libnfc does not define is kept as it is (``name`` and ``meaning`` nil). An open set, as
/// a `RawRepresentable` struct: a `switch` over codes needs a `default`.
public struct LibNFCStatusCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The negative value, `-20`.
    public let rawValue: Int32

    /// The code `rawValue`, known or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The macro name, `NFC_ERFTRANS`; nil for a code libnfc does not define.
    public var name: String? { Self.entries[rawValue]?.name }

    /// What happened, for people; nil for a code libnfc does not define.
    public var meaning: String? { Self.entries[rawValue]?.meaning }

    /// The session error code this result becomes (reader-unavailable for a code libnfc does
    /// not define).
    public var readerErrorCode: NFCReaderError.Code { Self.entries[rawValue]?.readerErrorCode ?? .readerUnavailable }

    /// The name with the value, `NFC_ERFTRANS (-20)`, or the value alone.
    public var description: String { name.map { "\($0) (\(rawValue))" } ?? String(rawValue) }

    /// Every code libnfc 1.8.0 defines, from -1 down.
    public static var allKnown: [LibNFCStatusCode] {
        entries.keys.sorted(by: >).map(LibNFCStatusCode.init(rawValue:))
    }

    /// `NFC_EIO` (-1): input/output error.
    public static let inputOutput = LibNFCStatusCode(rawValue: -1)

    /// `NFC_EINVARG` (-2): invalid argument(s).
    public static let invalidArgument = LibNFCStatusCode(rawValue: -2)

    /// `NFC_EDEVNOTSUPP` (-3): not supported by the device.
    public static let deviceNotSupported = LibNFCStatusCode(rawValue: -3)

    /// `NFC_ENOTSUCHDEV` (-4): no such device.
    public static let noSuchDevice = LibNFCStatusCode(rawValue: -4)

    /// `NFC_EOVFLOW` (-5): buffer overflow.
    public static let overflow = LibNFCStatusCode(rawValue: -5)

    /// `NFC_ETIMEOUT` (-6): timeout.
    public static let timeout = LibNFCStatusCode(rawValue: -6)

    /// `NFC_EOPABORTED` (-7): operation aborted (nfc_abort_command).
    public static let operationAborted = LibNFCStatusCode(rawValue: -7)

    /// `NFC_ENOTIMPL` (-8): not (yet) implemented by libnfc for this device.
    public static let notImplemented = LibNFCStatusCode(rawValue: -8)

    /// `NFC_ETGRELEASED` (-10): target released.
    public static let targetReleased = LibNFCStatusCode(rawValue: -10)

    /// `NFC_ERFTRANS` (-20): RF transmission error.
    public static let rfTransmission = LibNFCStatusCode(rawValue: -20)

    /// `NFC_EMFCAUTHFAIL` (-30): MIFARE Classic authentication failed (the tag is now halted.
    public static let mifareClassicAuthenticationFailed = LibNFCStatusCode(rawValue: -30)

    /// `NFC_ESOFT` (-80): software error in libnfc (memory allocation failed).
    public static let software = LibNFCStatusCode(rawValue: -80)

    /// `NFC_ECHIP` (-90): the PN53x reported an internal error (buffer overflow, RF over-current, overheating, or a  status libnfc does not know); if it repeats, unplug the device.
    public static let chip = LibNFCStatusCode(rawValue: -90)

    /// Every error code libnfc 1.8.0 defines, (`nfc/nfc.h`; the texts follow libnfc's
    /// `nfc_strerror` table in `libnfc/nfc.c`, with the PN53x causes from `chips/pn53x.c`).
    ///
    /// The session codes: a tag that does not answer (`NFC_ERFTRANS`: the PN53x reports a timeout,
    /// or a parity or framing error, which a tag leaving the field also causes) or was released
    /// (`NFC_ETGRELEASED`) is tag-connection-lost; a device that does not answer or answers
    /// garbage (`NFC_EIO`, `NFC_ETIMEOUT`) or is gone (`NFC_ENOTSUCHDEV`) is reader-unavailable;
    /// what the device or libnfc cannot do is unsupported-feature.
    private static let entries: [Int32: CLibraryStatus] = [
        -1: CLibraryStatus(
            "NFC_EIO", .readerUnavailable,
            "input/output error: the device stopped answering or sent a garbled frame (unplugged, "
                + "a wrong serial port or baud rate, or another program using the port)"),
        -2: CLibraryStatus(
            "NFC_EINVARG", .invalidParameter,
            "invalid argument(s): libnfc or the PN53x refused the command in the device's current mode"),
        -3: CLibraryStatus("NFC_EDEVNOTSUPP", .unsupportedFeature, "not supported by the device"),
        -4: CLibraryStatus(
            "NFC_ENOTSUCHDEV", .readerUnavailable,
            "no such device: it was unplugged, or the connection string names nothing"),
        -5: CLibraryStatus(
            "NFC_EOVFLOW", .tagResponseError,
            "buffer overflow: the answer is longer than the device or libnfc can pass on"),
        -6: CLibraryStatus(
            "NFC_ETIMEOUT", .readerUnavailable,
            "timeout: the device did not answer in time (it hangs or was unplugged, or the serial "
                + "line is wrong); unplug and replug it"),
        -7: CLibraryStatus("NFC_EOPABORTED", .cancelled, "operation aborted (nfc_abort_command)"),
        -8: CLibraryStatus("NFC_ENOTIMPL", .unsupportedFeature, "not (yet) implemented by libnfc for this device"),
        -10: CLibraryStatus(
            "NFC_ETGRELEASED", .tagConnectionLost,
            "target released: the tag left the field or was released by the device"),
        -20: CLibraryStatus(
            "NFC_ERFTRANS", .tagConnectionLost,
            "RF transmission error: the tag did not answer, or its answer was broken (it left the "
                + "field, or a NAK sent it back to IDLE); put it back and try again"),
        -30: CLibraryStatus(
            "NFC_EMFCAUTHFAIL", .authenticationFailed,
            "MIFARE Classic authentication failed (the tag is now halted: select it again)"),
        -80: CLibraryStatus(
            "NFC_ESOFT", .readerUnavailable,
            "software error in libnfc (memory allocation failed): close the device and open it again"),
        -90: CLibraryStatus(
            "NFC_ECHIP", .tagResponseError,
            "the PN53x reported an internal error (buffer overflow, RF over-current, overheating, or a "
                + "status libnfc does not know); if it repeats, unplug the device"),
    ]
}
