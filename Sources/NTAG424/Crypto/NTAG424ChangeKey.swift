/// The data of ChangeKey (C4h), before CommMode Full encryption (NT4H2421Gx datasheet 10.6.1,
/// Table 63; AN12196 5.16):
/// - changing the key the session is authenticated with (key 0, the application master key):
///   NewKey || KeyVer; the tag answers without MAC and the session ends;
/// - another key: (NewKey ⊕ OldKey) || KeyVer || CRC32NK, the CRC32 of NewKey
///   (``NTAG424KeyChecksum``); the tag answers with a MAC and the session goes on.
public enum NTAG424ChangeKey {
    /// The plaintext command data for changing key `keyNumber` to `newKey` with version
    /// `version`, in a session authenticated with `authenticatedKey`.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless the keys are 16 bytes and the key
    ///   number is 0-4; `oldKey` is needed for a key other than the authenticated one.
    public static func commandData(
        keyNumber: Int, newKey: [UInt8], version: UInt8, oldKey: [UInt8]?, authenticatedKey: Int
    ) throws(NTAG424Error) -> [UInt8] {
        guard (0...4).contains(keyNumber), newKey.count == 16 else {
            throw NTAG424Error(.invalidInput, "NTAG 424 DNA has keys 0-4 of 16 bytes")
        }
        if keyNumber == authenticatedKey { return newKey + [version] }
        guard let oldKey, oldKey.count == 16 else {
            throw NTAG424Error(.invalidInput, "changing key \(keyNumber) needs its current value (16 bytes)")
        }
        return zip(newKey, oldKey).map { $0 ^ $1 } + [version] + NTAG424KeyChecksum.crc32(newKey)
    }

    /// The tag's side: the new key and version in `data` (decrypted) for key `keyNumber` whose
    /// current value is `oldKey`, in a session authenticated with `authenticatedKey`.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data of the wrong length (91 7E),
    ///   ``NTAG424Error/Code/integrityError`` for a CRC32 that does not match (91 1E).
    public static func newKey(
        in data: [UInt8], keyNumber: Int, oldKey: [UInt8], authenticatedKey: Int
    ) throws(NTAG424Error) -> (key: [UInt8], version: UInt8) {
        if keyNumber == authenticatedKey {
            guard data.count == 17 else { throw NTAG424Error(.invalidInput, "ChangeKey of key 0 carries 17 bytes") }
            return (Array(data[0..<16]), data[16])
        }
        guard data.count == 21, oldKey.count == 16 else {
            throw NTAG424Error(.invalidInput, "ChangeKey of another key carries 21 bytes")
        }
        let key = zip(data[0..<16], oldKey).map { $0 ^ $1 }
        guard NTAG424KeyChecksum.crc32(key) == Array(data[17..<21]) else {
            throw NTAG424Error(.integrityError, "the CRC32 of the new key does not match")
        }
        return (key, data[16])
    }
}
