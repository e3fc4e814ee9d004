import Foundation
import NDEF
import NDEFFoundation
import Testing

/// The Swift examples of the NDEF and NDEFFoundation DocC catalogs, as printed there (between
/// `// Example begin` and `// Example end`), then checks of what they computed.
@Suite struct NDEFDocumentationExampleTests {
    @Test("NDEF.md: a link and a title encoded, decoded, the URI read through its view")
    func overview() throws {
        // Example begin
        let link = try URIRecord(uri: "https://example.com").makeRecord()
        let title = try TextRecord(text: "Example", language: "en").makeRecord()
        let bytes = try NFCNDEFMessage(records: [link, title]).encoded()

        let message = try NFCNDEFMessage(decoding: bytes)
        for record in message.records {
            if case .uri(let uri)? = try record.view() {
                print(uri.uri)
            }
        }
        // Example end
        #expect(message.records == [link, title])
        guard case .uri(let uri)? = try message.records[0].view() else {
            Issue.record("the first record is not a URI")
            return
        }
        #expect(uri.uri == "https://example.com")
    }

    @Test("EncodingAndDecoding.md: a record by hand, strict and lenient decoding")
    func encodingAndDecoding() throws {
        // A URI record, then a text record cut short.
        let damagedBytes: [UInt8] = [0x91, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8) + [0x51, 0x01, 0x08]
        // Example begin
        let record = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com".utf8))
        let bytes = try NFCNDEFMessage(records: [record]).encoded()  // [0xD1, 0x01, 0x0C, 0x55, 0x04, ...]
        let message = try NFCNDEFMessage(decoding: bytes)  // strict NDEF 1.0
        let recovery = try NFCNDEFMessage.recovering(from: damagedBytes)  // lenient, with a list of issues
        // Example end
        #expect(Array(bytes.prefix(5)) == [0xD1, 0x01, 0x0C, 0x55, 0x04])
        #expect(message.records == [record])
        #expect(!recovery.isClean)
        #expect(recovery.message.records == [record])
    }

    @Test("NDEFFoundation.md: Data in, Data out")
    func foundation() throws {
        // Example begin
        let record = NFCNDEFPayload(
            format: .media, type: Data("text/plain".utf8), identifier: Data(), payload: Data("Hello".utf8))
        let data = try NFCNDEFMessage(records: [record]).encodedData()
        let message = try NFCNDEFMessage(data: data)
        print(message.records[0].payloadData.count)
        // Example end
        #expect(message.records[0].payloadData == Data("Hello".utf8))
    }
}
