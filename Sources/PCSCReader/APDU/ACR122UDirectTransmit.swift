import HexText
import NFCSession
import NFCWireFormat

/// The pseudo-APDUs of the ACS ACR122U (ACR122U application programming interface, section 6:
/// "Direct Transmit" `FF 00 00 00 Lc` carrying a PN532 command) and the PN532 commands the
/// `acr122u` profile sends through them (NXP PN532 user manual 7.3.9 InCommunicateThru, 7.2.4
/// ReadRegister, 7.2.5 WriteRegister).
///
/// A Type 2 frame travels in InCommunicateThru (`D4 42 frame`); the PN532 appends CRC_A and
/// answers `D5 43 status data`, followed by the reader's `90 00`. The status byte's low six bits
/// are the PN532 error code (user manual 7.1, table "error codes"): 00h success, 01h timeout (the
/// tag did not answer), 02h CRC error, 03h parity error, and so on.
///
/// A 4-bit ACK or NAK needs care: while the PN532 checks the receive CRC itself (as the reader's
/// firmware leaves it after activating a tag) it reports a 4-bit answer as a CRC error, 02h,
/// which cannot be told from a real one (nfcpy's pn53x driver and libnfc both switch the receive
/// CRC off for this reason). The profile therefore clears bit 7 (RxCRCEn) of the CIU_RxMode
/// register (6303h) after selecting a tag, through ReadRegister and WriteRegister, and checks the
/// CRC itself (``CRCMode/host``): a 4-bit answer then arrives as status 00h with one byte whose
/// low nibble is the ACK or NAK, and full answers carry their two CRC_A bytes. A reader that
/// refuses the register commands stays in ``CRCMode/reader`` mode, where one data byte still
/// reads as a 4-bit answer (no Type 2 command answers a single full byte) and status 02h is a
/// CRC error.
enum ACR122UDirectTransmit {
    /// Who checks the CRC of the tag's answers.
    enum CRCMode: Sendable, Hashable {
        /// The PN532 checks and strips it (the firmware's setting).
        case reader
        /// The receive CRC is off: answers arrive with their CRC, which the host checks.
        case host
    }

    /// The CIU_RxMode register of the PN532 (PN532 user manual 8.6.23.3; PN512 datasheet 9.2.2.4).
    static let rxModeRegister: UInt16 = 0x6303

    /// RxCRCEn, bit 7 of CIU_RxMode: the PN532 checks and strips the receive CRC.
    static let rxCRCEnable: UInt8 = 0x80

    /// InCommunicateThru with `frame`: `FF 00 00 00 Lc D4 42 frame`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for an empty frame or one
    ///   longer than ``NFCWireFormat/ACR122UPseudoAPDU/maximumFrameLength``.
    static func command(for frame: [UInt8]) throws(NFCReaderError) -> [UInt8] {
        guard let command = ACR122UPseudoAPDU.inCommunicateThru(frame) else {
            throw NFCReaderError(
                .invalidParameter,
                "a Type 2 frame for InCommunicateThru has 1 to \(ACR122UPseudoAPDU.maximumFrameLength) bytes, "
                    + "not \(frame.count)")
        }
        return command
    }

    /// The tag's answer to `frame` from the answer to its InCommunicateThru.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer without a
    ///   status word, for SW 63 00 (the reader reports the command failed) and for PN532 status
    ///   01h (timeout), 0Ah (RF field), 29h (target released) and 2Bh (card disappeared);
    ///   ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for SW 6A 81, 6D 00, 6E 00;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` for status 02h (CRC), any other
    ///   error status, a malformed answer, a CRC mismatch in ``CRCMode/host`` mode, or an
    ///   empty answer.
    static func response(_ bytes: [UInt8], to frame: [UInt8], crcMode: CRCMode) throws(NFCReaderError)
        -> NFCRawResponse
    {
        let command = Type2CommandName.of(frame)
        let apdu = try ResponseAPDU(received: bytes, command: command)
        guard apdu.isSuccess else {
            if apdu.statusWord == .failed {
                throw NFCReaderError(
                    .tagConnectionLost, "the reader reports that \(command) failed (SW 63 00): the tag may have left")
            }
            if apdu.statusWord.isUnsupportedCommand {
                throw NFCReaderError(.unsupportedFeature, "the reader refused Direct Transmit (\(apdu.statusWord))")
            }
            throw NFCReaderError(.tagResponseError, "Direct Transmit of \(command) failed with \(apdu.statusWord)")
        }
        let data = apdu.data
        guard data.count >= 3, data[0] == 0xD5, data[1] == 0x43 else {
            throw NFCReaderError(
                .tagResponseError, "the reader's answer to \(command) is not an InCommunicateThru answer (D5 43)")
        }
        let status = data[2] & 0x3F
        guard status == 0 else { throw statusError(status, command: command, crcMode: crcMode) }
        let answer = Array(data[3...])
        switch answer.count {
        case 0:
            throw NFCReaderError(.tagResponseError, "the tag's answer to \(command) is empty")
        case 1:
            return ShortFrame.answer(answer[0])
        default:
            switch crcMode {
            case .reader: return .data(answer)
            case .host: return .data(try ShortFrame.strippingCRC(answer, command: command))
            }
        }
    }

    /// The error for a PN532 status other than 00h.
    static func statusError(_ status: UInt8, command: String, crcMode: CRCMode) -> NFCReaderError {
        let name = PN532Command.errorNames[status] ?? "unknown error"
        let text = "PN532 status \(Hex.byte(status))h, \(name)"
        switch status {
        case 0x01, 0x0A, 0x29, 0x2B:
            return NFCReaderError(.tagConnectionLost, "the tag did not answer \(command) (\(text))")
        case 0x02 where crcMode == .reader:
            return NFCReaderError(
                .tagResponseError,
                "the answer to \(command) failed the CRC check (\(text); a 4-bit ACK or NAK shows the same way "
                    + "while the reader checks CRC)")
        default:
            return NFCReaderError(.tagResponseError, "\(command) failed (\(text))")
        }
    }
}
