import HexText
import NFCCrypto
import NTAG424
import TagMemory

/// An NTAG 424 DNA reached through an ``NFCISO7816Tag``: its native commands (NT4H2421Gx
/// datasheet 10.4-10.10, CLA 90h) with AES or LRP secure messaging
/// (``NTAG424/NTAG424SecureChannel``).
///
/// Commands run one at a time, in the order they are called; the secure messaging session lives
/// in this object, from ``authenticate(keyNumber:key:)`` until a command fails (the tag ends the
/// session on any error, 9.1.9), the key it used is changed, or ``endSession()``. Keys are never
/// kept, logged or put in an error: only the session keys, in memory, for the session.
///
/// PWD_AUTH-style retries do not exist here either: an authentication is sent once; the tag
/// counts failures (TotFailCtr) and slows down or blocks a key after many.
public actor NFCNTAG424Tag {
    /// The ISO-DEP tag.
    public nonisolated let tag: NFCISO7816Tag
    /// The secure messaging session, when authenticated.
    public private(set) var session: NTAG424SecureChannel?

    /// The NTAG 424 DNA behind `tag`.
    public init(_ tag: NFCISO7816Tag) {
        self.tag = tag
    }

    /// The UID the tag was polled with.
    public nonisolated var identifier: [UInt8] { tag.identifier }

    /// ISOSelectFile of the NDEF application by its DF name `D2760000850101` (10.9.1); the
    /// session, if any, is dropped (NXP's reader library does the same).
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` when the tag has no such application.
    public func selectApplication() async throws(NFCReaderError) {
        session = nil
        let response = try await tag.sendCommand(apdu: [0x00, 0xA4, 0x04, 0x0C, 0x07] + Self.applicationName + [0x00])
        guard response.sw1 == 0x90, response.sw2 == 0x00 else {
            throw NFCReaderError(
                .tagNotSupported,
                "the tag has no NTAG 424 DNA NDEF application (SELECT answered \(Hex.bytes([response.sw1, response.sw2])))"
            )
        }
    }

    /// The DF name of the NDEF application.
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]

    /// GetVersion (60h, 10.5.2): the 28 bytes of its three frames (hardware, software,
    /// production data with the UID).
    public func version() async throws(NFCReaderError) -> [UInt8] {
        var frames = try await command(0x60, header: [], data: [], mode: .mac, expectsMore: true)
        frames += try await continueFrame()
        let last = try await continueFrame(last: true)
        return frames + last
    }

    /// The cipher the tag speaks, once an authentication has told it: AES as delivered, or LRP
    /// after SetConfiguration option 05h (NT4H2421Gx 9 Table 19).
    public private(set) var mode: NTAG424CryptoMode?

    /// The first authentication's command data after KeyNo: LenCap 6 and PCDCap2 with bit 1 of
    /// PCDCap2.1 set, which asks for LRP. A tag in AES mode answers it as AuthenticateEV2First
    /// (E(Kx, RndB), 16 bytes), a tag in LRP mode as AuthenticateLRPFirst (AuthMode 01 and RndB,
    /// 17 bytes): one command learns the mode, whichever it is (9 Table 19).
    static let firstCapabilities: [UInt8] = [0x06, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// AuthenticateEV2First or AuthenticateLRPFirst (71h) with key `keyNumber` (0-4), sent once:
    /// the tag's answer to the first part says its mode (``mode``), and the second part follows
    /// it.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationFailed`` when the tag refuses the key (91 AE)
    ///   or does not prove it holds it; ``NFCReaderError/Code/invalidParameter`` for a key that
    ///   is not 16 bytes or a key number the tag does not have.
    public func authenticate(keyNumber: Int, key: [UInt8]) async throws(NFCReaderError) {
        guard (0...4).contains(keyNumber), key.count == 16 else {
            throw NFCReaderError(.invalidParameter, "NTAG 424 DNA keys are numbered 0-4 and are 16 bytes")
        }
        session = nil
        let first = try await native(0x71, [UInt8(keyNumber)] + Self.firstCapabilities)
        let isLRP = first.data.count == 17 && first.data.first == 0x01
        let name = isLRP ? "AuthenticateLRPFirst" : "AuthenticateEV2First"
        guard first.status == 0xAF, first.data.count == 16 || isLRP else {
            throw Self.error(first.status, during: "\(name) with key \(keyNumber)")
        }
        do {
            let rndA = try SecureRandom.bytes(count: 16)
            let answer =
                isLRP
                ? try NTAG424LRPAuthentication.answer(challenge: first.data, key: key, rndA: rndA)
                : try NTAG424Authentication.answer(challenge: first.data, key: key, rndA: rndA)
            let second = try await native(0xAF, answer.data)
            guard second.status == 0x00 else {
                guard second.status == 0xAE else {
                    throw Self.error(second.status, during: "\(name) with key \(keyNumber)")
                }
                throw NFCReaderError(
                    .authenticationFailed,
                    "\(name) with key \(keyNumber) answered 91 AE: the tag holds another key \(keyNumber)")
            }
            session =
                try
                (isLRP
                ? NTAG424LRPAuthentication.finishFirst(
                    response: second.data, key: key, answer: answer, keyNumber: keyNumber)
                : NTAG424Authentication.finishFirst(
                    response: second.data, key: key, answer: answer, keyNumber: keyNumber)).channel
            mode = isLRP ? .lrp : .aes
        } catch let error as NFCReaderError {
            throw error
        } catch let error as NTAG424Error {
            throw NFCReaderError(.authenticationFailed, "key \(keyNumber): \(error.reason)")
        } catch {
            throw NFCReaderError(.tagResponseError, "\(name): \(error)")
        }
    }

    /// Records the mode a command has set (``switchToLRP()``).
    func setMode(_ mode: NTAG424CryptoMode) {
        self.mode = mode
    }

    /// Forgets the session (the tag keeps it until its next error or deselection).
    public func endSession() {
        session = nil
    }

    /// GetCardUID (51h, 10.5.3): the UID, in CommMode Full; needs a session.
    public func cardUID() async throws(NFCReaderError) -> [UInt8] {
        try await command(0x51, header: [], data: [], mode: .full)
    }

    /// GetKeyVersion (64h, 10.6.2).
    public func keyVersion(_ keyNumber: Int) async throws(NFCReaderError) -> UInt8 {
        let data = try await command(0x64, header: [UInt8(clamping: keyNumber)], data: [], mode: .mac)
        guard data.count == 1 else {
            throw NFCReaderError(.tagResponseError, "GetKeyVersion answered \(data.count) bytes")
        }
        return data[0]
    }

    /// GetFileSettings (F5h, 10.7.2) of file `file` (01 CC, 02 NDEF, 03 proprietary).
    public func fileSettings(_ file: UInt8) async throws(NFCReaderError) -> NTAG424FileSettings {
        let data = try await command(0xF5, header: [file], data: [], mode: .mac)
        do {
            return try NTAG424FileSettings(response: data)
        } catch {
            throw NFCReaderError(.tagResponseError, "the settings of file \(file) do not parse: \(error.reason)")
        }
    }

    /// ChangeFileSettings (5Fh, 10.7.1) in CommMode Full: needs a session with the file's Change
    /// key. The settings are checked first (``NTAG424/NTAG424FileSettings/validate(mode:)``, in the session's mode).
    public func changeFileSettings(_ file: UInt8, to settings: NTAG424FileSettings) async throws(NFCReaderError) {
        do {
            try settings.validate(mode: session?.mode ?? .aes)
        } catch {
            throw NFCReaderError(.invalidParameter, "file \(file) settings: \(error.reason)")
        }
        _ = try await command(0x5F, header: [file], data: settings.changeCommandData, mode: .full, responseMode: .mac)
    }

    /// ChangeKey (C4h, 10.6.1) of `keyNumber` to `newKey` with `version`, in a session with key
    /// 0; `oldKey` is the key's current value (not needed for key 0). Changing key 0 ends the
    /// session (the tag answers without MAC).
    public func changeKey(
        _ keyNumber: Int, to newKey: [UInt8], version: UInt8, oldKey: [UInt8]?
    ) async throws(NFCReaderError) {
        guard let current = session else {
            throw NFCReaderError(.authenticationRequired, "ChangeKey needs a session with key 0")
        }
        let data: [UInt8]
        do {
            data = try NTAG424ChangeKey.commandData(
                keyNumber: keyNumber, newKey: newKey, version: version, oldKey: oldKey,
                authenticatedKey: current.keyNumber)
        } catch {
            throw NFCReaderError(.invalidParameter, error.reason)
        }
        let changesSessionKey = keyNumber == current.keyNumber
        _ = try await command(
            0xC4, header: [UInt8(keyNumber)], data: data, mode: .full, responseMode: changesSessionKey ? .plain : .mac)
        if changesSessionKey { session = nil }
    }

    /// ReadData (ADh, 10.8.1) of `length` bytes (0: to the end) at `offset` of `file`, in
    /// `mode` (the file's CommMode in a session, plain without).
    public func readData(
        file: UInt8, offset: Int, length: Int, mode: NTAG424CommunicationMode
    ) async throws(NFCReaderError) -> [UInt8] {
        let header = [file] + Self.littleEndian(offset) + Self.littleEndian(length)
        return try await command(0xAD, header: header, data: [], mode: session == nil ? .plain : mode)
    }

    /// WriteData (8Dh, 10.8.2) of `data` at `offset` of `file`, in `mode`.
    public func writeData(
        file: UInt8, offset: Int, data: [UInt8], mode: NTAG424CommunicationMode
    ) async throws(NFCReaderError) {
        let header = [file] + Self.littleEndian(offset) + Self.littleEndian(data.count)
        let used = session == nil ? NTAG424CommunicationMode.plain : mode
        _ = try await command(
            0x8D, header: header, data: data, mode: used, responseMode: used == .plain ? .plain : .mac)
    }

    /// GetFileCounters (F6h, 10.7.3): SDMReadCtr of `file`; plain where SDMCtrRet is free, in
    /// CommMode Full in a session with its key.
    public func fileCounter(_ file: UInt8) async throws(NFCReaderError) -> Int {
        let data = try await command(0xF6, header: [file], data: [], mode: .full)
        guard data.count == 5 else {
            throw NFCReaderError(.tagResponseError, "GetFileCounters answered \(data.count) bytes")
        }
        return Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16
    }

    /// Read_Sig (3Ch, 10.10.1): the 56-byte originality signature (secp224r1, r || s).
    public func readSignature() async throws(NFCReaderError) -> [UInt8] {
        let data = try await command(0x3C, header: [0x00], data: [], mode: .full, successStatus: 0x90)
        guard data.count == 56 else { throw NFCReaderError(.tagResponseError, "Read_Sig answered \(data.count) bytes") }
        return data
    }

    /// Read_Sig, then the signature checked against `keys` in order (AN12196 7.2: ECDSA on
    /// secp224r1 over the UID as the digest); an all-zero signature is reported as such.
    ///
    /// - Throws: the errors of ``readSignature()``; ``NFCReaderError/Code/unsupportedFeature``
    ///   when libcrypto fails to run a check.
    public func checkOriginality(
        keys: [NFCOriginalityKey] = NFCOriginalityKey.nxpNTAG424Keys
    ) async throws(NFCReaderError) -> OriginalitySignatureCheck {
        try NFCOriginalityKey.checkRead(signature: try await readSignature(), uid: identifier, keys: keys)
    }

    // MARK: Exchanges

    /// One native command with secure messaging as the session asks: `mode` for the command data
    /// (and the response, unless `responseMode` says otherwise); plain without a session.
    func command(
        _ instruction: UInt8, header: [UInt8], data: [UInt8], mode: NTAG424CommunicationMode,
        responseMode: NTAG424CommunicationMode? = nil, expectsMore: Bool = false, successStatus: UInt8 = 0x00
    ) async throws(NFCReaderError) -> [UInt8] {
        let what = Self.name(instruction)
        guard var channel = session else {
            let answer = try await native(instruction, header + data)
            guard answer.status == (expectsMore ? 0xAF : 0x00) || answer.status == successStatus else {
                throw Self.error(answer.status, during: what)
            }
            return answer.data
        }
        let body: [UInt8]
        do {
            body = try channel.protectCommand(instruction, header: header, data: data, mode: mode)
        } catch {
            throw NFCReaderError(.invalidParameter, "\(what): \(error.reason)")
        }
        let answer = try await native(instruction, header + body)
        guard answer.status == (expectsMore ? 0xAF : 0x00) || answer.status == successStatus else {
            session = nil
            throw Self.error(answer.status, during: what)
        }
        if expectsMore {
            session = channel
            pendingFrames = answer.data
            return answer.data
        }
        do {
            let opened = try channel.openResponse(
                status: answer.status, payload: answer.data, mode: responseMode ?? mode)
            session = channel
            return opened
        } catch {
            session = nil
            throw NFCReaderError(.tagResponseError, "\(what): \(error.reason); the session ended")
        }
    }

    /// The frames of a multi-frame answer received so far (GetVersion in a session).
    private var pendingFrames: [UInt8] = []

    /// `90 AF`: the next frame of GetVersion; the last one's MAC covers all frames.
    private func continueFrame(last: Bool = false) async throws(NFCReaderError) -> [UInt8] {
        let answer = try await native(0xAF, [])
        guard answer.status == (last ? 0x00 : 0xAF) else { throw Self.error(answer.status, during: "GetVersion") }
        guard last, var channel = session else {
            pendingFrames += answer.data
            return answer.data
        }
        guard answer.data.count >= 8 else {
            throw NFCReaderError(.tagResponseError, "GetVersion's last frame lacks its MAC")
        }
        let frame = Array(answer.data.dropLast(8))
        do {
            _ = try channel.openResponse(status: 0x00, payload: pendingFrames + answer.data, mode: .mac)
            session = channel
        } catch {
            session = nil
            throw NFCReaderError(.tagResponseError, "GetVersion: \(error.reason)")
        }
        pendingFrames = []
        return frame
    }

    /// `90 INS 00 00 [Lc data] 00` and its answer, split into data and SW2.
    func native(_ instruction: UInt8, _ data: [UInt8]) async throws(NFCReaderError) -> (data: [UInt8], status: UInt8) {
        guard data.count <= 255 else {
            throw NFCReaderError(.invalidParameter, "a native command carries at most 255 bytes, not \(data.count)")
        }
        let apdu = [0x90, instruction, 0x00, 0x00] + (data.isEmpty ? [0x00] : [UInt8(data.count)] + data + [0x00])
        let response = try await tag.sendCommand(apdu: apdu)
        guard response.sw1 == 0x91 else {
            throw NFCReaderError(
                .tagNotSupported,
                "\(Self.name(instruction)) answered \(Hex.bytes([response.sw1, response.sw2])): not an NTAG 424 DNA")
        }
        return (response.data, response.sw2)
    }

    /// The error for status `91 status` (NT4H2421Gx Table 23).
    static func error(_ status: UInt8, during what: String) -> NFCReaderError {
        let (code, meaning): (NFCReaderError.Code, String) =
            switch status {
            case 0xAE:
                (
                    .authenticationRequired,
                    "AUTHENTICATION_ERROR: the access rights need another key, or the key is wrong"
                )
            case 0x1E: (.tagResponseError, "INTEGRITY_ERROR: a MAC or CRC did not verify")
            case 0x40: (.invalidParameter, "NO_SUCH_KEY")
            case 0x7E: (.invalidParameter, "LENGTH_ERROR")
            case 0x9E: (.invalidParameter, "PARAMETER_ERROR: the tag does not take these values")
            case 0x9D: (.tagNotWritable, "PERMISSION_DENIED: the access rights forbid it")
            case 0xAD:
                (.tagResponseError, "AUTHENTICATION_DELAY: too many failed authentications; wait, then try again")
            case 0xBE: (.invalidParameter, "BOUNDARY_ERROR: past the end of the file")
            case 0xF0: (.tagNotSupported, "FILE_NOT_FOUND")
            case 0xCA: (.tagResponseError, "COMMAND_ABORTED")
            case 0xEE: (.tagUpdateFailure, "MEMORY_ERROR")
            case 0x1C: (.tagNotSupported, "ILLEGAL_COMMAND_CODE")
            default: (.tagResponseError, "an unexpected status")
            }
        return NFCReaderError(code, "\(what) answered 91 \(Hex.bytes([status])): \(meaning)")
    }

    static func name(_ instruction: UInt8) -> String {
        switch instruction {
        case 0x60: "GetVersion"
        case 0x51: "GetCardUID"
        case 0x64: "GetKeyVersion"
        case 0xF5: "GetFileSettings"
        case 0x5F: "ChangeFileSettings"
        case 0xC4: "ChangeKey"
        case 0xAD: "ReadData"
        case 0x8D: "WriteData"
        case 0x3C: "Read_Sig"
        case 0xF6: "GetFileCounters"
        case 0x71: "AuthenticateEV2First"
        case 0x5C: "SetConfiguration"
        case 0xF7: "GetTTStatus"
        default: "command \(Hex.bytes([instruction]))h"
        }
    }

    static func littleEndian(_ value: Int) -> [UInt8] {
        (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
