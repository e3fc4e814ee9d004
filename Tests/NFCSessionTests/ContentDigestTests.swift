import Testing

@testable import NFCSession

@Suite("SHA-256 through libcrypto")
struct ContentDigestTests {
    /// FIPS 180-4 example "abc" (NIST CSRC example values, SHA256.pdf).
    @Test func abcDigest() throws {
        let digest = try #require(ContentDigest.sha256(Array("abc".utf8)))
        #expect(
            digest.map { hexByte($0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func emptyDigest() throws {
        let digest = try #require(ContentDigest.sha256([]))
        #expect(
            digest.map { hexByte($0) }.joined()
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
