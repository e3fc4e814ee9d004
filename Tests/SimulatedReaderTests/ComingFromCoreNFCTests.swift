import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// The example of the "Coming from CoreNFC" article, as printed there, then checks of what it
/// did to the simulated tag.
@Suite("Coming from CoreNFC: the article's example")
struct ComingFromCoreNFCTests {
    @Test("Await a tag, query, write, use a kind's own command, lock with its code")
    func example() async throws {
        var printed: [String] = []
        let print: (Any...) -> Void = { printed.append($0.map { "\($0)" }.joined(separator: " ")) }
        // Example begin
        let reader = try await SimulatedReader(url: "sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)  // no delegate: await the tag
        let tag = try await session.nextTag(timeout: .seconds(10))  // any NFCNDEFTag
        let (status, capacity) = try await tag.queryNDEFStatus()  // (.readWrite, 492)
        let message = NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com").makeRecord()])
        try await tag.writeNDEF(message)
        if let type2 = tag as? NFCMiFareTag {  // CoreNFC: case .miFare(let type2)
            print(try await type2.sendMiFareCommand([0x30, 0x04]).count, status, capacity)  // READ page 4: 16
        }
        let confirmation = try await tag.prepareLock()  // CoreNFC's writeLock(), in two steps
        try await tag.writeLock(try confirmation.confirmed(byCode: confirmation.code))
        await session.invalidate()  // async: the reader releases the tag first
        // Example end
        #expect(printed == ["16 readWrite 492"])
        let image = try #require(reader.field.tags.first?.type2Tag)
        let memory = Type2Memory(bytes: image.bytes, chip: image.chip)
        #expect(memory.message == message)
        #expect(memory.ndefStatus.status == .readOnly)
        #expect(!tag.isAvailable)
        await reader.close()
    }
}
