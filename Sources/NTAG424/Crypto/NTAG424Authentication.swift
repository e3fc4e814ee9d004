import NFCCrypto

/// The AES mutual authentication of NTAG 424 DNA, AuthenticateEV2First (71h) and
/// AuthenticateEV2NonFirst (77h) (NT4H2421Gx datasheet 9.1.5-9.1.6, 10.4; AN12196 3.2), for the
/// reader's side and the tag's side. Every encryption is AES-128 in CBC mode with a zero IV
/// under the key Kx being authenticated with.
///
/// 1. Reader: `90 71 00 00 02 KeyNo 00 00` (EV2First) or `90 77 00 00 01 KeyNo 00` (NonFirst).
/// 2. Tag: E(Kx, RndB), status 91 AF.
/// 3. Reader: `90 AF 00 00 20` E(Kx, RndA || RndB') `00`, RndB' being RndB rotated left by one
///    byte.
/// 4. Tag, EV2First: E(Kx, TI || RndA' || PDcap2 || PCDcap2), 32 bytes; NonFirst: E(Kx, RndA'),
///    16 bytes; status 91 00. The reader checks RndA'.
///
/// Then both derive ``NTAG424SessionKeys`` from Kx, RndA and RndB; EV2First starts CmdCtr at 0
/// with the new TI, NonFirst keeps TI and CmdCtr.
public enum NTAG424Authentication {
    /// What the reader knows after the tag's challenge: RndA, RndB and what to send.
    public struct ReaderAnswer: Sendable, Hashable, CustomStringConvertible {
        /// E(Kx, RndA || RndB'): the 32 bytes of the second command.
        public let data: [UInt8]
        /// The reader's random number.
        public let rndA: [UInt8]
        /// The tag's random number, decrypted from its challenge.
        public let rndB: [UInt8]

        /// Never shows the random numbers.
        public var description: String { "NTAG424Authentication.ReaderAnswer(**)" }
    }

    /// The reader's answer to the tag's challenge `challenge` (E(Kx, RndB)) under `key`, with
    /// its random number `rndA` (16 bytes from ``NFCCrypto/SecureRandom`` in use; given in
    /// tests).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless the key, the challenge and RndA are
    ///   16 bytes.
    public static func answer(challenge: [UInt8], key: [UInt8], rndA: [UInt8]) throws(NTAG424Error) -> ReaderAnswer {
        guard challenge.count == 16, rndA.count == 16 else {
            throw NTAG424Error(.invalidInput, "the tag's challenge and RndA are 16 bytes (got \(challenge.count))")
        }
        let rndB = try crypt(challenge, key: key, encrypting: false)
        let data = try crypt(rndA + NTAG424Bytes.rotatedLeft(rndB), key: key, encrypting: true)
        return ReaderAnswer(data: data, rndA: rndA, rndB: rndB)
    }

    /// What the tag's last answer to AuthenticateEV2First says, once checked.
    public struct FirstResult: Sendable, Hashable {
        /// The secure messaging session that starts.
        public let channel: NTAG424SecureChannel
        /// PDcap2, the tag's capabilities (6 bytes).
        public let pdCap2: [UInt8]
        /// PCDcap2, the reader's capabilities as the tag echoes them (6 bytes).
        public let pcdCap2: [UInt8]
    }

    /// Checks the tag's last answer to AuthenticateEV2First (E(Kx, TI || RndA' || PDcap2 ||
    /// PCDcap2)) and starts the session.
    ///
    /// - Throws: ``NTAG424Error/Code/authenticationError`` when RndA' is not RndA rotated (the
    ///   tag does not hold `key`); ``NTAG424Error/Code/invalidInput`` for a response that is not
    ///   32 bytes.
    public static func finishFirst(
        response: [UInt8], key: [UInt8], answer: ReaderAnswer, keyNumber: Int
    ) throws(NTAG424Error) -> FirstResult {
        guard response.count == 32 else {
            throw NTAG424Error(
                .invalidInput, "the last answer of AuthenticateEV2First is 32 bytes, not \(response.count)")
        }
        let plain = try crypt(response, key: key, encrypting: false)
        guard NTAG424Bytes.constantTimeEqual(Array(plain[4..<20]), NTAG424Bytes.rotatedLeft(answer.rndA)) else {
            throw NTAG424Error(.authenticationError, "the tag did not prove it holds key \(keyNumber)")
        }
        let keys = try NTAG424SessionKeys(key: key, rndA: answer.rndA, rndB: answer.rndB)
        let channel = try NTAG424SecureChannel(
            keys: keys, transactionIdentifier: Array(plain[0..<4]), commandCounter: 0, keyNumber: keyNumber)
        return FirstResult(channel: channel, pdCap2: Array(plain[20..<26]), pcdCap2: Array(plain[26..<32]))
    }

    /// Checks the tag's last answer to AuthenticateEV2NonFirst (E(Kx, RndA')) and returns the
    /// session under the new keys, with the TI and CmdCtr of `previous`.
    public static func finishNonFirst(
        response: [UInt8], key: [UInt8], answer: ReaderAnswer, keyNumber: Int, previous: NTAG424SecureChannel
    ) throws(NTAG424Error) -> NTAG424SecureChannel {
        guard response.count == 16 else {
            throw NTAG424Error(
                .invalidInput, "the last answer of AuthenticateEV2NonFirst is 16 bytes, not \(response.count)")
        }
        let plain = try crypt(response, key: key, encrypting: false)
        guard NTAG424Bytes.constantTimeEqual(plain, NTAG424Bytes.rotatedLeft(answer.rndA)) else {
            throw NTAG424Error(.authenticationError, "the tag did not prove it holds key \(keyNumber)")
        }
        return try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(key: key, rndA: answer.rndA, rndB: answer.rndB),
            transactionIdentifier: previous.transactionIdentifier, commandCounter: previous.commandCounter,
            keyNumber: keyNumber)
    }

    // MARK: The tag's side

    /// The tag's challenge E(Kx, RndB).
    public static func challenge(key: [UInt8], rndB: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        guard rndB.count == 16 else { throw NTAG424Error(.invalidInput, "RndB is 16 bytes") }
        return try crypt(rndB, key: key, encrypting: true)
    }

    /// The tag's check of the reader's answer (E(Kx, RndA || RndB')): RndA when RndB' is RndB
    /// rotated.
    ///
    /// - Throws: ``NTAG424Error/Code/authenticationError`` when it is not (the tag answers
    ///   91 AE); ``NTAG424Error/Code/invalidInput`` unless the answer is 32 bytes.
    public static func checkAnswer(_ data: [UInt8], key: [UInt8], rndB: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        guard data.count == 32 else {
            throw NTAG424Error(.invalidInput, "the reader's answer is 32 bytes, not \(data.count)")
        }
        let plain = try crypt(data, key: key, encrypting: false)
        guard NTAG424Bytes.constantTimeEqual(Array(plain[16..<32]), NTAG424Bytes.rotatedLeft(rndB)) else {
            throw NTAG424Error(.authenticationError, "the reader did not prove it holds the key")
        }
        return Array(plain[0..<16])
    }

    /// The tag's last answer to AuthenticateEV2First: E(Kx, TI || RndA' || PDcap2 || PCDcap2).
    public static func tagResponseFirst(
        key: [UInt8], transactionIdentifier: [UInt8], rndA: [UInt8], pdCap2: [UInt8], pcdCap2: [UInt8]
    ) throws(NTAG424Error) -> [UInt8] {
        guard transactionIdentifier.count == 4, pdCap2.count == 6, pcdCap2.count == 6 else {
            throw NTAG424Error(.invalidInput, "TI is 4 bytes, PDcap2 and PCDcap2 6 each")
        }
        return try crypt(
            transactionIdentifier + NTAG424Bytes.rotatedLeft(rndA) + pdCap2 + pcdCap2, key: key, encrypting: true)
    }

    /// The tag's last answer to AuthenticateEV2NonFirst: E(Kx, RndA').
    public static func tagResponseNonFirst(key: [UInt8], rndA: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        try crypt(NTAG424Bytes.rotatedLeft(rndA), key: key, encrypting: true)
    }

    /// AES-128-CBC with a zero IV under `key`.
    static func crypt(_ data: [UInt8], key: [UInt8], encrypting: Bool) throws(NTAG424Error) -> [UInt8] {
        guard key.count == 16 else { throw NTAG424Error(.invalidInput, "an NTAG 424 DNA key is 16 bytes") }
        do {
            let cipher = try AES(key: key)
            return encrypting ? try cipher.encrypt(data) : try cipher.decrypt(data)
        } catch {
            throw NTAG424Error(error)
        }
    }
}
