import NDEF
import NFCReaders
import NFCSession
import Testing

/// The Swift example of the NFCReaders DocC catalog, as printed there.
@Suite struct NFCReadersDocumentationExampleTests {
    @Test("NFCReaders.md: a reader by URL, a link written and read back")
    func overview() async throws {
        // Example begin
        let reader = try await openReader("sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)
        await session.begin()
        let tag = try await session.nextTag(timeout: .seconds(10))  // a Type 2 or a Type 4 tag
        try await tag.writeNDEF(NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com").makeRecord()]))
        let stored = try await tag.readNDEF()
        print(stored)
        await session.invalidate()
        await reader.close()
        // Example end
        #expect(stored == NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com").makeRecord()]))
    }
}
