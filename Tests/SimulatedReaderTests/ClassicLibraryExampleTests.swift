import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// The examples of NFCSession's "MIFARE Classic" article, run as printed (between `// Example
/// begin` and `// Example end`), then checked against the simulated card.
@Suite("NFCSession's MIFARE Classic article: the examples")
struct ClassicLibraryExampleTests {
    static let message = NFCNDEFMessage(records: [
        NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com/classic".utf8))
    ])
    static let keysFileText = """
        # the line's keys
        key-b 5A5A5A5A5A5A
        """

    @Test("AN1304: format a factory 1K with a keyring, then write and read with the public keys, then lock")
    func formatWriteLock() async throws {
        let reader = try await SimulatedReader(url: "sim:classic1k")
        let opening = NFCTagReaderSession(reader: reader)
        let keysFileText = Self.keysFileText
        let keys = try await { (card: NFCMiFareClassicTag) in
            // Example begin
            let keys = try MifareClassicKeyring(linesOf: keysFileText)  // holds "key-b ..."
            let confirmation = try await card.prepareFormat(keys: keys)
            print("format code \(confirmation.code)")  // show it; format only once it is confirmed
            try await card.format(keys: keys, confirmation: confirmation)
            // Example end
            return keys
        }(try #require(try await opening.nextTag(timeout: .seconds(2)) as? NFCMiFareClassicTag))
        await opening.invalidate()

        let message = Self.message
        // Example begin
        let session = NFCTagReaderSession(reader: reader)
        let card = try await session.nextTag(timeout: .seconds(10))  // an NFCMiFareClassicTag
        let (status, capacity) = try await card.queryNDEFStatus()  // .readWrite, 716 on a formatted 1K
        if status == .readWrite {
            try await card.writeNDEF(message)  // length 0 first, the length last, every block read back
            print(try await card.readNDEF().records.count)
        }
        await session.invalidate()
        // Example end
        #expect(status == .readWrite && capacity == 716)
        #expect(reader.field.tags.first?.classicTag?.memory.message == message)

        let locking = NFCTagReaderSession(reader: reader)
        try await { (card: NFCMiFareClassicTag) in
            // Example begin
            await card.useKeys(keys)
            let lock = try await card.prepareLock()  // reads, finds key B, plans; writes nothing
            try await card.writeLock(lock)  // re-reads, checks the code, rewrites the trailers
            // Example end
        }(try #require(try await locking.nextTag(timeout: .seconds(2)) as? NFCMiFareClassicTag))
        await locking.invalidate()
        let stored = try #require(reader.field.tags.first?.classicTag)
        #expect(stored.memory.ndefStatus.status == .readOnly)
        let sector = try #require(MifareClassicSector(1))
        #expect(Array(stored.trailer(of: sector).suffix(6)) == [0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A])
        await reader.close()
    }
}
