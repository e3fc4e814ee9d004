import NDEF
import RecordSpecifications
import Testing

/// The Swift example of the RecordSpecifications DocC catalog, as printed there.
@Suite struct RecordSpecificationsDocumentationExampleTests {
    @Test("RecordSpecifications.md: a URI and a text record from their words")
    func overview() throws {
        // Example begin
        let message = try RecordSpecGrammar.standard.message(from: [
            "uri", "https://example.com/t/0042",
            "text", "Hall A, door 1", "--lang", "en",
        ])
        let bytes = try message.encoded()  // 91 01 ... as NFC Forum NDEF 1.0 lays it out
        // Example end
        #expect(bytes.first == 0x91)  // MB, SR, TNF 1: the first of two records
        #expect(try NFCNDEFMessage(decoding: bytes) == message)
        #expect(message.records.count == 2)
    }
}
