/// The LRP mutual authentication of NTAG 424 DNA, AuthenticateLRPFirst (71h) and
/// AuthenticateLRPNonFirst (77h) (NT4H2421Gx datasheet 9.2.5-9.2.7, 10.4.3-10.4.4; AN12343 7.2),
/// for the reader's side and the tag's side:
///
/// 1. Reader: `90 71 00 00 03 KeyNo 01 02 00` (First: LenCap 1, PCDCap2.1 = 02h asks for LRP) or
///    `90 77 00 00 01 KeyNo 00` (NonFirst).
/// 2. Tag: AuthMode `01` || RndB in plain, status 91 AF (a tag in AES mode answers First with
///    E(Kx, RndB) alone, 16 bytes: 9 Table 19).
/// 3. Reader: `90 AF` RndA || PCDResponse, PCDResponse = MAC_LRP(SesAuthMACKey; RndA || RndB).
/// 4. Tag, First: PICCData || PICCResponse, PICCData = E_LRP(SesAuthENCKey; TI || PDCap2 ||
///    PCDCap2) with EncCtr 0, PICCResponse = MAC_LRP(SesAuthMACKey; RndB || RndA || PICCData);
///    NonFirst: PICCResponse = MAC_LRP(SesAuthMACKey; RndB || RndA).
///
/// The session keys come from SV = `00 01 00 80` || RndA[15..14] || (RndA[13..8] ⊕ RndB[15..10])
/// || RndB[9..0] || RndA[7..0] || `96 69`: SesAuthMasterKey = MAC_LRP(Kx; SV), and its updated
/// keys 0 and 1 are SesAuthMACKey and SesAuthENCKey (9.2.7). MACs are not truncated here.
public enum NTAG424LRPAuthentication {
    /// The first command's data after KeyNo: LenCap 1 and PCDCap2.1 = 02h (LRP).
    public static let capabilities: [UInt8] = [0x01, 0x02]

    /// SV (32 bytes) for `rndA` and `rndB` (byte 15 of each is its first byte).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless both are 16 bytes.
    public static func sessionVector(rndA: [UInt8], rndB: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        guard rndA.count == 16, rndB.count == 16 else {
            throw NTAG424Error(.invalidInput, "RndA and RndB are 16 bytes each")
        }
        let mixed = (2..<8).map { rndA[$0] ^ rndB[$0 - 2] }
        return [0x00, 0x01, 0x00, 0x80] + Array(rndA[0..<2]) + mixed + Array(rndB[6..<16]) + Array(rndA[8..<16])
            + [0x96, 0x69]
    }

    /// SesAuthMACKey and SesAuthENCKey after an authentication with `key` and the random
    /// numbers `rndA` and `rndB`.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless all three are 16 bytes.
    public static func sessionKeys(
        key: [UInt8], rndA: [UInt8], rndB: [UInt8]
    ) throws(NTAG424Error) -> (mac: NTAG424LRP, encryption: NTAG424LRP) {
        guard key.count == 16, rndA.count == 16, rndB.count == 16 else {
            throw NTAG424Error(.invalidInput, "a key, RndA and RndB are 16 bytes each")
        }
        let master = try NTAG424LRP(key: key).mac(try sessionVector(rndA: rndA, rndB: rndB))
        return (try NTAG424LRP(key: master, updatedKeyIndex: 0), try NTAG424LRP(key: master, updatedKeyIndex: 1))
    }

    /// The reader's answer to the tag's challenge (`AuthMode 01 || RndB`, 17 bytes) under `key`,
    /// with its random number `rndA`: RndA || PCDResponse.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a challenge that is not AuthMode 01 and
    ///   16 bytes (a tag in AES mode answers with 16 bytes), or RndA not 16 bytes.
    public static func answer(
        challenge: [UInt8], key: [UInt8], rndA: [UInt8]
    ) throws(NTAG424Error) -> NTAG424Authentication.ReaderAnswer {
        guard challenge.count == 17, challenge[0] == 0x01 else {
            throw NTAG424Error(
                .invalidInput,
                "the tag's challenge is not LRP's (AuthMode 01 and RndB, 17 bytes): \(challenge.count) bytes")
        }
        let rndB = Array(challenge[1...])
        let keys = try sessionKeys(key: key, rndA: rndA, rndB: rndB)
        return NTAG424Authentication.ReaderAnswer(data: rndA + (try keys.mac.mac(rndA + rndB)), rndA: rndA, rndB: rndB)
    }

    /// Checks the tag's last answer to AuthenticateLRPFirst (PICCData || PICCResponse) and
    /// starts the session, EncCtr at 1.
    ///
    /// - Throws: ``NTAG424Error/Code/authenticationError`` when PICCResponse does not verify (the
    ///   tag does not hold `key`); ``NTAG424Error/Code/invalidInput`` for a response that is not
    ///   32 bytes.
    public static func finishFirst(
        response: [UInt8], key: [UInt8], answer: NTAG424Authentication.ReaderAnswer, keyNumber: Int
    ) throws(NTAG424Error) -> NTAG424Authentication.FirstResult {
        guard response.count == 32 else {
            throw NTAG424Error(
                .invalidInput, "the last answer of AuthenticateLRPFirst is 32 bytes, not \(response.count)")
        }
        let keys = try sessionKeys(key: key, rndA: answer.rndA, rndB: answer.rndB)
        let piccData = Array(response[0..<16])
        let expected = try keys.mac.mac(answer.rndB + answer.rndA + piccData)
        guard NTAG424Bytes.constantTimeEqual(expected, Array(response[16..<32])) else {
            throw NTAG424Error(.authenticationError, "the tag did not prove it holds key \(keyNumber)")
        }
        let plain = try keys.encryption.decrypt(piccData, counter: [0, 0, 0, 0], padding: false).plaintext
        let channel = try NTAG424SecureChannel(
            lrpKeys: keys, transactionIdentifier: Array(plain[0..<4]), encryptionCounter: 1, keyNumber: keyNumber)
        return NTAG424Authentication.FirstResult(
            channel: channel, pdCap2: Array(plain[4..<10]), pcdCap2: Array(plain[10..<16]))
    }

    /// Checks the tag's last answer to AuthenticateLRPNonFirst (PICCResponse) and returns the
    /// session under the new keys, with the TI and CmdCtr of `previous` and EncCtr 0.
    public static func finishNonFirst(
        response: [UInt8], key: [UInt8], answer: NTAG424Authentication.ReaderAnswer, keyNumber: Int,
        previous: NTAG424SecureChannel
    ) throws(NTAG424Error) -> NTAG424SecureChannel {
        guard response.count == 16 else {
            throw NTAG424Error(
                .invalidInput, "the last answer of AuthenticateLRPNonFirst is 16 bytes, not \(response.count)")
        }
        let keys = try sessionKeys(key: key, rndA: answer.rndA, rndB: answer.rndB)
        guard NTAG424Bytes.constantTimeEqual(try keys.mac.mac(answer.rndB + answer.rndA), response) else {
            throw NTAG424Error(.authenticationError, "the tag did not prove it holds key \(keyNumber)")
        }
        return try NTAG424SecureChannel(
            lrpKeys: keys, transactionIdentifier: previous.transactionIdentifier,
            commandCounter: previous.commandCounter, encryptionCounter: 0, keyNumber: keyNumber)
    }

    // MARK: The tag's side

    /// The tag's check of the reader's answer (RndA || PCDResponse): RndA and the session keys
    /// when PCDResponse verifies.
    ///
    /// - Throws: ``NTAG424Error/Code/authenticationError`` when it does not (the tag answers
    ///   91 AE); ``NTAG424Error/Code/invalidInput`` unless the answer is 32 bytes.
    public static func checkAnswer(
        _ data: [UInt8], key: [UInt8], rndB: [UInt8]
    ) throws(NTAG424Error) -> (rndA: [UInt8], keys: (mac: NTAG424LRP, encryption: NTAG424LRP)) {
        guard data.count == 32 else {
            throw NTAG424Error(.invalidInput, "the reader's answer is 32 bytes, not \(data.count)")
        }
        let rndA = Array(data[0..<16])
        let keys = try sessionKeys(key: key, rndA: rndA, rndB: rndB)
        guard NTAG424Bytes.constantTimeEqual(try keys.mac.mac(rndA + rndB), Array(data[16..<32])) else {
            throw NTAG424Error(.authenticationError, "the reader did not prove it holds the key")
        }
        return (rndA, keys)
    }

    /// The tag's last answer to AuthenticateLRPFirst: PICCData || PICCResponse.
    public static func tagResponseFirst(
        keys: (mac: NTAG424LRP, encryption: NTAG424LRP), transactionIdentifier: [UInt8], rndA: [UInt8],
        rndB: [UInt8], pdCap2: [UInt8], pcdCap2: [UInt8]
    ) throws(NTAG424Error) -> [UInt8] {
        guard transactionIdentifier.count == 4, pdCap2.count == 6, pcdCap2.count == 6 else {
            throw NTAG424Error(.invalidInput, "TI is 4 bytes, PDCap2 and PCDCap2 6 each")
        }
        let piccData = try keys.encryption.encrypt(
            transactionIdentifier + pdCap2 + pcdCap2, counter: [0, 0, 0, 0], padding: false
        ).ciphertext
        return piccData + (try keys.mac.mac(rndB + rndA + piccData))
    }

    /// The tag's last answer to AuthenticateLRPNonFirst: PICCResponse.
    public static func tagResponseNonFirst(
        keys: (mac: NTAG424LRP, encryption: NTAG424LRP), rndA: [UInt8], rndB: [UInt8]
    ) throws(NTAG424Error) -> [UInt8] {
        try keys.mac.mac(rndB + rndA)
    }
}
