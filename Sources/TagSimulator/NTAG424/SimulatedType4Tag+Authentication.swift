import NFCCrypto
import NTAG424

/// The authentications of a simulated NTAG 424 DNA (NT4H2421Gx datasheet 9.1.5-9.1.6,
/// 9.2.5-9.2.6, 10.4) and SetConfiguration (10.5.1).
///
/// The mode (Table 19): a First authentication asks for LRP with PCDCap2.1 bit 1. A tag in AES
/// mode answers such a request as AuthenticateEV2First (E(Kx, RndB), 16 bytes), so the reader
/// can fall back; a tag in LRP mode refuses an AES request with PERMISSION_DENIED and answers an
/// LRP one with AuthMode 01 and RndB in plain. A NonFirst authentication continues in the mode
/// of the session.
extension SimulatedType4Tag {
    /// AuthenticateEV2First or AuthenticateLRPFirst (71h), or a NonFirst (77h), part 1.
    mutating func authenticatePart1(
        _ instruction: UInt8, data: [UInt8], chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> NTAG424NativeAnswer {
        let isFirst = instruction == 0x71
        guard let keyByte = data.first else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        var pcdCap2: [UInt8] = []
        let isLRP: Bool
        if isFirst {
            guard data.count >= 2, data[1] <= 6, data.count == 2 + Int(data[1]) else {
                throw NTAG424Refusal(NTAG424NativeAnswer.lengthError)
            }
            pcdCap2 = Array(data[2...])
            let asksLRP = (pcdCap2.first ?? 0) & 0x02 != 0
            if chip.mode == .lrp && !asksLRP { throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied) }
            isLRP = chip.mode == .lrp
        } else {
            guard data.count == 1 else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
            guard let session = chip.session else { throw NTAG424Refusal(NTAG424NativeAnswer.noSuchKey) }
            isLRP = session.mode == .lrp
        }
        guard keyByte & 0xC0 == 0, Int(keyByte) < chip.keys.count else {
            throw NTAG424Refusal(NTAG424NativeAnswer.noSuchKey)
        }
        let keyNumber = Int(keyByte)
        if isFirst { chip.session = nil }
        do {
            let rndB = try SecureRandom.bytes(count: 16)
            let challenge =
                isLRP ? [0x01] + rndB : try NTAG424Authentication.challenge(key: chip.keys[keyNumber], rndB: rndB)
            chip.pendingAuthentication = .init(
                keyNumber: keyNumber, rndB: rndB, isFirst: isFirst, pcdCap2: pcdCap2, isLRP: isLRP)
            return NTAG424NativeAnswer(data: challenge, status: NTAG424NativeAnswer.additionalFrame)
        } catch let error as NTAG424Error {
            throw NTAG424Refusal(error)
        } catch {
            throw NTAG424Refusal(NTAG424NativeAnswer.commandAborted)
        }
    }

    /// Part 2: checks the reader's answer and answers (TI and the capabilities, with the proof)
    /// for a First, the proof alone for a NonFirst; 91 AE for a wrong key.
    mutating func authenticatePart2(
        _ data: [UInt8], pending: SimulatedNTAG424Chip.PendingAuthentication, chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> NTAG424NativeAnswer {
        guard data.count == 32 else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        do {
            let previous = chip.session
            if !pending.isFirst && previous == nil { throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError) }
            let answer =
                pending.isLRP
                ? try lrpPart2(data, pending: pending, chip: &chip, previous: previous)
                : try aesPart2(data, pending: pending, chip: &chip, previous: previous)
            return NTAG424NativeAnswer(data: answer, status: 0x00)
        } catch let refusal as NTAG424Refusal {
            throw refusal
        } catch let error as NTAG424Error {
            throw NTAG424Refusal(error.code == .authenticationError ? NTAG424NativeAnswer.authenticationError : 0x7E)
        } catch {
            throw NTAG424Refusal(NTAG424NativeAnswer.commandAborted)
        }
    }

    /// The capabilities a First authentication echoes: PCDCap2 padded or cut to 6 bytes.
    private static func echoed(_ pcdCap2: [UInt8]) -> [UInt8] {
        Array((pcdCap2 + [0, 0, 0, 0, 0, 0]).prefix(6))
    }

    private func aesPart2(
        _ data: [UInt8], pending: SimulatedNTAG424Chip.PendingAuthentication, chip: inout SimulatedNTAG424Chip,
        previous: NTAG424SecureChannel?
    ) throws -> [UInt8] {
        let key = chip.keys[pending.keyNumber]
        let rndA = try NTAG424Authentication.checkAnswer(data, key: key, rndB: pending.rndB)
        let keys = try NTAG424SessionKeys(key: key, rndA: rndA, rndB: pending.rndB)
        guard let previous else {
            let ti = try SecureRandom.bytes(count: 4)
            let response = try NTAG424Authentication.tagResponseFirst(
                key: key, transactionIdentifier: ti, rndA: rndA, pdCap2: chip.pdCap2,
                pcdCap2: Self.echoed(pending.pcdCap2))
            chip.session = try NTAG424SecureChannel(
                keys: keys, transactionIdentifier: ti, commandCounter: 0, keyNumber: pending.keyNumber)
            return response
        }
        chip.session = try NTAG424SecureChannel(
            keys: keys, transactionIdentifier: previous.transactionIdentifier,
            commandCounter: previous.commandCounter, keyNumber: pending.keyNumber)
        return try NTAG424Authentication.tagResponseNonFirst(key: key, rndA: rndA)
    }

    private func lrpPart2(
        _ data: [UInt8], pending: SimulatedNTAG424Chip.PendingAuthentication, chip: inout SimulatedNTAG424Chip,
        previous: NTAG424SecureChannel?
    ) throws -> [UInt8] {
        let key = chip.keys[pending.keyNumber]
        let (rndA, keys) = try NTAG424LRPAuthentication.checkAnswer(data, key: key, rndB: pending.rndB)
        guard let previous else {
            let ti = try SecureRandom.bytes(count: 4)
            let response = try NTAG424LRPAuthentication.tagResponseFirst(
                keys: keys, transactionIdentifier: ti, rndA: rndA, rndB: pending.rndB, pdCap2: chip.pdCap2,
                pcdCap2: Self.echoed(pending.pcdCap2))
            chip.session = try NTAG424SecureChannel(
                lrpKeys: keys, transactionIdentifier: ti, encryptionCounter: 1, keyNumber: pending.keyNumber)
            return response
        }
        chip.session = try NTAG424SecureChannel(
            lrpKeys: keys, transactionIdentifier: previous.transactionIdentifier,
            commandCounter: previous.commandCounter, encryptionCounter: 0, keyNumber: pending.keyNumber)
        return try NTAG424LRPAuthentication.tagResponseNonFirst(keys: keys, rndA: rndA, rndB: pending.rndB)
    }

    /// SetConfiguration (5Ch, 10.5.1) in CommMode Full, with key 0's session. Option 05h
    /// (capabilities: 4 RFU bytes, PDCap2.1, 3 RFU bytes, PDCap2.5, PDCap2.6): PDCap2.1 = 02h
    /// switches the tag to LRP for good; the answer then has no MAC, and the session ends. A tag
    /// in LRP refuses to go back (PARAMETER_ERROR). Other options: PARAMETER_ERROR.
    mutating func setConfiguration(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        guard let session = chip.session, session.keyNumber == 0 else {
            throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError)
        }
        let opened = try opened(0x5C, data, headerCount: 1, mode: .full, chip: &chip)
        switch opened.header[0] {
        case 0x05:
            guard opened.body.count == 10 else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
            let wantsLRP = opened.body[4] & 0x02 != 0
            if chip.mode == .lrp && !wantsLRP { throw NTAG424Refusal(NTAG424NativeAnswer.parameterError) }
            if wantsLRP && chip.mode == .aes {
                chip.mode = .lrp
                chip.dropAuthentication()
                return NTAG424NativeAnswer(data: [], status: 0x00)
            }
            return try answered([], mode: .mac, chip: &chip)
        case 0x07:
            // TagTamper (NT4H2421Tx): TTConfig (bit 0 enables it, for good) and TTStatusKey.
            guard var tamper = chip.tagTamper else { throw NTAG424Refusal(NTAG424NativeAnswer.parameterError) }
            guard opened.body.count == 2 else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
            guard opened.body[0] & 0xFE == 0, let key = NTAG424Access(nibble: opened.body[1]),
                opened.body[1] & 0xF0 == 0
            else { throw NTAG424Refusal(NTAG424NativeAnswer.parameterError) }
            if opened.body[0] & 0x01 != 0 { tamper.isEnabled = true }
            tamper.statusKey = key
            chip.tagTamper = tamper
            return try answered([], mode: .mac, chip: &chip)
        default:
            throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
        }
    }

    /// GetTTStatus (F7h, NT4H2421Tx): TTPermStatus and TTCurrStatus, the loop sampled; plain
    /// without a session (TTStatusKey free), CommMode Full in one; TTStatusKey a key needs that
    /// key's session (91 AE), Fh refuses (91 9D). Not an NTAG 424 DNA TT: ILLEGAL_COMMAND.
    mutating func getTagTamperStatus(
        _ data: [UInt8], chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> NTAG424NativeAnswer {
        guard var tamper = chip.tagTamper else { throw NTAG424Refusal(NTAG424NativeAnswer.illegalCommand) }
        switch tamper.statusKey {
        case .never: throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied)
        case .key(let number):
            guard chip.session?.keyNumber == number else {
                throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError)
            }
        case .free: break
        }
        guard try opened(0xF7, data, headerCount: 0, mode: .full, chip: &chip).body.isEmpty else {
            throw NTAG424Refusal(NTAG424NativeAnswer.lengthError)
        }
        let status = tamper.sample()
        chip.tagTamper = tamper
        return try answered(status.bytes, mode: .full, chip: &chip)
    }
}
