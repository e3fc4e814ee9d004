import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import Testing

/// The CoreNFC-shaped tag protocol (`NFCNDEFTag`): every kind of tag the session hands out, and
/// the NTAG 424 DNA wrapper, runs the same NDEF operations through it; errors of two modules are
/// caught in one `catch` (`NDEFToolError`).
@Suite("NFCNDEFTag: one protocol for every kind of tag")
struct TagProtocolTests {
    /// Writes, reads back, erases and locks through the protocol alone.
    private func exercise(_ tag: any NFCNDEFTag) async throws -> [String] {
        var seen: [String] = [tag.description]
        let message = NFCNDEFMessage(records: [
            try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/p"))
        ])
        let plan = try await tag.plannedWrite(of: message)
        #expect(!plan.steps.isEmpty)
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        #expect(try await tag.readNDEFAsWritten() == message)
        #expect(try await tag.readNDEFMessageBytes() == (try message.encoded()))
        let status = try await tag.ndefStatusAfterChange()
        #expect(status.status == .readWrite && status.capacity >= message.length)
        try await tag.erase()
        #expect(try await tag.readNDEFMessageBytes() == [])
        try await tag.writeNDEF(message)
        let confirmation = try await tag.prepareLock()
        await #expect(throws: NFCReaderError(.confirmationMismatch, "")) {
            try await tag.writeLock(try confirmation.confirmed(byCode: "000-000"))
        }
        try await tag.writeLock(try confirmation.confirmed(byCode: confirmation.code))
        #expect(try await tag.queryNDEFStatus().0 == .readOnly)
        seen.append(tag.writeCommandName)
        #expect(await tag.commandsSent > 0)
        return seen
    }

    @Test(
        "Type 2, Type 4 and NTAG 424 DNA: write, read, erase, prepare and confirm a lock through the protocol",
        arguments: ["sim:ntag215", "sim:type4?cc-writable=1", "sim:ntag424"])
    func everyKind(url: String) async throws {
        let reader = try await SimulatedReader(url: url)
        let session = NFCTagReaderSession(reader: reader)
        var tag = try await session.nextTag(timeout: .seconds(2))
        #expect(tag.isAvailable)
        if url == "sim:ntag424" {
            tag = try #require(NFCNTAG424Tag.commands(of: tag))
            #expect(tag.chipName == "NTAG 424 DNA")
        }
        do {
            let seen = try await exercise(tag)
            #expect(seen[0].hasPrefix(tag.targetInfo.uidDescription + ": "))
            #expect(seen[1] == (url == "sim:ntag215" ? "page write" : "UPDATE BINARY command"))
        } catch let error as NFCReaderError where url == "sim:ntag424" && error.code == .tagNotWritable {
            // An NTAG 424 DNA changes its CC only with ChangeFileSettings: the ISO lock is refused
            // before anything is written (NT4H2421Gx 8.2.3.1), which is what this kind does.
        }
        await session.invalidate()
        #expect(!tag.isAvailable)
        await #expect(throws: NFCReaderError(.cancelled, "")) { try await tag.readNDEF() }
        await reader.close()
    }

    @Test("Progress is reported after each accepted write, on Type 2 and Type 4 tags alike")
    func progress() async throws {
        for url in ["sim:ntag216", "sim:type4?ndef-size=2048&mlc=64"] {
            let reader = try await SimulatedReader(url: url)
            let session = NFCTagReaderSession(reader: reader)
            let tag = try await session.nextTag(timeout: .seconds(2))
            let reports = Reports()
            await tag.observeWriteProgress { reports.append($0) }
            let message = NFCNDEFMessage(records: [
                NFCNDEFPayload(format: .media, type: "text/plain", payload: Array(repeating: 0x61, count: 600))
            ])
            try await tag.writeNDEF(message)
            let seen = reports.all
            let planned = try #require(seen.last?.planned)
            #expect(seen.map(\.written) == Array(1...planned), "\(url)")
            await session.invalidate()
            await reader.close()
        }
    }

    @Test("One catch for the errors of two modules: a record that cannot be built, a message that does not fit")
    func oneCatch() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213")
        let session = NFCTagReaderSession(reader: reader)
        let tag = try await session.nextTag(timeout: .seconds(2))
        func write(_ link: String, bytes: Int) async -> (code: String, halfWritten: Bool)? {
            do {
                let record = try URIRecord(uri: link).makeRecord()  // NDEFError
                let padding = NFCNDEFPayload(format: .media, type: "a/b", payload: Array(repeating: 0, count: bytes))
                try await tag.writeNDEF(NFCNDEFMessage(records: [record, padding]))  // NFCReaderError
                return nil
            } catch let error as any NDEFToolError {
                return (error.code.rawValue, error.mayBeHalfWritten)
            } catch {
                return ("not an NDEFToolError", false)
            }
        }
        #expect(await write("https://example.com/\u{7}", bytes: 1)?.code == "invalid-value")
        #expect(await write("https://example.com/", bytes: 400)?.code == "tag-size-too-small")
        #expect(await write("https://example.com/", bytes: 10) == nil)
        await session.invalidate()
        await reader.close()
    }
}

/// Progress reports, collected from the tag's executor.
private final class Reports: Sendable {
    private let reports = Mutex<[NFCWriteProgress]>([])
    func append(_ report: NFCWriteProgress) { reports.withLock { $0.append(report) } }
    var all: [NFCWriteProgress] { reports.withLock { $0 } }
}
