import NDEF
import Testing

@Suite("CoreNFC-style well-known payload conveniences")
struct WellKnownConvenienceTests {
    @Test("wellKnownTypeURIPayload(string:) builds an abbreviated URI record")
    func buildsURI() throws {
        let record = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "http://www.nfc.com"))
        #expect(try messageHex(record) == "d1010855016e66632e636f6d")
        #expect(record.wellKnownURI == "http://www.nfc.com")
        #expect(record.wellKnownText == nil)
    }

    @Test("wellKnownTypeTextPayload(string:language:) builds a UTF-8 text record")
    func buildsText() throws {
        let record = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "Hello, world!", language: "en"))
        #expect(try messageHex(record) == "d101105402656e48656c6c6f2c20776f726c6421")
        let read = try #require(record.wellKnownText)
        #expect(read.text == "Hello, world!")
        #expect(read.language == "en")
        #expect(record.wellKnownURI == nil)
        #expect(
            NFCNDEFPayload.wellKnownTypeTextPayload(string: "x", language: String(repeating: "a", count: 64)) == nil)
    }

    @Test("the readers return nil for malformed records")
    func malformed() {
        #expect(NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: []).wellKnownURI == nil)
        #expect(NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x05]).wellKnownText == nil)
    }
}
