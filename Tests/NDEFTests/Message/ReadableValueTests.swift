import Foundation
import NDEF
import NDEFFoundation
import Testing

/// What `print` shows of messages and records (a person reads it), what `debugPrint` shows (the
/// fields), and CoreNFC's well-known conveniences with `URL` and `Locale`.
@Suite("Readable messages and records; CoreNFC's URL and Locale factories")
struct ReadableValueTests {
    @Test("print(message) lists each record through its view; a record no view reads shows format, type and size")
    func descriptions() throws {
        let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/menu"))
        let text = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "Hello", language: "en"))
        let other = NFCNDEFPayload(format: .nfcExternal, type: "example.com:thing", payload: [1, 2, 3])
        let message = NFCNDEFMessage(records: [uri, text, other])
        let views = try [uri, text, other].map { try #require(try $0.view()).value.description }
        #expect(
            message.description
                == "NDEF message, 3 records:\n  1. \(views[0])\n  2. \(views[1])\n  3. \(views[2])")
        #expect(uri.description.contains("https://example.com/menu"))
        #expect(text.description.contains("Hello") && text.description.contains("en"))
        #expect(!message.description.contains("ArraySlice") && !message.description.contains("typeIsChecked"))
        let unknown = NFCNDEFPayload(format: .unknown, type: [], payload: [0xFF, 0xFE])
        #expect(unknown.description == "unknown, 2-byte payload")
        let media = NFCNDEFPayload(format: .media, type: "image/png", payload: Array(repeating: 0, count: 1024))
        #expect(media.description.contains("image/png"))
        let broken = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [])
        #expect(broken.description.hasPrefix("well-known \"U\" (malformed payload: "))
        #expect(NFCNDEFMessage(records: [uri]).description.hasPrefix("NDEF message, 1 record:\n  1. "))
    }

    @Test("debugPrint shows the fields in hex")
    func debugDescriptions() {
        let record = NFCNDEFPayload(format: .nfcWellKnown, type: "U", identifier: [0x01], payload: [0x04, 0x61])
        #expect(record.debugDescription == "NFCNDEFPayload(tnf: 1, type: 55, id: 01, payload: 0461)")
        #expect(NFCNDEFMessage(records: [record]).debugDescription == "NFCNDEFMessage([\(record.debugDescription)])")
    }

    @Test("wellKnownTypeURIPayload(url:) and wellKnownTypeTextPayload(string:locale:), and CoreNFC's readers")
    func foundationFactories() throws {
        let url = try #require(URL(string: "https://www.example.com/a?b=c"))
        let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: url))
        #expect(uri.payload.first == 0x02)  // "https://www." abbreviated (URI RTD 1.0, 3.2.2)
        #expect(uri.wellKnownTypeURIPayload() == url)
        #expect(uri.wellKnownURI == url.absoluteString)
        let text = try #require(
            NFCNDEFPayload.wellKnownTypeTextPayload(string: "Bonjour", locale: Locale(identifier: "fr_CA")))
        #expect(text.wellKnownText?.language == "fr-CA")
        let (read, locale) = text.wellKnownTypeTextPayload()
        #expect(read == "Bonjour" && locale.identifier == "fr-CA")
        #expect(uri.wellKnownTypeTextPayload().0 == nil && text.wellKnownTypeURIPayload() == nil)
    }
}
