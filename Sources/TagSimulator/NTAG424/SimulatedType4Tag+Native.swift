import NFCCrypto
import NFCWireFormat
import NTAG424

/// The native commands of NTAG 424 DNA (CLA 90h, NT4H2421Gx datasheet 10.4-10.10), answered by a
/// simulated Type 4 tag that has ``SimulatedType4Tag/ntag424`` state.
///
/// Every command is `90 INS 00 00 [Lc data] 00`; the answer is the response data then `91 xx`.
/// In an authenticated session, command data and responses use the command's CommMode
/// (``NTAG424/NTAG424SecureChannel``), any error ends the session (9.1.9), and the command
/// counter counts every command, plain ones too (9.1.8).
extension SimulatedType4Tag {
    /// The answer to a native command APDU.
    mutating func nativeCommand(_ bytes: [UInt8]) -> [UInt8] {
        guard var chip = ntag424 else { return StatusWord.classNotSupported.bytes }
        defer { ntag424 = chip }
        guard bytes.count >= 5, bytes[2] == 0, bytes[3] == 0 else {
            return NTAG424NativeAnswer.error(NTAG424NativeAnswer.lengthError).bytes
        }
        let data: [UInt8]
        if bytes.count == 5 {
            data = []
        } else {
            let count = Int(bytes[4])
            guard bytes.count == 6 + count, bytes.last == 0x00, count > 0 else {
                return NTAG424NativeAnswer.error(NTAG424NativeAnswer.lengthError).bytes
            }
            data = Array(bytes[5..<(5 + count)])
        }
        let instruction = bytes[1]
        if instruction != 0xAF {
            chip.pendingAuthentication = nil
            chip.pendingVersion = nil
        }
        do {
            return try answerNative(instruction, data: data, chip: &chip).bytes
        } catch {
            // Any error in an authenticated session ends it (NT4H2421Gx 9.1.9).
            chip.dropAuthentication()
            return NTAG424NativeAnswer.error(error.status).bytes
        }
    }

    private mutating func answerNative(
        _ instruction: UInt8, data: [UInt8], chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> NTAG424NativeAnswer {
        switch instruction {
        case 0xAF: return try continueFrames(data, chip: &chip)
        case 0x60: return try getVersion(data, chip: &chip)
        case 0x71, 0x77: return try authenticatePart1(instruction, data: data, chip: &chip)
        case 0x3C: return try readSignature(data, chip: &chip)
        default: break
        }
        guard isApplicationSelected else { throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied) }
        switch instruction {
        case 0xF5: return try getFileSettings(data, chip: &chip)
        case 0x5F: return try changeFileSettings(data, chip: &chip)
        case 0x64: return try getKeyVersion(data, chip: &chip)
        case 0x51: return try getCardUID(data, chip: &chip)
        case 0xC4: return try changeKey(data, chip: &chip)
        case 0x5C: return try setConfiguration(data, chip: &chip)
        case 0xF7: return try getTagTamperStatus(data, chip: &chip)
        case 0xAD: return try readData(data, chip: &chip)
        case 0x8D: return try writeData(data, chip: &chip)
        case 0xF6: return try getFileCounters(data, chip: &chip)
        default: throw NTAG424Refusal(NTAG424NativeAnswer.illegalCommand)
        }
    }

    // MARK: Secure messaging helpers

    /// The command's data after its `header` bytes: checked and decrypted in `mode` when
    /// authenticated, as sent otherwise.
    func opened(
        _ instruction: UInt8, _ data: [UInt8], headerCount: Int, mode: NTAG424CommunicationMode,
        chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> (header: [UInt8], body: [UInt8]) {
        guard data.count >= headerCount else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        let header = Array(data[0..<headerCount])
        let rest = Array(data[headerCount...])
        guard var session = chip.session else { return (header, rest) }
        do {
            let body = try session.openCommand(instruction, header: header, payload: rest, mode: mode)
            chip.session = session
            return (header, body)
        } catch {
            throw NTAG424Refusal(error)
        }
    }

    /// A successful answer with `data` in `mode` (counting the command in a session).
    func answered(
        _ data: [UInt8], mode: NTAG424CommunicationMode, chip: inout SimulatedNTAG424Chip, status: UInt8 = 0x00
    ) throws(NTAG424Refusal) -> NTAG424NativeAnswer {
        guard var session = chip.session else { return NTAG424NativeAnswer(data: data, status: status) }
        do {
            let payload = try session.protectResponse(status: status, data: data, mode: mode)
            chip.session = session
            return NTAG424NativeAnswer(data: payload, status: status)
        } catch {
            throw NTAG424Refusal(error)
        }
    }

    /// The file number in `byte` (bits 4-0) when the application has that file.
    func fileNumber(_ byte: UInt8?, chip: SimulatedNTAG424Chip) throws(NTAG424Refusal) -> UInt8 {
        guard let byte else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        guard byte & 0xE0 == 0 else { throw NTAG424Refusal(NTAG424NativeAnswer.parameterError) }
        guard chip.fileSettings[byte] != nil else { throw NTAG424Refusal(NTAG424NativeAnswer.fileNotFound) }
        return byte
    }

    // MARK: Commands without a file

    /// GetVersion (60h, 10.5.2): three frames, hardware, software and production data; MAC mode
    /// in a session, with the MAC over all three frames on the last.
    private mutating func getVersion(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        _ = try opened(0x60, data, headerCount: 0, mode: .mac, chip: &chip)
        // HWSubType 08h: 50 pF with TagTamper (NT4H2421Tx; AN12196 Table 12), 02h without.
        let hardware: [UInt8] = [0x04, 0x04, chip.tagTamper == nil ? 0x02 : 0x08, 0x30, 0x00, 0x11, 0x05]
        chip.pendingVersion = (2, hardware)
        return NTAG424NativeAnswer(data: hardware, status: NTAG424NativeAnswer.additionalFrame)
    }

    /// `90 AF`: the next GetVersion frame, or the second part of an authentication.
    private mutating func continueFrames(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        if let pending = chip.pendingAuthentication {
            chip.pendingAuthentication = nil
            return try authenticatePart2(data, pending: pending, chip: &chip)
        }
        guard let version = chip.pendingVersion, data.isEmpty else {
            throw NTAG424Refusal(NTAG424NativeAnswer.commandAborted)
        }
        if version.framesLeft == 2 {
            let software: [UInt8] = [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05]
            chip.pendingVersion = (1, version.sent + software)
            return NTAG424NativeAnswer(data: software, status: NTAG424NativeAnswer.additionalFrame)
        }
        chip.pendingVersion = nil
        let production = uid + [0xCF, 0x5C, 0xD4, 0x55, 0x60, 0x43, 0x26]
        guard var session = chip.session else { return NTAG424NativeAnswer(data: production, status: 0x00) }
        do {
            // The MAC covers the three frames; only the last carries it.
            let mac = try session.protectResponse(status: 0x00, data: version.sent + production, mode: .mac).suffix(8)
            chip.session = session
            return NTAG424NativeAnswer(data: production + mac, status: 0x00)
        } catch {
            throw NTAG424Refusal(error)
        }
    }

    /// Read_Sig (3Ch, 10.10.1): the 56-byte signature, plain, or in CommMode Full in a session;
    /// real chips answer 91 90, which the response MAC covers.
    private mutating func readSignature(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let opened = try opened(0x3C, data, headerCount: 1, mode: .full, chip: &chip)
        guard opened.header == [0x00], opened.body.isEmpty else {
            throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
        }
        return try answered(chip.signature, mode: .full, chip: &chip, status: 0x90)
    }

    /// GetCardUID (51h, 10.5.3): the UID in CommMode Full; 91 AE without authentication.
    private mutating func getCardUID(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        guard chip.session != nil else { throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError) }
        guard try opened(0x51, data, headerCount: 0, mode: .full, chip: &chip).body.isEmpty else {
            throw NTAG424Refusal(NTAG424NativeAnswer.lengthError)
        }
        return try answered(uid, mode: .full, chip: &chip)
    }

    /// GetKeyVersion (64h, 10.6.2): one byte; MAC mode in a session.
    private mutating func getKeyVersion(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let opened = try opened(0x64, data, headerCount: 1, mode: .mac, chip: &chip)
        guard opened.body.isEmpty else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        let number = Int(opened.header[0])
        guard opened.header[0] & 0xF0 == 0, chip.keys.indices.contains(number) else {
            throw NTAG424Refusal(NTAG424NativeAnswer.noSuchKey)
        }
        return try answered([chip.keyVersions[number]], mode: .mac, chip: &chip)
    }

    /// ChangeKey (C4h, 10.6.1): needs a session with key 0; the data in CommMode Full. Changing
    /// the key the session uses ends it, and the answer has no MAC.
    private mutating func changeKey(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        guard let session = chip.session, session.keyNumber == 0 else {
            throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError)
        }
        let opened = try opened(0xC4, data, headerCount: 1, mode: .full, chip: &chip)
        let number = Int(opened.header[0])
        guard opened.header[0] & 0xC0 == 0, chip.keys.indices.contains(number) else {
            throw NTAG424Refusal(NTAG424NativeAnswer.noSuchKey)
        }
        do {
            let new = try NTAG424ChangeKey.newKey(
                in: opened.body, keyNumber: number, oldKey: chip.keys[number], authenticatedKey: session.keyNumber)
            chip.keys[number] = new.key
            chip.keyVersions[number] = new.version
        } catch {
            throw NTAG424Refusal(error)
        }
        if number == session.keyNumber {
            chip.dropAuthentication()
            return NTAG424NativeAnswer(data: [], status: 0x00)
        }
        return try answered([], mode: .mac, chip: &chip)
    }
}
