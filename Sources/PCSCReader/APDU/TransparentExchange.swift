import HexText
import NFCSession
import NFCWireFormat

/// The transparent session of PC/SC 2.02 (PC/SC Workgroup specification part 3, supplemental
/// document for contactless ICCs, revision 2.02, 3.2.2.1.7-3.2.2.1.9), as ACS documents it for
/// the ACR1252U (API 5.3: "APDU commands for PCSC 2.0 part 3") and Identiv for its uTrust and
/// CLOUD contactless readers.
///
/// Commands are `FF C2 00 function Lc data-objects`, function 00h Manage Session, 01h Transparent
/// Exchange, 02h Switch Protocol. Manage Session starts (81h) and ends (82h) the session; a
/// Transparent Exchange carries the tag command in a Transceive data object (95h) with a Timer
/// (5F46h, microseconds). The answer is BER-TLV data objects followed by SW1 SW2: C0h (3 bytes:
/// number of the failing data object, SW1, SW2; 00 90 00 when all went well), 92h (the number of
/// valid bits in the last received byte, 0 for all), 96h (response status: a nonzero low nibble
/// of its first byte is a reception error such as a CRC, collision, parity or framing error) and
/// 97h (the ICC response, the tag's answer without CRC).
///
/// The tag's 4-bit ACK or NAK arrives as one byte in 97h with 92h = 4; a reader that omits 92h
/// still sends one byte, which no full Type 2 answer is.
enum TransparentExchange {
    /// Manage Session, start transparent session: `FF C2 00 00 02 81 00`.
    static let startSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]

    /// Manage Session, end transparent session: `FF C2 00 00 02 82 00`.
    static let endSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]

    /// The Timer data object sent with each exchange: 00 01 01 00, 65 792 µs. The value reads the
    /// same in either byte order, as readers' manuals do not agree on it, and covers a WRITE's
    /// 4.1 ms programming time and the longest FAST_READ.
    static let timer: [UInt8] = [0x5F, 0x46, 0x04, 0x00, 0x01, 0x01, 0x00]

    /// The longest Type 2 frame one exchange carries: Lc is one byte and holds the timer and the
    /// Transceive tag and length too.
    static let maximumFrameLength = 240

    /// Transparent Exchange of `frame`: `FF C2 00 01 Lc 5F46 04 timer 95 len frame 00`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for an empty frame or one
    ///   longer than ``maximumFrameLength``.
    static func command(for frame: [UInt8]) throws(NFCReaderError) -> [UInt8] {
        guard !frame.isEmpty, frame.count <= maximumFrameLength else {
            throw NFCReaderError(
                .invalidParameter,
                "a Type 2 frame for a transparent exchange has 1 to \(maximumFrameLength) bytes, not \(frame.count)")
        }
        let transceive = [0x95] + BERTLV.length(frame.count) + frame
        let objects = timer + transceive
        return [0xFF, 0xC2, 0x00, 0x01, UInt8(truncatingIfNeeded: objects.count)] + objects + [0x00]
    }

    /// Whether the answer to Manage Session says the session started (SW 90 00 and, when present,
    /// C0 = 00 90 00).
    static func isSessionAnswerSuccessful(_ bytes: [UInt8]) -> Bool {
        guard let apdu = try? ResponseAPDU(received: bytes, command: "Manage Session"), apdu.isSuccess else {
            return false
        }
        guard let objects = BERTLV.objects(in: apdu.data) else { return false }
        guard let status = objects.first(where: { $0.tag == 0xC0 })?.value else { return true }
        return status.count == 3 && status[1] == 0x90 && status[2] == 0x00
    }

    /// The tag's answer to `frame` from the answer to its Transparent Exchange.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer without a
    ///   status word, a C0 error status 64 00 or 64 01 (no response from the reader or the tag),
    ///   or no ICC response at all; ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for SW or
    ///   C0 status 6A 81 (not supported), 6D 00, 6E 00;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` for other error statuses, a reception
    ///   error in 96h, or malformed data objects.
    static func response(_ bytes: [UInt8], to frame: [UInt8], readerName: String) throws(NFCReaderError)
        -> NFCRawResponse
    {
        let command = Type2CommandName.of(frame)
        let apdu = try ResponseAPDU(received: bytes, command: command)
        if apdu.statusWord.isUnsupportedCommand {
            throw NFCReaderError(
                .unsupportedFeature,
                "the reader \"\(readerName)\" refused the transparent exchange of \(command) (\(apdu.statusWord))")
        }
        guard let objects = BERTLV.objects(in: apdu.data) else {
            throw NFCReaderError(
                .tagResponseError,
                "the answer to \(command) is malformed: its data objects end inside a tag, a length or a value "
                    + "(or use a length form other than 1 to 3 bytes)")
        }
        if let status = objects.first(where: { $0.tag == 0xC0 })?.value {
            try check(status: status, command: command, readerName: readerName)
        }
        guard apdu.isSuccess else {
            throw NFCReaderError(
                .tagResponseError, "the transparent exchange of \(command) failed with \(apdu.statusWord)")
        }
        guard let answer = objects.first(where: { $0.tag == 0x97 })?.value else {
            throw NFCReaderError(.tagConnectionLost, "the tag did not answer \(command) (no ICC response)")
        }
        let validBits = objects.first(where: { $0.tag == 0x92 })?.value.first.map { $0 & 0x07 } ?? 0
        if answer.count == 1, validBits == 4 || validBits == 0 {
            return ShortFrame.answer(answer[0])
        }
        if let receptionStatus = objects.first(where: { $0.tag == 0x96 })?.value.first, receptionStatus & 0x0F != 0 {
            throw NFCReaderError(
                .tagResponseError,
                "the answer to \(command) arrived garbled (response status \(Hex.byte(receptionStatus))h: "
                    + "CRC, collision, parity or framing error)")
        }
        guard !answer.isEmpty else {
            throw NFCReaderError(.tagResponseError, "the tag's answer to \(command) is empty")
        }
        return .data(answer)
    }

    /// Checks the C0 generic error status: `index SW1 SW2`.
    private static func check(status: [UInt8], command: String, readerName: String) throws(NFCReaderError) {
        guard status.count == 3 else {
            throw NFCReaderError(.tagResponseError, "the answer to \(command) has a \(status.count)-byte C0 status")
        }
        let sw = UInt16(status[1]) << 8 | UInt16(status[2])
        let text = "C0 status " + Hex.bytes(status)
        switch sw {
        case 0x9000, 0x6282:
            return
        case 0x6400, 0x6401:
            throw NFCReaderError(.tagConnectionLost, "the tag did not answer \(command) (\(text): no response)")
        case 0x6A81, 0x6D00, 0x6E00:
            throw NFCReaderError(
                .unsupportedFeature,
                "the reader \"\(readerName)\" does not support the exchange of \(command) (\(text))")
        default:
            throw NFCReaderError(.tagResponseError, "the transparent exchange of \(command) failed (\(text))")
        }
    }
}
