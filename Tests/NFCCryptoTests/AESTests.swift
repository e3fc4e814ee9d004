import NFCCrypto
import TestSupport
import Testing

@Suite("AES blocks and CBC against published test vectors")
struct AESTests {
    /// FIPS 197, appendix C.1 (AES-128) and C.3 (AES-256): one block.
    @Test(arguments: [
        ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
        (
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "8ea2b7ca516745bfeafc49904b496089"
        ),
    ])
    func fips197Block(key: String, ciphertext: String) throws {
        let aes = try AES(key: hex(key))
        let plaintext = hex("00112233445566778899aabbccddeeff")
        #expect(try aes.encrypt(plaintext) == hex(ciphertext))
        #expect(try aes.decrypt(hex(ciphertext)) == plaintext)
    }

    /// NIST SP 800-38A, F.2.1 and F.2.2: CBC-AES128 over four blocks.
    @Test func sp800_38aCBC() throws {
        let aes = try AES(key: DigestTests.spKey)
        let iv = hex("000102030405060708090a0b0c0d0e0f")
        let ciphertext = hex(
            "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
                + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7")
        #expect(try aes.encrypt(DigestTests.spPlaintext, iv: iv) == ciphertext)
        #expect(try aes.decrypt(ciphertext, iv: iv) == DigestTests.spPlaintext)
    }

    @Test func refusesPartialBlocksBadIVsAndBadKeys() throws {
        let aes = try AES(key: DigestTests.spKey)
        #expect(throws: CryptoError(.invalidInput, "")) { try aes.encrypt([UInt8](repeating: 0, count: 17)) }
        #expect(throws: CryptoError(.invalidInput, "")) { try aes.decrypt([UInt8](repeating: 0, count: 16), iv: [0]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try AES(key: [UInt8](repeating: 0, count: 8)) }
        #expect(try aes.encrypt([]) == [])
        #expect("\(aes)" == "AES(**)")
    }

    @Test func randomBytes() throws {
        let first = try SecureRandom.bytes(count: 16)
        let second = try SecureRandom.bytes(count: 16)
        #expect(first.count == 16)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0) == [])
        #expect(throws: CryptoError(.invalidInput, "")) { try SecureRandom.bytes(count: -1) }
    }

    /// Error codes are a struct: a switch needs `default`, so new codes break no client.
    @Test func errorCodesAreExtensible() {
        func name(_ code: CryptoError.Code) -> String {
            switch code {
            case .invalidKey: "key"
            case .invalidInput: "input"
            default: "other"
            }
        }
        #expect(name(.invalidKey) == "key")
        #expect(name(.library) == "other")
        #expect("\(CryptoError(.invalidKey, "too short"))" == "invalid-key: too short")
    }
}
