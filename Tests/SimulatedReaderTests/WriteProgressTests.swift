import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagSimulator
import Testing

/// `observeWriteProgress`: one call per acknowledged WRITE of a plan, pages written of pages
/// planned, as many as the tag received (NFC Forum Type 2 Tag 1.1, 5.2).
@Suite struct WriteProgressTests {
    @Test("A 300-byte text on an NTAG215: 1 to n of n, n the WRITEs the tag received")
    func progressCountsEveryWrite() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)
        guard let tag = try await session.nextTag(timeout: .seconds(10)) as? NFCMiFareTag else {
            Issue.record("not a Type 2 tag")
            return
        }
        let seen = Mutex<[NFCWriteProgress]>([])
        await tag.observeWriteProgress { progress in seen.withLock { $0.append(progress) } }
        let before = reader.count(of: SimulatedType2Command.write)
        let text = try TextRecord(text: String(repeating: "x", count: 300), language: "en").makeRecord()
        try await tag.writeNDEF(NFCNDEFMessage(records: [text]))
        let writes = reader.count(of: SimulatedType2Command.write) - before
        let progress = seen.withLock { $0 }
        #expect(writes > 70)
        #expect(progress.map(\.written) == Array(1...writes))
        #expect(progress.allSatisfy { $0.planned == writes && $0.purpose == "the NDEF write" })
        // Stopped: no more calls.
        await tag.observeWriteProgress(nil)
        try await tag.erase()
        #expect(seen.withLock { $0.count } == writes)
        await session.invalidate()
        await reader.close()
    }
}
