import NDEF
import NFCSession
import TagMemory
import Testing

@Suite("NDEF on Type 4 tags")
struct Type4Tests {
    /// Opens a session on `reader` and returns its ISO-DEP tag.
    func open(_ reader: TestType4Reader) async throws -> NFCISO7816Tag {
        let session = NFCTagReaderSession(reader: reader)
        guard case .iso7816(let tag) = try await session.nextTag(timeout: .seconds(1)) else {
            Issue.record("not an ISO-DEP tag")
            throw NFCReaderError(.tagNotSupported, "not ISO-DEP")
        }
        return tag
    }

    @Test("T4T 3.0 5.5.2-5.5.6: readNDEF of a 100-byte message: 7 APDUs, reads of at most MLe (59) bytes")
    func read() async throws {
        let message = uriMessage(length: 100)
        let reader = makeType4Field(.standard(message: encoded(message)))
        let tag = try await open(reader)
        #expect(tag.historicalBytes == [0x80])
        #expect(try await tag.readNDEF() == message)
        #expect(
            reader.log == [
                hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"), hex("00 A4 00 0C 02 E1 03"), hex("00 B0 00 00 0F"),
                hex("00 A4 00 0C 02 E1 04"), hex("00 B0 00 00 02"), hex("00 B0 00 02 3B"), hex("00 B0 00 3D 29"),
            ])
    }

    @Test("T4T 3.0 5.1.2: status from the CC: read/write, capacity 253; write access FF: read-only")
    func status() async throws {
        let tag = try await open(makeType4Field(.standard()))
        #expect(try await tag.ndefStatus() == NDEFTagStatus(status: .readWrite, capacity: 253))
        let locked = try await open(makeType4Field(.standard(writeAccess: 0xFF)))
        #expect(try await locked.queryNDEFStatus() == (.readOnly, 253))
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .zeroLengthMessage)
    }

    @Test("T4T 3.0 5.5.7: write over NLEN 0: message in MLc (52) pieces, NLEN last, then read back")
    func write() async throws {
        let message = uriMessage(length: 100)
        let reader = makeType4Field(.standard())
        let tag = try await open(reader)
        reader.clearLog()
        try await tag.writeNDEF(message)
        let updates = reader.log.filter { $0[1] == 0xD6 }
        #expect(
            updates.map { Array($0.prefix(5)) } == [
                hex("00 D6 00 02 34"), hex("00 D6 00 36 30"), hex("00 D6 00 00 02"),
            ])
        #expect(updates.last == hex("00 D6 00 00 02 00 64"))
        #expect(reader.card.messageBytes == encoded(message))
        #expect(try await tag.readNDEF() == message)
    }

    @Test("Checks before any UPDATE BINARY: read-only, too long, no records")
    func refusals() async throws {
        let locked = makeType4Field(.standard(writeAccess: 0xFF))
        let lockedTag = try await open(locked)
        #expect(await caught { try await lockedTag.writeNDEF(uriMessage(length: 10)) }?.code == .tagNotWritable)
        #expect(locked.updateCount == 0)
        let small = makeType4Field(.standard(size: 50))
        let smallTag = try await open(small)
        let error = await caught { try await smallTag.writeNDEF(uriMessage(length: 60)) }
        #expect(error?.code == .tagSizeTooSmall)
        #expect(error?.capacity == 48)
        #expect(error?.neededSize == 60)
        #expect(small.updateCount == 0)
        small.clearLog()
        #expect(await caught { try await smallTag.writeNDEF(NFCNDEFMessage(records: [])) }?.code == .zeroLengthMessage)
        #expect(small.log.isEmpty)
    }

    @Test("An ISO-DEP tag through a reader without ISO-DEP is reported as not supported and left alone")
    func noISODEP() async throws {
        let reader = makeType4Field(.standard(), supportsISODEP: false)
        let recorder = EventRecorder()
        let session = NFCTagReaderSession(
            reader: reader, options: .init(pollInterval: .milliseconds(5)), eventHandler: recorder.handler)
        #expect(await caught { _ = try await session.nextTag(timeout: .milliseconds(30)) }?.code == .timeout)
        let target = try #require(try await reader.pollTargets().first)
        #expect(recorder.all == [.began(readerName: "test:type4"), .tagNotSupported(target)])
        #expect(reader.log.isEmpty)
    }

    @Test("T4T 3.0 5.5.2: a version 1.0 tag answers the D2760000850100 application identifier")
    func versionOne() async throws {
        var card = TestType4Card.standard(message: encoded(uriMessage(length: 20)))
        card.applicationVersion = 1
        card.capabilityContainer[2] = 0x10
        let reader = makeType4Field(card)
        let tag = try await open(reader)
        #expect(try await tag.readNDEF() == uriMessage(length: 20))
        #expect(reader.log[1] == hex("00 A4 04 00 07 D2 76 00 00 85 01 00"))
        #expect(reader.log[2] == hex("00 A4 00 00 02 E1 03"))
    }

    @Test(
        "T4T 3.0 5.5.7: a write interrupted at every APDU leaves old, empty or new; resume completes",
        arguments: [true, false])
    func interrupted(completes: Bool) async throws {
        let old = encoded(uriMessage(length: 70, seed: 1))
        let new = uriMessage(length: 120, seed: 2)
        let clean = makeType4Field(.standard(message: old))
        try await open(clean).writeNDEF(new)
        let total = clean.log.count
        for index in 0..<total {
            let reader = makeType4Field(.standard(message: old))
            let tag = try await open(reader)
            reader.clearLog()
            reader.removeCard(afterCommands: index, completes: completes)
            #expect(await caught { try await tag.writeNDEF(new) }?.code == .tagConnectionLost, "APDU \(index)")
            let found = reader.card.messageBytes
            #expect(found == nil || found == old || found == encoded(new), "APDU \(index)")
            reader.putBack()
            try await tag.resumeWrite(new)
            #expect(reader.card.messageBytes == encoded(new))
        }
    }
}
