import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// The code examples of the README's "The session library" section, run as they are printed
/// there (the lines between `// Example begin` and `// Example end`), followed by checks of what
/// they did to the simulated tag. Keep both in step when either changes.
@Suite("README: the session library examples")
struct SessionLibraryExampleTests {
    @Test("T2T 1.1 6.4: open, status, write, read, prepare and confirm a lock of a factory NTAG215")
    func quickTour() async throws {
        // Example begin
        let reader = try await SimulatedReader(url: "sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)
        let uri = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com/menu".utf8))
        let message = NFCNDEFMessage(records: [uri])

        let tag = try await session.nextTag(timeout: .seconds(10))  // polls, selects, identifies
        let (status, capacity) = try await tag.queryNDEFStatus()  // .readWrite, 492 on a factory NTAG215
        if status == .readWrite, capacity >= message.length {
            try await tag.writeNDEF(message)  // tear-safe order, every page read back
            let stored = try await tag.readNDEF()  // == message
            print("\(tag.chipName ?? "tag") holds \(stored.records.count) record(s)")

            let confirmation = try await tag.prepareLock()  // reads and plans, writes nothing
            for step in confirmation.plan.steps { print("\(tag.writeCommandName) at \(step.address): \(step.reason)") }
            print("lock code \(confirmation.code)")  // for example 123-456
            try await tag.writeLock(confirmation)  // re-reads the tag, checks the digest, locks
        }
        if let type2 = tag as? NFCMiFareTag {  // NFC Forum Type 2: NTAG21x, MIFARE Ultralight
            print(try await type2.passwordStatus())  // the chip's own commands
        }
        await session.invalidate()
        // Example end

        let memory = try #require(reader.field.firstTag2Memory)
        #expect(memory.message == message)
        #expect(memory.ndefStatus.status == .readOnly)
        await reader.close()
    }

    @Test("T2T 1.1 6.4.3: a write torn when the tag leaves is completed by resumeWrite")
    func resume() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?remove-after=12&in-flight=tear")
        let session = NFCTagReaderSession(reader: reader)
        let tag = try #require(try await session.nextTag(timeout: .seconds(2)).miFareTag)
        let message = NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array(repeating: 0x61, count: 95))
        ])
        var resumed = false
        // Example begin
        do {
            try await tag.writeNDEF(message)
        } catch {
            guard error.mayBeHalfWritten else { throw error }
            // The tag reads as the old message, an empty one or the new one. Once it is back on
            // the reader, complete the write: the tag is re-read and only missing pages are written.
            // Example end
            #expect(error.code == .tagConnectionLost)
            reader.withField { $0.putBack() }
            resumed = true
            // Example begin
            try await tag.resumeWrite(message)
        }
        // Example end
        #expect(resumed)
        #expect(reader.field.firstTag2Memory?.message == message)
        await session.invalidate()
        await reader.close()
    }

    @Test("NTAG213/215/216 8.8 and 10: a password, one PWD_AUTH, raw frames without CRC, a NAK")
    func passwordAndRawCommands() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)
        let tag = try #require(try await session.nextTag(timeout: .seconds(2)).miFareTag)
        let message = NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02] + Array("enhi".utf8))
        ])
        // Example begin
        let password: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let acknowledge: [UInt8] = [0xAB, 0xCD]
        try await tag.setPassword(Type2PasswordSettings(password: password, passwordAcknowledge: acknowledge))
        // In a later session: one PWD_AUTH, never repeated by the library.
        try await tag.authenticate(password: password, expectedPasswordAcknowledge: acknowledge)
        try await tag.writeNDEF(message)

        let version = try await tag.sendMiFareCommand([0x60])  // GET_VERSION: 00 04 04 02 01 00 11 03
        let pages = try await tag.sendMiFareCommand([0x30, 0x04])  // READ: 16 bytes, pages 4-7
        let ack = try await tag.sendMiFareCommand([0xA2, 0x20, 0xDE, 0xAD, 0xBE, 0xEF])  // WRITE: [0x0A]
        do {
            _ = try await tag.sendMiFareCommand([0x30, 0xF0])  // past the last page: NAK 0h
        } catch {
            print(error.code)  // tagResponseError; the tag is selected again before the next command
        }
        // Example end
        #expect(version == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
        #expect(pages.count == 16)
        #expect(ack == [0x0A])
        #expect(reader.count(of: .passwordAuthentication) == 2)
        #expect(reader.field.firstTag2Memory?.configuration?.firstProtectedPage == 4)
        #expect(reader.field.firstTag2Memory?.message == message)
        // The NAK sent the tag back to IDLE, which ended the authentication.
        #expect(await tag.isAuthenticated == false)
        await session.invalidate()
        await reader.close()
    }
}

extension NFCNDEFTag {
    /// The Type 2 tag, if this is one.
    fileprivate var miFareTag: NFCMiFareTag? { self as? NFCMiFareTag }
}

extension SimulatedField {
    /// The memory of the first Type 2 tag.
    fileprivate var firstTag2Memory: Type2Memory? {
        guard let tag = tags.first?.type2Tag else { return nil }
        return Type2Memory(bytes: tag.bytes, chip: tag.chip)
    }
}
