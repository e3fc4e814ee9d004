import NFCCrypto
import TestSupport
import Testing

@Suite("ECDSA signatures through libcrypto")
struct ECDSATests {
    /// RFC 6979, A.2.5: P-256 key, SHA-256 of "sample". The verifier takes the message as the
    /// digest, so the test hashes it first.
    @Test func rfc6979P256() throws {
        let key = try ECDSAPublicKey(
            curve: "prime256v1",
            point: hex(
                "04" + "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
                    + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"))
        let signature = hex(
            "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
                + "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8")
        let digest = try SHA256.hash(Array("sample".utf8))
        #expect(key.signatureByteCount == 64)
        #expect(try key.isValidSignature(signature, for: digest))
        #expect(try !key.isValidSignature(signature, for: try SHA256.hash(Array("test".utf8))))
        // The same key read back from its DER form.
        #expect(try ECDSAPublicKey(der: key.derRepresentation) == key)
    }

    /// A key on secp128r1, the curve of NXP's NTAG21x originality signature, signs a 7-byte UID
    /// unhashed as the tags do; a changed bit, an all-zero signature, a signature of the wrong
    /// length or of another UID do not verify.
    @Test func secp128r1OverAUID() throws {
        let privateKey = try ECDSAPrivateKey(generatingOn: "secp128r1")
        let publicKey = try privateKey.publicKey
        let uid = hex("04517CA24B3580")
        let signature = try privateKey.signature(for: uid)
        #expect(signature.count == 32)
        #expect(publicKey.curveName == "secp128r1")
        #expect(try publicKey.isValidSignature(signature, for: uid))
        var flipped = signature
        flipped[5] ^= 0x01
        #expect(try !publicKey.isValidSignature(flipped, for: uid))
        #expect(try !publicKey.isValidSignature([UInt8](repeating: 0, count: 32), for: uid))
        #expect(try !publicKey.isValidSignature(Array(signature.prefix(31)), for: uid))
        #expect(try !publicKey.isValidSignature(signature, for: hex("04517CA24B3581")))
        #expect(try !publicKey.isValidSignature([UInt8](repeating: 0xFF, count: 32), for: uid))
        // The point alone gives the same key.
        #expect(try ECDSAPublicKey(curve: "secp128r1", point: publicKey.point) == publicKey)
    }

    @Test func pemRoundTrip() throws {
        let privateKey = try ECDSAPrivateKey(generatingOn: "secp224r1")
        let pem = try privateKey.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try ECDSAPrivateKey(pem: pem)
        #expect(try again.publicKey == privateKey.publicKey)
        let signature = try again.signature(for: [1, 2, 3, 4, 5, 6, 7])
        #expect(signature.count == 56)
        #expect(try privateKey.publicKey.isValidSignature(signature, for: [1, 2, 3, 4, 5, 6, 7]))
        #expect(!"\(privateKey)".contains("BEGIN"))
        #expect("\(privateKey)" == "ECDSAPrivateKey(secp224r1, **)")
    }

    @Test func refusesWhatIsNoKey() {
        #expect(throws: CryptoError(.invalidKey, "")) { try ECDSAPublicKey(pem: "not a key") }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECDSAPrivateKey(pem: "") }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECDSAPublicKey(der: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        // A point that is not on the curve, and one of the wrong length.
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECDSAPublicKey(curve: "secp128r1", point: [0x04] + [UInt8](repeating: 0x01, count: 32))
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECDSAPublicKey(curve: "secp128r1", point: [0x04, 1, 2]) }
        #expect(throws: (any Error).self) { try ECDSAPublicKey(curve: "no-such-curve", point: [0x04, 1, 2]) }
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try ECDSAPrivateKey(generatingOn: "no-such-curve") }
    }
}
