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
    /// The cipher the tag used (AES or LRP), once its SDMMAC verified.
    public var mode: NTAG424CryptoMode?

    /// A result.
    public init(
        uid: [UInt8]?, counter: Int?, isValid: Bool, problem: String?, macInput: String? = nil,
        mode: NTAG424CryptoMode? = nil
    ) {
        self.uid = uid
        self.counter = counter
        self.isValid = isValid
        self.problem = problem
        self.macInput = macInput
        self.mode = mode
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
/// A tag in LRP mode (``NTAG424CryptoMode/lrp``) is told by its 24-byte PICCData; for a URL
/// with the UID and counter in plain, the verifier tries the modes it is given (both by
/// default). LRP's side is in the extension in NTAG424SUNVerifier+LRP.swift.
///
/// Keys are 16 bytes; none is ever put in a result or an error.
public struct NTAG424SUNVerifier: Sendable {
    private let metaReadKey: [UInt8]?
    let fileReadKey: [UInt8]
    /// The modes the verifier accepts: encrypted PICCData of another mode is refused, and a URL
    /// with its UID and counter in plain is checked in each, in order.
    public let acceptedModes: [NTAG424CryptoMode]

    /// A verifier with the SDMMetaRead key (nil when the tag mirrors UID and counter in plain)
    /// and the SDMFileRead key; `mode` nil accepts AES and LRP tags alike (PICCData's length
    /// tells them apart), a mode accepts only that mode's URLs.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a key that is not 16 bytes.
    public init(metaReadKey: [UInt8]?, fileReadKey: [UInt8], mode: NTAG424CryptoMode? = nil) throws(NTAG424Error) {
        guard fileReadKey.count == 16, metaReadKey.map({ $0.count == 16 }) ?? true else {
            throw NTAG424Error(.invalidInput, "SDM keys are 16 bytes (32 hex characters)")
        }
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        acceptedModes = mode.map { [$0] } ?? NTAG424CryptoMode.allCases
    }

    /// The SDMFileRead key's check value: the first 3 bytes of AES-128(key, 16 zero bytes), for
    /// naming the key (a counter store's key set) without showing it, as
    /// ``NTAG424MasterKey/keyCheckValue()`` names a master key.
    public func fileReadKeyCheckValue() throws(NTAG424Error) -> ArraySlice<UInt8> {
        do {
            return try AES(key: fileReadKey).encrypt([UInt8](repeating: 0, count: 16)).prefix(3)
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// The UID and counter in encrypted PICCData: 16 bytes in AES, 24 in LRP.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for PICCData of another length, of a mode
    ///   this verifier does not accept, or without a meta-read key;
    ///   ``NTAG424Error/Code/integrityError`` when the tag byte it decrypts to is not one a tag
    ///   writes (a wrong key, or data that is not PICCData).
    public func decryptPICCData(_ encrypted: [UInt8]) throws(NTAG424Error) -> (uid: [UInt8]?, counter: Int?) {
        let decoded = try decodePICCData(encrypted)
        return (decoded.uid, decoded.counter)
    }

    /// The mode encrypted PICCData of `count` bytes was made in, if any.
    public static func mode(ofPICCDataLength count: Int) -> NTAG424CryptoMode? {
        NTAG424CryptoMode.allCases.first { $0.piccDataLength == count }
    }

    func decodePICCData(
        _ encrypted: [UInt8]
    ) throws(NTAG424Error) -> (uid: [UInt8]?, counter: Int?, mode: NTAG424CryptoMode) {
        guard let metaReadKey else {
            throw NTAG424Error(.invalidInput, "encrypted PICCData needs the SDMMetaRead key")
        }
        guard let mode = Self.mode(ofPICCDataLength: encrypted.count), acceptedModes.contains(mode) else {
            let lengths = acceptedModes.map {
                "\($0.piccDataLength) bytes (\($0.piccDataLength * 2) hex characters) in \($0)"
            }
            throw NTAG424Error(
                .invalidInput, "PICCData is \(lengths.joined(separator: " or ")), not \(encrypted.count) bytes")
        }
        let plain =
            switch mode {
            case .aes: try NTAG424Authentication.crypt(encrypted, key: metaReadKey, encrypting: false)
            case .lrp: try decryptLRPPICCData(encrypted, metaReadKey: metaReadKey)
            }
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
        return (uid, counter, mode)
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

    /// The file data of SDMENCFileData (NT4H2421Gx 9.3.6; AN12196 4.4). In AES: AES-CBC with the
    /// SDM session ENC key, the IV being E(ENC key, SDMReadCtr (3 bytes, least significant first)
    /// || 13 zero bytes). In LRP: LRICB with the LRP session ENC key.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data that is not whole AES blocks.
    public func decryptFileData(
        _ encrypted: [UInt8], uid: [UInt8]?, counter: Int?, mode: NTAG424CryptoMode = .aes
    ) throws(NTAG424Error) -> [UInt8] {
        guard !encrypted.isEmpty, encrypted.count % 16 == 0 else {
            throw NTAG424Error(.invalidInput, "encrypted file data is whole AES blocks, not \(encrypted.count) bytes")
        }
        if mode == .lrp {
            let key = try lrpSessionKeys(uid: uid, counter: counter).encryption
            return try key.decrypt(encrypted, counter: Self.lrpFileDataCounter(counter), padding: false).plaintext
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
    /// SDMMACInputOffset to SDMMACOffset, as ASCII when the tag mirrors in ASCII), in `mode`.
    public func mac(
        uid: [UInt8]?, counter: Int?, input: [UInt8], mode: NTAG424CryptoMode = .aes
    ) throws(NTAG424Error) -> [UInt8] {
        if mode == .lrp {
            return NTAG424Bytes.truncated(try lrpSessionKeys(uid: uid, counter: counter).mac.mac(input))
        }
        let key = try sessionKeys(uid: uid, counter: counter).mac
        do {
            return NTAG424Bytes.truncated(try AESCMAC.authenticationCode(for: input, key: key))
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// Checks a message whose PICCData is encrypted: decrypts it (in the mode its length tells),
    /// then checks `mac` against each of `inputs` (the MAC inputs the layout may have used), in
    /// order.
    public func verify(piccData: [UInt8], mac: [UInt8], inputs: [(name: String, bytes: [UInt8])]) -> NTAG424SUNResult {
        let decoded: (uid: [UInt8]?, counter: Int?, mode: NTAG424CryptoMode)
        do {
            decoded = try decodePICCData(piccData)
        } catch {
            return NTAG424SUNResult(uid: nil, counter: nil, isValid: false, problem: error.reason)
        }
        return verify(uid: decoded.uid, counter: decoded.counter, mac: mac, inputs: inputs, modes: [decoded.mode])
    }

    /// Checks a message whose UID and counter are mirrored in plain, in each of
    /// ``acceptedModes``.
    public func verify(
        uid: [UInt8]?, counter: Int?, mac: [UInt8], inputs: [(name: String, bytes: [UInt8])]
    ) -> NTAG424SUNResult {
        verify(uid: uid, counter: counter, mac: mac, inputs: inputs, modes: acceptedModes)
    }

    /// Checks `mac` against each input in each of `modes`, in order.
    func verify(
        uid: [UInt8]?, counter: Int?, mac: [UInt8], inputs: [(name: String, bytes: [UInt8])],
        modes: [NTAG424CryptoMode]
    ) -> NTAG424SUNResult {
        guard mac.count == 8 else {
            return NTAG424SUNResult(
                uid: uid, counter: counter, isValid: false,
                problem: "the SDMMAC is 8 bytes (16 hex characters), not \(mac.count)")
        }
        for mode in modes {
            for input in inputs {
                guard let expected = try? self.mac(uid: uid, counter: counter, input: input.bytes, mode: mode) else {
                    continue
                }
                if NTAG424Bytes.constantTimeEqual(expected, mac) {
                    return NTAG424SUNResult(
                        uid: uid, counter: counter, isValid: true, problem: nil, macInput: input.name, mode: mode)
                }
            }
        }
        return NTAG424SUNResult(
            uid: uid, counter: counter, isValid: false,
            problem: "the SDMMAC does not verify: a changed URL, another tag's keys, or a wrong SDMFileRead key")
    }
}
