import NFCCrypto

/// AES-128 key diversification of NXP application note AN10922 (2.2, "AES-128 key
/// diversification"): a tag's own key from a master key and the tag's UID (and optionally more
/// diversification input), so that one tag's key tells nothing of another's.
///
/// M = 01h || diversification input (1 to 31 bytes). When M is shorter than 32 bytes it is
/// padded with 80h and zeros to 32 bytes and the CMAC subkey K2 is used for the last block,
/// otherwise K1 (the CMAC of NIST SP 800-38B, but always over two blocks). The diversified key
/// is that CMAC.
///
/// Only libcrypto's AES and CMAC are used: K1 = D(K, CMAC(K, 0¹²⁸)) and
/// K2 = D(K, CMAC(K, ε)) ⊕ 80 00…00, and CMAC over the padded M with its last block XORed with
/// K1 ⊕ K2 is the CMAC of AN10922 (the standard CMAC XORs K1 into a complete last block).
public enum NTAG424KeyDiversification {
    /// The key diversified from `masterKey` with `input` (the 7-byte UID for NTAG 424 DNA keys).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless the master key has 16 bytes and the
    ///   input 1 to 31.
    public static func diversify(masterKey: [UInt8], input: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        guard masterKey.count == 16 else { throw NTAG424Error(.invalidInput, "the master key is 16 bytes") }
        guard (1...31).contains(input.count) else {
            throw NTAG424Error(.invalidInput, "diversification input is 1 to 31 bytes, not \(input.count)")
        }
        var message = [0x01] + input
        do {
            guard message.count < 32 else {
                return try AESCMAC.authenticationCode(for: message, key: masterKey)
            }
            message.append(0x80)
            while message.count < 32 { message.append(0x00) }
            let cipher = try AES(key: masterKey)
            let k1 = try cipher.decrypt(
                try AESCMAC.authenticationCode(for: [UInt8](repeating: 0, count: 16), key: masterKey))
            var k2 = try cipher.decrypt(try AESCMAC.authenticationCode(for: [UInt8](), key: masterKey))
            k2[0] ^= 0x80
            for index in 0..<16 { message[16 + index] ^= k1[index] ^ k2[index] }
            return try AESCMAC.authenticationCode(for: message, key: masterKey)
        } catch {
            throw NTAG424Error(error)
        }
    }
}

/// The CRC32 NTAG 424 DNA's ChangeKey carries over a new key (NT4H2421Gx datasheet 10.5.1, as
/// MIFARE DESFire EV2): the IEEE 802.3 polynomial (reflected, EDB88320h), initial value
/// FFFFFFFFh, no final XOR, sent least significant byte first. A checksum, not cryptography.
public enum NTAG424KeyChecksum {
    /// The 4 bytes of the checksum of `bytes`, as sent.
    public static func crc32(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return NTAG424Bytes.littleEndian(Int(crc), count: 4)
    }
}
