import NFCSession

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

    /// The longest frame one Direct Transmit can carry: Lc is one byte and holds `D4 42` too.
    static let maximumFrameLength = 253

    /// The firmware version request `FF 00 48 00 00`, answered with ASCII text such as
    /// `ACR122U207` (ACR122U API 5.3), without a status word on most firmware.
    static let getFirmwareVersion: [UInt8] = [0xFF, 0x00, 0x48, 0x00, 0x00]

    /// GET RESPONSE `FF C0 00 00 length`: firmware 1.x answers a Direct Transmit with 61 xx and
    /// hands out the answer only on request (ACR122U API 1.0, section 6).
    static func getResponse(length: UInt8) -> [UInt8] {
        [0xFF, 0xC0, 0x00, 0x00, length]
    }

    /// `FF 00 00 00 Lc` around a PN532 command (`D4 code parameters`).
    static func directTransmit(_ pn532Command: [UInt8]) -> [UInt8] {
        [0xFF, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: pn532Command.count)] + pn532Command
    }

    /// InCommunicateThru with `frame`: `FF 00 00 00 Lc D4 42 frame`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for an empty frame or one
    ///   longer than ``maximumFrameLength``.
    static func command(for frame: [UInt8]) throws(NFCReaderError) -> [UInt8] {
        guard !frame.isEmpty, frame.count <= maximumFrameLength else {
            throw NFCReaderError(
                .invalidParameter,
                "a Type 2 frame for InCommunicateThru has 1 to \(maximumFrameLength) bytes, not \(frame.count)")
        }
        return directTransmit([0xD4, 0x42] + frame)
    }

    /// ReadRegister of one register: `D4 06 hi lo`.
    static func readRegister(_ address: UInt16) -> [UInt8] {
        directTransmit([0xD4, 0x06, UInt8(truncatingIfNeeded: address >> 8), UInt8(truncatingIfNeeded: address)])
    }

    /// WriteRegister of one register: `D4 08 hi lo value`.
    static func writeRegister(_ address: UInt16, _ value: UInt8) -> [UInt8] {
        directTransmit([0xD4, 0x08, UInt8(truncatingIfNeeded: address >> 8), UInt8(truncatingIfNeeded: address), value])
    }

    /// The register value from the answer to ReadRegister (`D5 07 value 90 00`); nil for any other
    /// answer (a reader or emulator without the command).
    static func registerValue(_ bytes: [UInt8]) -> UInt8? {
        guard bytes.count == 5, bytes[0] == 0xD5, bytes[1] == 0x07, bytes[3] == 0x90, bytes[4] == 0x00 else {
            return nil
        }
        return bytes[2]
    }

    /// Whether `bytes` is the answer of a successful WriteRegister (`D5 09 90 00`).
    static func isRegisterWritten(_ bytes: [UInt8]) -> Bool {
        bytes == [0xD5, 0x09, 0x90, 0x00]
    }

    /// The text of the firmware version answer (printable ASCII, a trailing `90 00` dropped);
    /// nil when the answer is not text.
    static func firmwareVersion(_ bytes: [UInt8]) -> String? {
        var text = bytes
        if text.count >= 2, text.suffix(2) == [0x90, 0x00] { text.removeLast(2) }
        guard !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
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
        let apdu = try ResponseAPDU(bytes, command: command)
        guard apdu.isSuccess else {
            if apdu.statusWord == 0x6300 {
                throw NFCReaderError(
                    .tagConnectionLost, "the reader reports that \(command) failed (SW 63 00): the tag may have left")
            }
            if apdu.isUnsupportedCommand {
                throw NFCReaderError(.unsupportedFeature, "the reader refused Direct Transmit (\(apdu.statusText))")
            }
            throw NFCReaderError(.tagResponseError, "Direct Transmit of \(command) failed with \(apdu.statusText)")
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
        let name = statusNames[status] ?? "unknown error"
        let text = "PN532 status \(PCSCHex.byte(status))h, \(name)"
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

    /// PN532 error codes (PN532 user manual 7.1).
    static let statusNames: [UInt8: String] = [
        0x01: "timeout", 0x02: "CRC error", 0x03: "parity error", 0x04: "erroneous bit count",
        0x05: "framing error", 0x06: "bit collision", 0x07: "buffer too small", 0x09: "RF buffer overflow",
        0x0A: "RF field not switched on in time", 0x0B: "RF protocol error", 0x0D: "overheating",
        0x0E: "internal buffer overflow", 0x10: "invalid parameter", 0x12: "DEP: unknown command",
        0x13: "invalid received frame", 0x14: "MIFARE authentication error", 0x23: "wrong UID check byte",
        0x25: "invalid device state", 0x26: "operation not allowed", 0x27: "command not acceptable now",
        0x29: "target released", 0x2A: "card ID mismatch", 0x2B: "card disappeared", 0x2C: "NFCID3 mismatch",
        0x2D: "over-current", 0x2E: "NAD missing",
    ]
}
