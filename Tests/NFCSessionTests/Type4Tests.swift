import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("NDEF on Type 4 tags")
struct Type4Tests {
    @Test("T4T 3.0 5.5.2-5.5.6: readNDEF of a 100-byte message: 7 APDUs, reads of at most MLe (59) bytes")
    func read() async throws {
        let message = uriMessage(length: 100)
        let reader = makeType4Reader(try type4Tag(message: message))
        let (_, tag) = try await openType4Tag(reader)
        // ISO/IEC 14443-4 5.2.7: ATS 06 77 77 71 02 80, T0 77 announces TA, TB, TC; historical byte 80.
        #expect(tag.historicalBytes == [0x80])
        #expect(try await tag.readNDEF() == message)
        #expect(
            reader.apdus == [
                hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"), hex("00 A4 00 0C 02 E1 03"), hex("00 B0 00 00 0F"),
                hex("00 A4 00 0C 02 E1 04"), hex("00 B0 00 00 02"), hex("00 B0 00 02 3B"), hex("00 B0 00 3D 29"),
            ])
    }

    @Test("T4T 3.0 5.1.2: status from the CC: read/write, capacity 253; write access FF: read-only")
    func status() async throws {
        let (_, tag) = try await openType4Tag(makeType4Reader(try type4Tag()))
        #expect(try await tag.ndefStatus() == NDEFTagStatus(status: .readWrite, capacity: 253))
        let (_, locked) = try await openType4Tag(makeType4Reader(try type4Tag(writeAccess: .none)))
        #expect(try await locked.queryNDEFStatus() == (.readOnly, 253))
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .zeroLengthMessage)
    }

    @Test("T4T 3.0 5.5.7: write over NLEN 0: message in MLc (52) pieces, NLEN last, then read back")
    func write() async throws {
        let message = uriMessage(length: 100)
        let reader = makeType4Reader(try type4Tag())
        let (_, tag) = try await openType4Tag(reader)
        reader.clearLog()
        try await tag.writeNDEF(message)
        let updates = reader.apdus.filter { $0[1] == 0xD6 }
        #expect(
            updates.map { Array($0.prefix(5)) } == [
                hex("00 D6 00 02 34"), hex("00 D6 00 36 30"), hex("00 D6 00 00 02"),
            ])
        #expect(updates.last == hex("00 D6 00 00 02 00 64"))
        #expect(reader.type4Tag?.storedMessageBytes == encoded(message))
        #expect(try await tag.readNDEF() == message)
    }

    @Test("Checks before any UPDATE BINARY: read-only, too long, no records")
    func refusals() async throws {
        let locked = makeType4Reader(try type4Tag(writeAccess: .none))
        let (_, lockedTag) = try await openType4Tag(locked)
        #expect(await caught { try await lockedTag.writeNDEF(uriMessage(length: 10)) }?.code == .tagNotWritable)
        #expect(locked.updateCount == 0)
        let small = makeType4Reader(try type4Tag(size: 50))
        let (_, smallTag) = try await openType4Tag(small)
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
        let reader = makeType4Reader(try type4Tag(), supportsISODEP: false)
        let recorder = EventRecorder()
        let session = NFCTagReaderSession(
            reader: reader, options: .init(pollInterval: .milliseconds(5)), eventHandler: recorder.handler)
        #expect(await caught { _ = try await session.nextTag(timeout: .milliseconds(30)) }?.code == .timeout)
        let target = try #require(try await reader.pollTargets().first)
        #expect(recorder.all == [.began(readerName: reader.name), .tagNotSupported(target)])
        #expect(reader.log.isEmpty)
    }

    @Test("T4T 3.0 5.5.2: a version 1.0 tag answers the D2760000850100 application identifier")
    func versionOne() async throws {
        let reader = makeType4Reader(try type4Tag(message: uriMessage(length: 20), version: 0x10))
        let (_, tag) = try await openType4Tag(reader)
        #expect(try await tag.readNDEF() == uriMessage(length: 20))
        // The version 2 identifier is refused (6A82), then the version 1 one is selected.
        #expect(reader.apdus[0] == hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
        #expect(reader.apdus[1] == hex("00 A4 04 00 07 D2 76 00 00 85 01 00"))
        #expect(reader.apdus[2] == hex("00 A4 00 00 02 E1 03"))
    }

    @Test(
        "T4T 3.0 5.5.7: an UPDATE BINARY answered 6581 is tagUpdateFailure; one answered 9000 but not stored fails the read-back"
    )
    func writeFailures() async throws {
        let message = uriMessage(length: 100)
        let refused = makeType4Reader(try type4Tag())
        let (_, refusedTag) = try await openType4Tag(refused)
        refused.arm(.init(nakWrite: 2))
        let error = try #require(await caught { try await refusedTag.writeNDEF(message) })
        #expect(error.code == .tagUpdateFailure)
        #expect(error.mayBeHalfWritten)
        #expect(refused.type4Tag?.storedMessageBytes == nil)
        try await refusedTag.resumeWrite(message)
        #expect(refused.type4Tag?.storedMessageBytes == encoded(message))

        let lost = makeType4Reader(try type4Tag())
        let (_, lostTag) = try await openType4Tag(lost)
        lost.arm(.init(loseWrite: 1))
        let readBack = try #require(await caught { try await lostTag.writeNDEF(message) })
        #expect(readBack.code == .tagUpdateFailure)
        #expect(readBack.reason.contains("reads back differently"))
        try await lostTag.resumeWrite(message)
        #expect(lost.type4Tag?.storedMessageBytes == encoded(message))
    }

    @Test("A tag that left and came back is activated again before the next APDU: the same tag object resumes")
    func reactivation() async throws {
        let message = uriMessage(length: 120)
        let reader = makeType4Reader(try type4Tag())
        let (_, tag) = try await openType4Tag(reader)
        reader.arm(.init(removeAfterCommands: 6))
        #expect(await caught { try await tag.writeNDEF(message) }?.code == .tagConnectionLost)
        reader.putBack()
        let selects = reader.selectCount
        try await tag.resumeWrite(message)
        #expect(reader.selectCount == selects + 1)
        #expect(reader.type4Tag?.storedMessageBytes == encoded(message))
    }

    @Test("format() of a Type 4 tag empties its NDEF file (NLEN 0), as erase() does; read-only: tagNotWritable")
    func format() async throws {
        let reader = makeType4Reader(try type4Tag(message: uriMessage(length: 40)))
        let (_, tag) = try await openType4Tag(reader)
        reader.clearLog()
        try await tag.format()
        #expect(reader.apdus.filter { $0[1] == 0xD6 } == [hex("00 D6 00 00 02 00 00")])
        #expect(reader.type4Tag?.storedMessageBytes == nil)
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .zeroLengthMessage)
        let (_, locked) = try await openType4Tag(makeType4Reader(try type4Tag(writeAccess: .none)))
        #expect(await caught { try await locked.format() }?.code == .tagNotWritable)
    }
}
