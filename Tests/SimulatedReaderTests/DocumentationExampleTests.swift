import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// The Swift examples of the SimulatedReader and NFCSession DocC catalogs, as printed there,
/// then checks of what they did.
@Suite struct SimulatedReaderDocumentationExampleTests {
    @Test("SimulatedReader.md: a link written on a simulated NTAG215, its WRITE frames counted")
    func overview() async throws {
        // Example begin
        let reader = try await SimulatedReader(url: "sim:ntag215")  // add ?file=tag.nfc to keep the tag
        let session = NFCTagReaderSession(reader: reader)
        let link = try URIRecord(uri: "https://example.com").makeRecord()
        if let tag = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag {
            try await tag.writeNDEF(NFCNDEFMessage(records: [link]))
        }
        print(reader.count(of: SimulatedType2Command.write))  // the WRITE frames the tag received
        await session.invalidate()
        await reader.close()
        // Example end
        // T2T 1.1 6.4.3 as the session writes it: the first page of the TLV, the rest, then the length.
        #expect(reader.count(of: SimulatedType2Command.write) >= 2)
    }

    @Test("SimulatedReaders.md: a supply of 50 tags, each written and taken away")
    func supply() async throws {
        // Example begin
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=50")
        let session = NFCTagReaderSession(reader: reader)
        while let tag = try? await session.nextTag(timeout: .seconds(1)) {
            // write the tag, then:
            await reader.signal(.success)
            try await session.waitForRemoval(of: tag)
        }
        // reader.suppliedTags: 50 tags, each with its own message
        // Example end
        #expect(reader.suppliedTags.count == 50)
    }

    @Test("SimulatedReaders.md: an unplugged reader reopened by ReconnectingReader")
    func unplugged() async throws {
        // Example begin
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=20&unplug-after=50&unplug-ms=200")
        let device = ReconnectingReader(reader) { () throws(NFCReaderError) in
            try await reader.reconnect()
            return reader
        }
        // A write broken by the unplug throws reader-unavailable (mayBeHalfWritten); the next poll
        // reconnects (reconnectStarted, reconnectSucceeded) and resumeWrite completes the same tag.
        // Example end
        let session = NFCTagReaderSession(reader: device)
        let tag = try await session.nextTag(timeout: .seconds(10))
        #expect(try await tag.queryNDEFStatus().0 == .readWrite)
        await session.invalidate()
    }

    @Test("NFCSession.md: writeLink(with:) on a simulated Type 2 and Type 4 tag")
    func writeLinkExample() async throws {
        // Example begin
        func writeLink(with reader: any NFCReaderDevice) async throws {
            let session = NFCTagReaderSession(reader: reader)
            let message = NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com").makeRecord()])
            let tag = try await session.nextTag(timeout: .seconds(10))  // any NFCNDEFTag
            try await tag.writeNDEF(message)
            await session.invalidate()
        }
        // Example end
        for url in ["sim:ntag213", "sim:type4"] {
            let reader = try await SimulatedReader(url: url)
            try await writeLink(with: reader)
            let session = NFCTagReaderSession(reader: reader)
            let tag = try await session.nextTag(timeout: .seconds(10))
            #expect(
                try await tag.readNDEF()
                    == NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com").makeRecord()]), "\(url)")
            await session.invalidate()
            await reader.close()
        }
    }
}
