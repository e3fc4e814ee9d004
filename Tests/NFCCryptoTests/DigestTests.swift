import NFCCrypto
import TestSupport
import Testing

@Suite("SHA-256, HMAC-SHA256 and AES-CMAC against published test vectors")
struct DigestTests {
    /// FIPS 180-4 examples (NIST CSRC "Example Values", SHA256.pdf): "abc", the empty string and
    /// the 448-bit two-block message.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256(message: String, digest: String) throws {
        #expect(try SHA256.hash(Array(message.utf8)) == hex(digest))
        // Bytes that are not contiguous in memory give the same digest.
        #expect(try SHA256.hash(message.utf8) == hex(digest))
    }

    /// RFC 4231, 4.2-4.5 and 4.7: test cases 1-4 and 6 (HMAC-SHA-256 lines); case 6 has a key
    /// longer than a block, which HMAC hashes first.
    @Test(arguments: [
        (
            String(repeating: "0b", count: 20), "4869205468657265",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            String(repeating: "aa", count: 131),
            "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func hmacSHA256(key: String, data: String, mac: String) throws {
        #expect(try HMACSHA256.authenticationCode(for: hex(data), key: hex(key)) == hex(mac))
    }

    /// An empty key and an empty message are valid HMAC input (RFC 2104, 2: the key is padded
    /// with zeros). Value from Python: hmac.new(b"", b"", hashlib.sha256).hexdigest().
    @Test func hmacOfNothing() throws {
        #expect(
            try HMACSHA256.authenticationCode(for: [], key: [])
                == hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    /// RFC 4493, 4: AES-CMAC examples 1-4 (the key of NIST SP 800-38B, D.1), 0, 16, 40 and 64
    /// bytes of the SP 800-38A plaintext.
    @Test(arguments: [
        (0, "bb1d6929e95937287fa37d129b756746"),
        (16, "070a16b46b4d4144f79bdd9dd04a287c"),
        (40, "dfa66747de9ae63030ca32611497c827"),
        (64, "51f0bebf7e3b9d92fc49741779363cfe"),
    ])
    func aesCMAC(length: Int, mac: String) throws {
        let message = Array(Self.spPlaintext.prefix(length))
        #expect(try AESCMAC.authenticationCode(for: message, key: Self.spKey) == hex(mac))
    }

    @Test func cmacRefusesAKeyOfTheWrongLength() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AESCMAC.authenticationCode(for: [1, 2, 3], key: [UInt8](repeating: 0, count: 15))
        }
    }

    /// NIST SP 800-38A, F.1 and F.2: the AES-128 key and four plaintext blocks.
    static let spKey = hex("2b7e151628aed2a6abf7158809cf4f3c")
    static let spPlaintext = hex(
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")
}
