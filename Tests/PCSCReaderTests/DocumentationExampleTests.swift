import Foundation
import NDEF
import NFCSession
import PCSCReader
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The Swift examples of the PCSCReader DocC catalog, as printed there, through the real pcscd
/// to a simulated tag in a vpcd reader (nested in the serialized suite of that reader).
extension PCSCDaemonTests {
    @Test("PCSCReader.md: the records of the tag on a PC/SC reader, with a success signal")
    func documentationExample() async throws {
        // Example begin
        /// The records on the tag at the PC/SC reader `url` names, for example "pcsc:ACS?profile=acr122u".
        func countRecords(at url: String) async throws -> Int {
            print(try await PCSCReaders.names())  // for example ["ACS ACR122U PICC Interface 00 00"]
            let reader = try await PCSCReaders.open(url: url)
            let session = NFCTagReaderSession(reader: reader)
            var count = 0
            if let tag = try await session.nextTag(timeout: .seconds(10)) as? NFCMiFareTag {
                count = try await tag.readNDEF().records.count
                await reader.signal(.success)
            }
            await session.invalidate()
            await reader.close()
            return count
        }
        // Example end
        let tagReader = try await SimulatedReader(url: "sim:ntag215")
        let writer = NFCTagReaderSession(reader: tagReader)
        let link = try URIRecord(uri: "https://example.com").makeRecord()
        try await writer.nextTag(timeout: .seconds(10)).writeNDEF(NFCNDEFMessage(records: [link, link]))
        await writer.invalidate()
        let bench = try await CardBench(tagReader)
        let url = "pcsc:" + PCSCTestReaders.cardReader.replacingOccurrences(of: " ", with: "%20")
        #expect(try await countRecords(at: url) == 2)
        await bench.stop()
    }

    @Test("UsingPCSCReaders.md: a reconnecting session on a PC/SC reader")
    func reconnectingExample() async throws {
        // Example begin
        /// A session on the PC/SC reader `url` names ("pcsc:ACS"), reopened when it goes away.
        func reconnectingSession(at url: String) async throws -> NFCTagReaderSession {
            let reader = try await ReconnectingReader.open { () throws(NFCReaderError) in
                try await PCSCReaders.open(url: url)
            }
            return NFCTagReaderSession(reader: reader) { event in print(event) }
        }
        // Example end
        let bench = try await CardBench(tag: .type2(SimulatedType2Tag(chip: .ntag213)))
        let url = "pcsc:" + PCSCTestReaders.cardReader.replacingOccurrences(of: " ", with: "%20")
        let session = try await reconnectingSession(at: url)
        let tag = try await session.nextTag(timeout: .seconds(30))
        #expect(try await tag.queryNDEFStatus().0 == .readWrite)
        await session.invalidate()
        await bench.stop()
    }
}
