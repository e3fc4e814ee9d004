import NFCCrypto

/// What a secure unique NFC message (SUN) says, once checked: the tag's UID and read counter,
/// and whether its SDMMAC verifies.
public struct NTAG424SUNResult: Sendable, Hashable {
    /// The UID (7 bytes), when the message carries it.
    public var uid: [UInt8]?
    /// SDMReadCtr, when the message carries it.
    public var counter: Int?
    /// Whether the SDMMAC verifies (and the PICCData decrypted to a valid tag byte).
    public var isValid: Bool
    /// Why the message is not valid; nil when it is.
    public var problem: String?
    /// Which MAC input verified: `empty` (SDMMACInputOffset = SDMMACOffset) or `fromPICCData`
    /// (from the PICCData value to the MAC value); nil when none did.
    public var macInput: String?
    /// The file data, decrypted from SDMENCFileData (NT4H2421Gx 9.3.6), when the message carries
    /// it and its SDMMAC verified.
    public var fileData: [UInt8]?

    /// A result.
    public init(uid: [UInt8]?, counter: Int?, isValid: Bool, problem: String?, macInput: String? = nil) {
        self.uid = uid
        self.counter = counter
        self.isValid = isValid
        self.problem = problem
        self.macInput = macInput
    }
}

/// The server side of secure dynamic messaging (SDM, NT4H2421Gx datasheet 9.3; AN12196 4): checks
/// the URL an NTAG 424 DNA produced on a read.
///
/// - PICCData (16 bytes, 32 hex characters in the URL) = E(SDMMetaReadKey, PICCDataTag || UID ||
///   SDMReadCtr || padding), AES-CBC with a zero IV. PICCDataTag: bit 7 UID mirrored, bit 6
///   SDMReadCtr mirrored, bits 3-0 the UID length (7).
/// - The SDM session MAC key is CMAC(SDMFileReadKey, SV2), SV2 = `3C C3 00 01 00 80` || UID ||
///   SDMReadCtr (3 bytes, least significant first), zero-padded to whole blocks (the ENC key uses
///   `C3 3C`).
/// - SDMMAC (8 bytes, 16 hex characters) = MACt(session MAC key; the file's bytes from
///   SDMMACInputOffset up to SDMMACOffset): empty when the two offsets are equal.
///
/// Keys are 16 bytes; none is ever put in a result or an error.
public struct NTAG424SUNVerifier: Sendable {
    private let metaReadKey: [UInt8]?
    private let fileReadKey: [UInt8]

    /// A verifier with the SDMMetaRead key (nil when the tag mirrors UID and counter in plain)
    /// and the SDMFileRead key.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a key that is not 16 bytes.
    public init(metaReadKey: [UInt8]?, fileReadKey: [UInt8]) throws(NTAG424Error) {
        guard fileReadKey.count == 16, metaReadKey.map({ $0.count == 16 }) ?? true else {
            throw NTAG424Error(.invalidInput, "SDM keys are 16 bytes (32 hex characters)")
        }
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
    }

    /// The UID and counter in encrypted PICCData.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for PICCData that is not 16 bytes or without
    ///   a meta-read key; ``NTAG424Error/Code/integrityError`` when the tag byte it decrypts to
    ///   is not one a tag writes (a wrong key, or data that is not PICCData).
    public func decryptPICCData(_ encrypted: [UInt8]) throws(NTAG424Error) -> (uid: [UInt8]?, counter: Int?) {
        guard let metaReadKey else {
            throw NTAG424Error(.invalidInput, "encrypted PICCData needs the SDMMetaRead key")
        }
        guard encrypted.count == 16 else {
            throw NTAG424Error(.invalidInput, "PICCData is 16 bytes (32 hex characters), not \(encrypted.count)")
        }
        let plain = try NTAG424Authentication.crypt(encrypted, key: metaReadKey, encrypting: false)
        let tag = plain[0]
        let hasUID = tag & 0x80 != 0
        let hasCounter = tag & 0x40 != 0
        let uidLength = Int(tag & 0x0F)
        guard tag & 0x30 == 0, hasUID || hasCounter, !hasUID || uidLength == 7, hasUID || uidLength == 0 else {
            throw NTAG424Error(
                .integrityError, "the PICCData does not decrypt to a tag byte a tag writes: a wrong SDMMetaRead key")
        }
        let uid = hasUID ? Array(plain[1..<8]) : nil
        let counterStart = hasUID ? 8 : 1
        let counter = hasCounter ? NTAG424Bytes.integer(littleEndian: plain[counterStart..<(counterStart + 3)]) : nil
        return (uid, counter)
    }

    /// The SDM session MAC key and ENC key for `uid` and `counter` (either may be absent when
    /// not mirrored).
    public func sessionKeys(uid: [UInt8]?, counter: Int?) throws(NTAG424Error) -> (mac: [UInt8], encryption: [UInt8]) {
        var context = uid ?? []
        if let counter { context += NTAG424Bytes.littleEndian(counter, count: 3) }
        var macVector = [0x3C, 0xC3, 0x00, 0x01, 0x00, 0x80] + context
        var encVector = [0xC3, 0x3C, 0x00, 0x01, 0x00, 0x80] + context
        while macVector.count % 16 != 0 {
            macVector.append(0)
            encVector.append(0)
        }
        do {
            return (
                try AESCMAC.authenticationCode(for: macVector, key: fileReadKey),
                try AESCMAC.authenticationCode(for: encVector, key: fileReadKey)
            )
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// The file data of SDMENCFileData (NT4H2421Gx 9.3.6; AN12196 4.4): AES-CBC with the SDM
    /// session ENC key, the IV being E(ENC key, SDMReadCtr (3 bytes, least significant first) ||
    /// 13 zero bytes).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data that is not whole AES blocks.
    public func decryptFileData(_ encrypted: [UInt8], uid: [UInt8]?, counter: Int?) throws(NTAG424Error) -> [UInt8] {
        guard !encrypted.isEmpty, encrypted.count % 16 == 0 else {
            throw NTAG424Error(.invalidInput, "encrypted file data is whole AES blocks, not \(encrypted.count) bytes")
        }
        let key = try sessionKeys(uid: uid, counter: counter).encryption
        do {
            let cipher = try AES(key: key)
            let ivInput = NTAG424Bytes.littleEndian(counter ?? 0, count: 3) + [UInt8](repeating: 0, count: 13)
            let iv = try cipher.encrypt(ivInput)
            return try cipher.decrypt(encrypted, iv: iv)
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// SDMMAC for `uid`, `counter` and the MAC input `input` (the file's bytes from
    /// SDMMACInputOffset to SDMMACOffset, as ASCII when the tag mirrors in ASCII).
    public func mac(uid: [UInt8]?, counter: Int?, input: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        let key = try sessionKeys(uid: uid, counter: counter).mac
        do {
            return NTAG424Bytes.truncated(try AESCMAC.authenticationCode(for: input, key: key))
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// Checks a message whose PICCData is encrypted: decrypts it, then checks `mac` against
    /// each of `inputs` (the MAC inputs the layout may have used), in order.
    public func verify(piccData: [UInt8], mac: [UInt8], inputs: [(name: String, bytes: [UInt8])]) -> NTAG424SUNResult {
        let decoded: (uid: [UInt8]?, counter: Int?)
        do {
            decoded = try decryptPICCData(piccData)
        } catch {
            return NTAG424SUNResult(uid: nil, counter: nil, isValid: false, problem: error.reason)
        }
        return verify(uid: decoded.uid, counter: decoded.counter, mac: mac, inputs: inputs)
    }

    /// Checks a message whose UID and counter are mirrored in plain.
    public func verify(
        uid: [UInt8]?, counter: Int?, mac: [UInt8], inputs: [(name: String, bytes: [UInt8])]
    ) -> NTAG424SUNResult {
        guard mac.count == 8 else {
            return NTAG424SUNResult(
                uid: uid, counter: counter, isValid: false,
                problem: "the SDMMAC is 8 bytes (16 hex characters), not \(mac.count)")
        }
        for input in inputs {
            guard let expected = try? self.mac(uid: uid, counter: counter, input: input.bytes) else { continue }
            if NTAG424Bytes.constantTimeEqual(expected, mac) {
                return NTAG424SUNResult(uid: uid, counter: counter, isValid: true, problem: nil, macInput: input.name)
            }
        }
        return NTAG424SUNResult(
            uid: uid, counter: counter, isValid: false,
            problem: "the SDMMAC does not verify: a changed URL, another tag's keys, or a wrong SDMFileRead key")
    }
}
