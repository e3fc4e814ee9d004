import NFCCrypto
import Testing

/// The Swift example of the NFCCrypto DocC catalog, as printed there, then checks of its values.
@Suite struct NFCCryptoDocumentationExampleTests {
    @Test("NFCCrypto.md: a digest, an HMAC, an AES block, an ECDSA signature")
    func overview() throws {
        // Example begin
        let digest = try SHA256.hash(Array("hello".utf8))
        let mac = try HMACSHA256.authenticationCode(for: Array("row 17".utf8), key: digest)

        let key = try SecureRandom.bytes(count: 16)
        let block = try AES(key: key).encrypt([UInt8](repeating: 0, count: AES.blockCount))

        let signer = try ECDSAPrivateKey(generatingOn: "prime256v1")
        let signature = try signer.signature(for: digest)
        print(try signer.publicKey.isValidSignature(signature, for: digest))  // true
        // Example end
        // SHA-256("hello"), FIPS 180-4 as every implementation gives it.
        #expect(digest.prefix(4) == [0x2C, 0xF2, 0x4D, 0xBA])
        #expect(mac.count == 32 && block.count == 16)
        #expect(try signer.publicKey.isValidSignature(signature, for: digest))
    }
}
