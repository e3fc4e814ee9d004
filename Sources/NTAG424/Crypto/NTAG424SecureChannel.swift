import HexText
import NFCCrypto

/// How a command's data travels (NT4H2421Gx datasheet 9.1.2, 10.7 FileOption bits 1-0):
/// plain, followed by a MAC, or encrypted and followed by a MAC.
public enum NTAG424CommunicationMode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// CommMode.Plain (00b).
    case plain = 0
    /// CommMode.MAC (01b): MACt over command and response.
    case mac = 1
    /// CommMode.Full (11b): data encrypted with SesAuthENCKey, then MACt.
    case full = 3

    /// The mode of FileOption bits 1-0 (10b reads as plain, as the datasheet says).
    public init(fileOption: UInt8) {
        switch fileOption & 0x03 {
        case 0x01: self = .mac
        case 0x03: self = .full
        default: self = .plain
        }
    }

    /// `Plain`, `MAC` or `Full`.
    public var description: String {
        switch self {
        case .plain: "Plain"
        case .mac: "MAC"
        case .full: "Full"
        }
    }
}

/// The state of an authenticated NTAG 424 DNA session and its secure messaging (NT4H2421Gx
/// datasheet 9.1.3-9.1.9 in AES, 9.2.3-9.2.10 in LRP; AN12196 3.4-3.5), for both ends: a reader
/// protecting commands and checking responses, and a tag (the simulator) checking commands and
/// protecting responses.
///
/// In LRP (``NTAG424CryptoMode/lrp``) MACs are CMAC with LRP under SesAuthMACKey, and data is
/// encrypted in LRICB under SesAuthENCKey with EncCtr (32 bits, most significant first) as the
/// counter, one more for every block of commands and responses alike; the rest is as in AES.
///
/// - MACt(K, M): the CMAC of M under K, truncated to its 8 even-numbered bytes.
/// - Command MAC over Cmd || CmdCtr || TI || CmdHeader || CmdData (CmdData encrypted in
///   CommMode Full); response MAC over RC || CmdCtr+1 || TI || RespData. CmdCtr is two bytes,
///   least significant first, 0 after AuthenticateEV2First, one more after each command.
/// - CommMode Full: CmdData padded (80h 00h...) and encrypted in CBC mode with
///   IVc = E(SesAuthENCKey, A5 5A || TI || CmdCtr || 8 zero bytes); responses with
///   IVr = E(SesAuthENCKey, 5A A5 || TI || CmdCtr+1 || 8 zero bytes).
public struct NTAG424SecureChannel: Sendable, Hashable, CustomStringConvertible {
    /// The AES session keys; in LRP, SesAuthENCKey and SesAuthMACKey's updated keys (the
    /// plaintexts they work with are in the channel).
    public let keys: NTAG424SessionKeys
    /// TI, the 4-byte transaction identifier the tag chose.
    public let transactionIdentifier: [UInt8]
    /// CmdCtr: commands completed in this session.
    public private(set) var commandCounter: Int
    /// The key the session was authenticated with.
    public let keyNumber: Int
    /// AES or LRP secure messaging.
    public let mode: NTAG424CryptoMode
    /// EncCtr, LRP's encryption counter: blocks encrypted and decrypted so far (1 after
    /// AuthenticateLRPFirst, whose answer used 0; 0 after AuthenticateLRPNonFirst).
    public private(set) var encryptionCounter: Int = 0
    /// LRP's SesAuthMACKey and SesAuthENCKey.
    private let lrp: (mac: NTAG424LRP, encryption: NTAG424LRP)?

    /// An LRP session as AuthenticateLRPFirst or AuthenticateLRPNonFirst left it, with the LRP
    /// session keys (``NTAG424LRPAuthentication/sessionKeys(key:rndA:rndB:)``).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless TI has 4 bytes.
    public init(
        lrpKeys: (mac: NTAG424LRP, encryption: NTAG424LRP), transactionIdentifier: [UInt8], commandCounter: Int = 0,
        encryptionCounter: Int, keyNumber: Int
    ) throws(NTAG424Error) {
        guard transactionIdentifier.count == 4 else {
            throw NTAG424Error(.invalidInput, "a transaction identifier is 4 bytes, not \(transactionIdentifier.count)")
        }
        keys = try NTAG424SessionKeys(encryption: lrpKeys.encryption.updatedKeyValue, mac: lrpKeys.mac.updatedKeyValue)
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
        self.encryptionCounter = encryptionCounter
        self.keyNumber = keyNumber
        mode = .lrp
        lrp = lrpKeys
    }

    /// A session as the authentication left it.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless TI has 4 bytes.
    public init(
        keys: NTAG424SessionKeys, transactionIdentifier: [UInt8], commandCounter: Int = 0, keyNumber: Int
    ) throws(NTAG424Error) {
        guard transactionIdentifier.count == 4 else {
            throw NTAG424Error(.invalidInput, "a transaction identifier is 4 bytes, not \(transactionIdentifier.count)")
        }
        self.keys = keys
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
        self.keyNumber = keyNumber
        mode = .aes
        lrp = nil
    }

    public static func == (lhs: NTAG424SecureChannel, rhs: NTAG424SecureChannel) -> Bool {
        lhs.keys == rhs.keys && lhs.transactionIdentifier == rhs.transactionIdentifier
            && lhs.commandCounter == rhs.commandCounter && lhs.keyNumber == rhs.keyNumber && lhs.mode == rhs.mode
            && lhs.encryptionCounter == rhs.encryptionCounter && lhs.lrp?.mac == rhs.lrp?.mac
            && lhs.lrp?.encryption == rhs.lrp?.encryption
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(commandCounter)
        hasher.combine(encryptionCounter)
        hasher.combine(mode)
    }

    /// The data to send after the command code and header: `data` as is, followed by MACt, or
    /// encrypted and followed by MACt, as `mode` asks. The counter does not change: it goes
    /// up when the response is opened (``openResponse(status:payload:mode:)``); in LRP, EncCtr
    /// counts the blocks encrypted.
    public mutating func protectCommand(
        _ command: UInt8, header: [UInt8], data: [UInt8], mode: NTAG424CommunicationMode
    ) throws(NTAG424Error) -> [UInt8] {
        guard mode != .plain else { return data }
        let body = try sealed(data, mode: mode, label: [0xA5, 0x5A], counter: commandCounter)
        return body + (try commandMAC(command, header: header, body: body))
    }

    /// Checks and opens a response to the last protected command: verifies MACt over the status
    /// `status` (00h) and the payload, decrypts in CommMode Full, and counts the command.
    ///
    /// - Throws: ``NTAG424Error/Code/integrityError`` for a MAC that does not verify or padding
    ///   that is wrong (the session must end: the tag and the reader no longer agree);
    ///   ``NTAG424Error/Code/invalidInput`` for a payload too short for its MAC.
    public mutating func openResponse(
        status: UInt8, payload: [UInt8], mode: NTAG424CommunicationMode
    ) throws(NTAG424Error) -> [UInt8] {
        let next = (commandCounter + 1) & 0xFFFF
        guard mode != .plain else {
            commandCounter = next
            return payload
        }
        guard payload.count >= 8 else {
            throw NTAG424Error(
                .invalidInput, "a response in CommMode \(mode) ends with an 8-byte MAC; it has \(payload.count) bytes")
        }
        let body = Array(payload.dropLast(8))
        try check(payload, expected: try responseMAC(status: status, body: body, counter: next), what: "response")
        commandCounter = next
        return try opened(body, mode: mode, label: [0x5A, 0xA5], counter: next, what: "response")
    }

    /// The tag's side: checks the MAC of a command's `payload` (data and MACt as sent) and
    /// returns its data, decrypted in CommMode Full. CmdCtr does not change (in LRP, EncCtr
    /// counts the blocks decrypted).
    ///
    /// - Throws: ``NTAG424Error/Code/integrityError`` for a MAC that does not verify or bad
    ///   padding (the tag answers 91 1E and ends the session), ``NTAG424Error/Code/invalidInput``
    ///   for a payload too short.
    public mutating func openCommand(
        _ command: UInt8, header: [UInt8], payload: [UInt8], mode: NTAG424CommunicationMode
    ) throws(NTAG424Error) -> [UInt8] {
        guard mode != .plain else { return payload }
        guard payload.count >= 8 else {
            throw NTAG424Error(.invalidInput, "a command in CommMode \(mode) ends with an 8-byte MAC")
        }
        let body = Array(payload.dropLast(8))
        try check(payload, expected: try commandMAC(command, header: header, body: body), what: "command")
        return try opened(body, mode: mode, label: [0xA5, 0x5A], counter: commandCounter, what: "command")
    }

    /// The tag's side: counts the command and returns the response payload for `data`: as is,
    /// followed by MACt, or encrypted and followed by MACt.
    public mutating func protectResponse(
        status: UInt8, data: [UInt8], mode: NTAG424CommunicationMode
    ) throws(NTAG424Error) -> [UInt8] {
        commandCounter = (commandCounter + 1) & 0xFFFF
        guard mode != .plain else { return data }
        let body = try sealed(data, mode: mode, label: [0x5A, 0xA5], counter: commandCounter)
        return body + (try responseMAC(status: status, body: body, counter: commandCounter))
    }

    /// `data` as it travels in `mode` before its MAC: as is (MAC), or padded and encrypted with
    /// the IV of `label` and `counter` (Full; no data stays no data).
    private mutating func sealed(
        _ data: [UInt8], mode: NTAG424CommunicationMode, label: [UInt8], counter: Int
    ) throws(NTAG424Error) -> [UInt8] {
        guard mode == .full, !data.isEmpty else { return data }
        if let lrp {
            let result = try lrp.encryption.encrypt(data, counter: encryptionCounterBytes, padding: true)
            encryptionCounter += result.ciphertext.count / 16
            return result.ciphertext
        }
        return try crypt(NTAG424Bytes.padded(data), label: label, counter: counter, encrypting: true)
    }

    /// EncCtr as LRICB takes it: 4 bytes, most significant first.
    private var encryptionCounterBytes: [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: encryptionCounter >> (8 * $0)) }
    }

    /// Throws ``NTAG424Error/Code/integrityError`` unless `payload` ends with `expected`.
    private func check(_ payload: [UInt8], expected: [UInt8], what: String) throws(NTAG424Error) {
        guard NTAG424Bytes.constantTimeEqual(expected, Array(payload.suffix(8))) else {
            throw NTAG424Error(
                .integrityError,
                "the \(what)'s MAC does not verify" + (what == "response" ? ": the session is no longer in step" : ""))
        }
    }

    /// The data of a `body` whose MAC verified: as is (MAC), or decrypted and unpadded (Full).
    private mutating func opened(
        _ body: [UInt8], mode: NTAG424CommunicationMode, label: [UInt8], counter: Int, what: String
    ) throws(NTAG424Error) -> [UInt8] {
        guard mode == .full, !body.isEmpty else { return body }
        guard body.count % 16 == 0 else {
            throw NTAG424Error(.integrityError, "encrypted \(what) data of \(body.count) bytes is not whole blocks")
        }
        if let lrp {
            let counter = encryptionCounterBytes
            encryptionCounter += body.count / 16
            do {
                return try lrp.encryption.decrypt(body, counter: counter, padding: true).plaintext
            } catch {
                throw NTAG424Error(.integrityError, "the decrypted \(what) data has no valid padding")
            }
        }
        guard let data = NTAG424Bytes.unpadded(try crypt(body, label: label, counter: counter, encrypting: false))
        else {
            throw NTAG424Error(.integrityError, "the decrypted \(what) data has no valid padding")
        }
        return data
    }

    /// MACt(SesAuthMACKey; Cmd || CmdCtr || TI || CmdHeader || body).
    public func commandMAC(_ command: UInt8, header: [UInt8], body: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        try mac([command] + NTAG424Bytes.littleEndian(commandCounter, count: 2) + transactionIdentifier + header + body)
    }

    /// MACt(SesAuthMACKey; RC || CmdCtr || TI || body) for the counter `counter`.
    func responseMAC(status: UInt8, body: [UInt8], counter: Int) throws(NTAG424Error) -> [UInt8] {
        try mac([status] + NTAG424Bytes.littleEndian(counter, count: 2) + transactionIdentifier + body)
    }

    /// The IV of CommMode Full for `label` (A5 5A commands, 5A A5 responses) and `counter`.
    func initializationVector(label: [UInt8], counter: Int) throws(NTAG424Error) -> [UInt8] {
        let block =
            label + transactionIdentifier + NTAG424Bytes.littleEndian(counter, count: 2)
            + [UInt8](repeating: 0, count: 8)
        do {
            return try AES(key: keys.encryption).encrypt(block)
        } catch {
            throw NTAG424Error(error)
        }
    }

    private func crypt(_ data: [UInt8], label: [UInt8], counter: Int, encrypting: Bool) throws(NTAG424Error) -> [UInt8]
    {
        let iv = try initializationVector(label: label, counter: counter)
        do {
            let cipher = try AES(key: keys.encryption)
            return encrypting ? try cipher.encrypt(data, iv: iv) : try cipher.decrypt(data, iv: iv)
        } catch {
            throw NTAG424Error(error)
        }
    }

    private func mac(_ message: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        if let lrp { return NTAG424Bytes.truncated(try lrp.mac.mac(message)) }
        do {
            return NTAG424Bytes.truncated(try AESCMAC.authenticationCode(for: message, key: keys.mac))
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// Never shows the keys: `NTAG424SecureChannel(key 0, TI 9D00C4DF, CmdCtr 0)`, with
    /// `LRP, EncCtr n` in LRP.
    public var description: String {
        "NTAG424SecureChannel(key \(keyNumber), TI \(Hex.encode(transactionIdentifier, uppercase: true)), "
            + "CmdCtr \(commandCounter)" + (mode == .lrp ? ", LRP, EncCtr \(encryptionCounter))" : ")")
    }
}
