import NFCCrypto

/// One master key from which every tag of a batch gets its own five keys, by NXP's AES-128 key
/// diversification (AN10922 2.2, ``NTAG424KeyDiversification``): a key read out of one tag
/// tells nothing about any other tag's keys or about the master.
///
/// PICCData hides the UID, so a server must decrypt it before it knows which tag sent a URL: the
/// SDMMetaRead key is the one key all tags of a master share. Every other key is the tag's own.
/// The diversification inputs, so that any implementation of AN10922 derives the same keys:
///
/// | Key | Diversification input |
/// |---|---|
/// | the tag's key *n* (0-4) | UID (7 bytes) ‖ D2 76 00 00 85 01 01 (the NDEF application) ‖ *n* |
/// | the shared SDMMetaRead key *n* | D2 76 00 00 85 01 01 ‖ *n* ‖ 53 44 4D (`SDM`) |
///
/// The two lengths differ (15 and 11 bytes), so no tag key can equal the shared key.
public struct NTAG424MasterKey: Sendable {
    /// The NDEF application's DF name (NT4H2421Gx 8.2.2), part of every diversification input.
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]

    private let key: [UInt8]
    private let sharedKey: [UInt8]
    private let piccDecryptor: NTAG424SUNVerifier
    /// The SDMMetaRead key number (1-4): the key shared by every tag.
    public let metaReadKey: Int
    /// The SDMFileRead key number (1-4): a tag's own key, which MACs its URLs.
    public let fileReadKey: Int

    /// The master `key` (16 bytes), with the key numbers SDM uses.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a key that is not 16 bytes, key numbers
    ///   outside 1-4, or one key number for both.
    public init(_ key: [UInt8], metaReadKey: Int = 1, fileReadKey: Int = 2) throws(NTAG424Error) {
        guard key.count == 16 else { throw NTAG424Error(.invalidInput, "a master key is 16 bytes (32 hex characters)") }
        guard (1...4).contains(metaReadKey), (1...4).contains(fileReadKey) else {
            throw NTAG424Error(.invalidInput, "the SDM keys are keys 1-4 (key 0 is the tag's master key)")
        }
        guard metaReadKey != fileReadKey else {
            throw NTAG424Error(
                .invalidInput,
                "with a master key the SDMMetaRead key is shared by all tags and the SDMFileRead key is "
                    + "each tag's own: they must be two keys")
        }
        self.key = key
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        sharedKey = try NTAG424KeyDiversification.diversify(
            masterKey: key, input: Self.applicationName + [UInt8(truncatingIfNeeded: metaReadKey), 0x53, 0x44, 0x4D])
        piccDecryptor = try NTAG424SUNVerifier(metaReadKey: sharedKey, fileReadKey: sharedKey)
    }

    /// Key `number` (0-4) of the tag with `uid`, its own.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a UID that is not 7 bytes or a key number
    ///   outside 0-4.
    public func tagKey(_ number: Int, uid: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        guard uid.count == 7 else { throw NTAG424Error(.invalidInput, "an NTAG 424 DNA UID is 7 bytes") }
        guard let byte = UInt8(exactly: number), byte <= 4 else {
            throw NTAG424Error(.invalidInput, "an NTAG 424 DNA has keys 0-4")
        }
        return try NTAG424KeyDiversification.diversify(masterKey: key, input: uid + Self.applicationName + [byte])
    }

    /// The SDMMetaRead key every tag of this master shares.
    public var sharedMetaReadKey: [UInt8] { sharedKey }

    /// The five keys the tag with `uid` gets: the shared key at ``metaReadKey``, its own keys
    /// elsewhere.
    public func keys(uid: [UInt8]) throws(NTAG424Error) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        for number in 0..<5 {
            keys.append(number == metaReadKey ? sharedKey : try tagKey(number, uid: uid))
        }
        return keys
    }

    /// The master key's check value: the first 3 bytes of AES-128(master key, 16 zero bytes),
    /// the usual key check value, for telling two master keys apart without showing either.
    public func keyCheckValue() throws(NTAG424Error) -> ArraySlice<UInt8> {
        do {
            return try AES(key: key).encrypt([UInt8](repeating: 0, count: 16)).prefix(3)
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// Checks a URL of a tag of this master: PICCData decrypted with the shared key gives the
    /// UID, whose own SDMFileRead key checks the SDMMAC. A URL with the UID in plain is checked
    /// with that UID's key.
    public func verify(_ url: NTAG424SUNURL) -> NTAG424SUNResult {
        var uid = url.uid
        var counter = url.counter
        var modes = NTAG424CryptoMode.allCases
        do {
            if let piccData = url.piccData {
                let decoded = try piccDecryptor.decodePICCData(piccData)
                (uid, counter, modes) = (decoded.uid, decoded.counter, [decoded.mode])
            }
            guard let uid else {
                return NTAG424SUNResult(
                    uid: nil, counter: counter, isValid: false,
                    problem: "the URL carries no UID: a tag's own key cannot be derived without it")
            }
            let verifier = try NTAG424SUNVerifier(metaReadKey: nil, fileReadKey: try tagKey(fileReadKey, uid: uid))
            let result = verifier.verify(uid: uid, counter: counter, mac: url.mac, inputs: url.macInputs, modes: modes)
            return url.withFileData(result, verifier: verifier)
        } catch {
            return NTAG424SUNResult(uid: uid, counter: counter, isValid: false, problem: error.reason)
        }
    }
}
