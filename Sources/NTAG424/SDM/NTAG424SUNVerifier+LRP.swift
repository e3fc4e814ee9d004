/// SDM in LRP mode (NT4H2421Gx datasheet 9.3.4 and 9.3.9.2; AN12304 2): the tag's PICCData,
/// session keys, SDMMAC and encrypted file data when it speaks LRP.
///
/// - PICCData (24 bytes, 48 hex characters) = PICCRand (8 random bytes) || LRICB(SDMMetaReadKey,
///   updated key 0; counter PICCRand; no padding) of PICCDataTag || UID || SDMReadCtr || padding.
/// - SV = `00 01 00 80` || UID || SDMReadCtr (3 bytes, least significant first) || zero padding
///   || `1E E1`, one whole block; the session master key is CMAC_LRP(SDMFileReadKey; SV); the MAC
///   key is its LRP with updated key 0, the ENC key with updated key 1.
/// - SDMMAC = MACt_LRP(MAC key; input): bytes 1, 3, ..., 15 of CMAC with LRP.
/// - SDMENCFileData = LRICB(ENC key; counter SDMReadCtr || `00 00 00`; no padding).
extension NTAG424SUNVerifier {
    /// The LRP session MAC and ENC keys for `uid` and `counter`, as LRPs ready to use.
    public func lrpSessionKeys(uid: [UInt8]?, counter: Int?) throws(NTAG424Error) -> (
        mac: NTAG424LRP, encryption: NTAG424LRP
    ) {
        var vector: [UInt8] = [0x00, 0x01, 0x00, 0x80] + (uid ?? [])
        if let counter { vector += NTAG424Bytes.littleEndian(counter, count: 3) }
        while (vector.count + 2) % 16 != 0 { vector.append(0) }
        vector += [0x1E, 0xE1]
        let master = try NTAG424LRP(key: fileReadKey).mac(vector)
        return (try NTAG424LRP(key: master, updatedKeyIndex: 0), try NTAG424LRP(key: master, updatedKeyIndex: 1))
    }

    /// The LRICB counter of SDMENCFileData in LRP: SDMReadCtr (least significant first) and three
    /// zero bytes.
    static func lrpFileDataCounter(_ counter: Int?) -> [UInt8] {
        NTAG424Bytes.littleEndian(counter ?? 0, count: 3) + [0, 0, 0]
    }

    /// Decrypts 24-byte LRP PICCData with the SDMMetaRead key: the 16 bytes after PICCRand,
    /// LRICB with PICCRand as the counter.
    func decryptLRPPICCData(_ encrypted: [UInt8], metaReadKey: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        let lrp = try NTAG424LRP(key: metaReadKey)
        return try lrp.decrypt(Array(encrypted[8...]), counter: Array(encrypted[..<8]), padding: false).plaintext
    }
}
