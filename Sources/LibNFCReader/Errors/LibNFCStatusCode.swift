import NFCSession

/// One of libnfc's result codes (`NFC_E*` in `nfc/nfc.h`, libnfc 1.8.0): its name, libnfc's own
/// text, what it means for a reader and the session error it becomes.
public struct LibNFCStatusCode: Sendable, Hashable {
    /// The negative value, `-20`.
    public let value: Int32
    /// The macro name, `NFC_ERFTRANS`.
    public let name: String
    /// What happened, for people.
    public let meaning: String
    /// The session error code this result becomes.
    public let readerErrorCode: NFCReaderError.Code

    /// The table entry of `value`; nil for a code libnfc does not define.
    public static func named(_ value: Int32) -> LibNFCStatusCode? {
        all.first { $0.value == value }
    }

    /// Every error code libnfc 1.8.0 defines (`nfc/nfc.h`; the texts follow libnfc's
    /// `nfc_strerror` table in `libnfc/nfc.c`, with the PN53x causes from `chips/pn53x.c`).
    ///
    /// The session codes: a tag that does not answer (`NFC_ERFTRANS`: the PN53x reports a timeout,
    /// or a parity or framing error, which a tag leaving the field also causes) or was released
    /// (`NFC_ETGRELEASED`) is tag-connection-lost; a device that does not answer or answers
    /// garbage (`NFC_EIO`, `NFC_ETIMEOUT`) or is gone (`NFC_ENOTSUCHDEV`) is reader-unavailable;
    /// what the device or libnfc cannot do is unsupported-feature.
    public static let all: [LibNFCStatusCode] = [
        LibNFCStatusCode(
            value: -1, name: "NFC_EIO",
            meaning: "input/output error: the device stopped answering or sent a garbled frame (unplugged, "
                + "a wrong serial port or baud rate, or another program using the port)",
            readerErrorCode: .readerUnavailable),
        LibNFCStatusCode(
            value: -2, name: "NFC_EINVARG",
            meaning: "invalid argument(s): libnfc or the PN53x refused the command in the device's current mode",
            readerErrorCode: .invalidParameter),
        LibNFCStatusCode(
            value: -3, name: "NFC_EDEVNOTSUPP",
            meaning: "not supported by the device", readerErrorCode: .unsupportedFeature),
        LibNFCStatusCode(
            value: -4, name: "NFC_ENOTSUCHDEV",
            meaning: "no such device: it was unplugged, or the connection string names nothing",
            readerErrorCode: .readerUnavailable),
        LibNFCStatusCode(
            value: -5, name: "NFC_EOVFLOW",
            meaning: "buffer overflow: the answer is longer than the device or libnfc can pass on",
            readerErrorCode: .tagResponseError),
        LibNFCStatusCode(
            value: -6, name: "NFC_ETIMEOUT",
            meaning: "timeout: the device did not answer in time (it hangs or was unplugged, or the serial "
                + "line is wrong); unplug and replug it",
            readerErrorCode: .readerUnavailable),
        LibNFCStatusCode(
            value: -7, name: "NFC_EOPABORTED",
            meaning: "operation aborted (nfc_abort_command)", readerErrorCode: .cancelled),
        LibNFCStatusCode(
            value: -8, name: "NFC_ENOTIMPL",
            meaning: "not (yet) implemented by libnfc for this device", readerErrorCode: .unsupportedFeature),
        LibNFCStatusCode(
            value: -10, name: "NFC_ETGRELEASED",
            meaning: "target released: the tag left the field or was released by the device",
            readerErrorCode: .tagConnectionLost),
        LibNFCStatusCode(
            value: -20, name: "NFC_ERFTRANS",
            meaning: "RF transmission error: the tag did not answer, or its answer was broken (it left the "
                + "field, or a NAK sent it back to IDLE); put it back and try again",
            readerErrorCode: .tagConnectionLost),
        LibNFCStatusCode(
            value: -30, name: "NFC_EMFCAUTHFAIL",
            meaning: "MIFARE Classic authentication failed (the tag is now halted: select it again)",
            readerErrorCode: .authenticationFailed),
        LibNFCStatusCode(
            value: -80, name: "NFC_ESOFT",
            meaning: "software error in libnfc (memory allocation failed): close the device and open it again",
            readerErrorCode: .readerUnavailable),
        LibNFCStatusCode(
            value: -90, name: "NFC_ECHIP",
            meaning: "the PN53x reported an internal error (buffer overflow, RF over-current, overheating, or a "
                + "status libnfc does not know); if it repeats, unplug the device",
            readerErrorCode: .tagResponseError),
    ]
}
