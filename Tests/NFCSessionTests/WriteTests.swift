import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Writing NDEF to Type 2 tags")
struct WriteTests {
    /// The exact commands of writing a 100-byte URI message to a factory NTAG215 and verifying it.
    ///
    /// The theoretical minimum, with a 252-byte frame (63 pages per FAST_READ):
    /// - identification: 1 (GET_VERSION, NTAG213/215/216 10.1);
    /// - initial read: 2. The new NDEF TLV covers bytes 16-118 (03h, length 64h, 100 message bytes)
    ///   and the Terminator byte 119, pages 4-29; the checks before any write need the CC and static
    ///   lock bytes (pages 2-3), and the dynamic lock bytes and AUTH0 (pages 130-131, NTAG213/215/216
    ///   8.5.3 and 8.5.7), 100 pages apart: two FAST_READs whatever the frame size up to 400 bytes;
    /// - writes: 26 pages (4-29) change, each once, plus page 4 a second time: from the factory
    ///   `03 00 FE 00` the length page first gets `03 00 D1 01` (length 0, message bytes 0-1), then
    ///   the data pages, then `03 64 D1 01`, so that a write torn after its first two bytes never
    ///   shows the new length over old bytes (``Type2WriteOrder``): 27 WRITEs (TagMemory's plan
    ///   alone, not tear-safe against such a tear, has 26);
    /// - verification: 1 FAST_READ of pages 4-29 (104 bytes).
    /// Total 1 + 2 + 27 + 1 = 31 commands, and the single SELECT of the session.
    @Test("T2T 1.1 6.4.3: a 100-byte URI message on a factory NTAG215: 31 commands, the computed minimum")
    func exactSequenceNTAG215() async throws {
        let message = uriMessage(length: 100)
        let bytes = encoded(message)
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(message)

        var expected: [[UInt8]] = [[0x60], [0x3A, 0x00, 0x1F], [0x3A, 0x82, 0x84]]
        let tlv = [0x03, 0x64] + bytes + [0xFE]
        let pages: [[UInt8]] = stride(from: 0, to: tlv.count, by: 4).map { offset in
            Array((tlv[offset...] + [0, 0, 0]).prefix(4))
        }
        // Page 29 holds the Terminator and the old page content after it (00h on a factory tag).
        #expect(pages.count == 26)
        let staged = [0x03, 0x00] + Array(bytes[0..<2])
        expected.append([0xA2, 0x04] + staged)
        for index in 1..<26 { expected.append([0xA2, UInt8(4 + index)] + pages[index]) }
        expected.append([0xA2, 0x04] + pages[0])
        expected.append([0x3A, 0x04, 0x1D])
        #expect(reader.log.map(\.frame) == expected)
        #expect(reader.log.count == 31)
        #expect(reader.count(of: .write) == 27)
        #expect(reader.selectCount == 1)
        #expect(await tag.commandsSent == 30)
        #expect(stored(reader.type2Tag).message == message)
    }

    @Test(
        "NTAG213/215/216 9.3: a NAK during the writes is tagUpdateFailure, half-written after a first ACK or NAK 5h",
        arguments: [(1, UInt8(0x0), false), (11, 0x0, true), (1, 0x5, true)])
    func nakDuringWrite(write: Int, code: UInt8, halfWritten: Bool) async throws {
        let message = uriMessage(length: 100)
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        reader.arm(.init(nakWrite: write, nakCode: code))
        let error = try #require(await caught { try await tag.writeNDEF(message) })
        #expect(error.code == .tagUpdateFailure)
        #expect(error.mayBeHalfWritten == halfWritten)
        // The two FAST_READs of the checks, then the WRITEs up to the refused one, which was last.
        #expect(reader.log.count == 2 + write)
        #expect(reader.log.filter { $0.kind == .write }.count == write)
        #expect(reader.log.last?.fate == .writeRefused)
        #expect(stored(reader.type2Tag).problem == nil)
        // The tag went to IDLE; it is selected again and the write resumed.
        let selects = reader.selectCount
        try await tag.resumeWrite(message)
        #expect(reader.selectCount == selects + 1)
        #expect(stored(reader.type2Tag).message == message)
    }

    @Test("T2T 1.1 6.4.3: a WRITE acknowledged but not stored is caught by the read-back: tagUpdateFailure")
    func silentWriteFailure() async throws {
        let message = uriMessage(length: 100)
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        reader.arm(.init(loseWrite: 9))
        let error = try #require(await caught { try await tag.writeNDEF(message) })
        #expect(error.code == .tagUpdateFailure)
        #expect(error.mayBeHalfWritten)
        // The 9th WRITE is page 12 (after the staged page 4 and pages 5-11).
        #expect(error.reason.hasPrefix("page 12 reads"))
        try await tag.resumeWrite(message)
        #expect(stored(reader.type2Tag).message == message)
    }

    @Test("A GET_VERSION outside the catalogue: the tag is handled by its CC alone, with READ, and written")
    func unknownChip() async throws {
        let old = uriMessage(length: 150)
        let reader = makeReader(
            [tagHolding(old, chip: .ntag216)], faults: .init(versionAnswer: hex("00 04 04 05 02 01 13 03")))
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == nil)
        #expect(tag.identification.version == hex("00 04 04 05 02 01 13 03"))
        #expect(try await tag.readNDEF() == old)
        let status = try await tag.ndefStatus()
        #expect(status == NDEFTagStatus(status: .readWrite, capacity: 868))
        let new = uriMessage(length: 300, seed: 3)
        try await tag.writeNDEF(new)
        #expect(stored(reader.type2Tag).message == new)
        #expect(reader.count(of: .fastRead) == 0)
        #expect(await caught { try await tag.format() }?.code == .tagNotSupported)
    }

    @Test("T2T 1.1 6.4.3: a message that does not fit: tagSizeTooSmall with capacity and size, no WRITE")
    func tooLong() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        let error = try #require(await caught { try await tag.writeNDEF(uriMessage(length: 200)) })
        #expect(error.code == .tagSizeTooSmall)
        #expect(error.capacity == 137)
        #expect(error.neededSize == 200)
        #expect(!error.mayBeHalfWritten)
        #expect(reader.count(of: .write) == 0)
    }

    @Test("T2T 1.1 6.3.3 and 2.2: a read-only tag (CC write access Fh, lock bits) is tagNotWritable, no WRITE")
    func lockedTag() async throws {
        var image = SimulatedType2Tag.factoryImage(chip: .ntag215)
        image[15] = 0x0F
        var dynamic = SimulatedType2Tag.factoryImage(chip: .ntag215)
        dynamic[0x82 * 4] = 0x01
        for tagImage in [image, dynamic] {
            let reader = makeReader([SimulatedType2Tag(chip: .ntag215, image: tagImage)])
            let (_, tag) = try await openTag(reader)
            let error = await caught { try await tag.writeNDEF(uriMessage(length: 20)) }
            #expect(error?.code == .tagNotWritable)
            #expect(reader.count(of: .write) == 0)
        }
    }

    @Test("NDEF 1.0 3.3: a message without records is zeroLengthMessage before any command")
    func zeroLength() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(await caught { try await tag.writeNDEF(NFCNDEFMessage(records: [])) }?.code == .zeroLengthMessage)
        #expect(reader.log.isEmpty)
    }

    @Test("Two tags in the field: nothing is selected or written; after one leaves, the other is written")
    func twoTags() async throws {
        let first = SimulatedType2Tag(chip: .ntag215)
        let second = SimulatedType2Tag(chip: .ntag213, uid: hex("04 11 22 33 44 55 66"))
        let reader = makeReader([first, second])
        let recorder = EventRecorder()
        let session = NFCTagReaderSession(
            reader: reader, options: .init(pollInterval: .milliseconds(5), multipleTagPause: .milliseconds(5)),
            eventHandler: recorder.handler)
        let error = await caught { _ = try await session.nextTag(timeout: .milliseconds(60)) }
        #expect(error?.code == .timeout)
        #expect(reader.log.isEmpty)
        #expect(reader.selectCount == 0)
        #expect(recorder.all.contains(.multipleTagsFound(count: 2)))
        let removed = reader.remove(uid: SimulatedType2Tag.defaultUID)
        guard let tag = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else {
            Issue.record("no Type 2 tag")
            return
        }
        #expect(tag.identifier == hex("04 11 22 33 44 55 66"))
        try await tag.writeNDEF(uriMessage(length: 30))
        #expect(reader.log.allSatisfy { $0.uid == hex("04 11 22 33 44 55 66") })
        #expect(removed?.type2Tag?.bytes == first.bytes)
    }

    @Test("failOnMultipleTags: two tags throw multipleTagsFound at once, nothing touched")
    func failOnTwoTags() async throws {
        let reader = makeReader([
            SimulatedType2Tag(chip: .ntag215), SimulatedType2Tag(chip: .ntag216, uid: hex("04 11 22 33 44 55 66")),
        ])
        let session = NFCTagReaderSession(reader: reader, options: .init(failOnMultipleTags: true))
        #expect(await caught { _ = try await session.nextTag(timeout: .seconds(1)) }?.code == .multipleTagsFound)
        #expect(reader.log.isEmpty)
        #expect(reader.selectCount == 0)
    }

    @Test("Over an existing message the length page is zeroed first, the data written, the length last")
    func overwrite() async throws {
        let old = uriMessage(length: 60, seed: 3)
        let new = uriMessage(length: 40, seed: 7)
        let reader = makeReader([tagHolding(old, chip: .ntag216)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.writeNDEF(new)
        let writes = reader.log.filter { $0.kind == .write }
        // 03 28 + 40 bytes + FE: bytes 16-58, pages 4-14; the old TLV (62 bytes) ended in page 19.
        #expect(writes.first?.frame == [0xA2, 0x04, 0x03, 0x00] + encoded(new)[0..<2])
        #expect(writes.last?.frame == [0xA2, 0x04, 0x03, 0x28] + encoded(new)[0..<2])
        #expect(writes.count == 12)
        #expect(stored(reader.type2Tag).message == new)
    }

    @Test("Writing the message the tag already holds sends no WRITE and no verification read")
    func sameMessage() async throws {
        let message = uriMessage(length: 50)
        let reader = makeReader([tagHolding(message, chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.writeNDEF(message)
        #expect(reader.count(of: .write) == 0)
        #expect(reader.log.count == 2)
    }

    @Test("T2T 1.1 6.3.1: erase leaves 03 00 FE with one WRITE of the length page")
    func erase() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 80), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.erase()
        #expect(reader.log.filter { $0.kind == .write }.map(\.frame) == [[0xA2, 0x04, 0x03, 0x00, 0xFE, 0x01]])
        let memory = stored(reader.type2Tag)
        #expect(memory.message == nil)
        #expect(memory.problem == nil)
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .zeroLengthMessage)
    }

    @Test("T2T 1.1 6.3.1: format of a blank MF0UL21 writes 03 00 FE, then the CC E1 10 10 00 last")
    func formatBlank() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralightEV1MF0UL21)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.format()
        #expect(
            reader.log.filter { $0.kind == .write }.map(\.frame) == [
                [0xA2, 0x04, 0x03, 0x00, 0xFE, 0x00], [0xA2, 0x03, 0xE1, 0x10, 0x10, 0x00],
            ])
        #expect(try await tag.ndefStatus() == NDEFTagStatus(status: .readWrite, capacity: 126))
    }

    @Test(
        "NTAG213/215/216 8.5.6: format refuses CC E1 20 3E 00 (version 2.0), whose OTP bits cannot become E1 10 3E 00")
    func formatOTPConflict() async throws {
        var image = SimulatedType2Tag.factoryImage(chip: .ntag215)
        image.replaceSubrange(12..<16, with: hex("E1 20 3E 00"))
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215, image: image)])
        let (_, tag) = try await openTag(reader)
        #expect(await caught { try await tag.format() }?.code == .tagNotWritable)
        #expect(reader.count(of: .write) == 0)
    }

    @Test("READ/WRITE-only reader: the 100-byte write uses READ for the checks and the read-back")
    func readWriteOnly() async throws {
        let message = uriMessage(length: 100)
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)], capabilities: .readWriteOnly)
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.writeNDEF(message)
        // READ 0-28 (pages 0-31), READ 130 (lock, CFG0, CFG1), 27 WRITEs, READ 4-28 (pages 4-31).
        #expect(reader.count(of: .read) == 8 + 1 + 7)
        #expect(reader.count(of: .write) == 27)
        #expect(stored(reader.type2Tag).message == message)
    }
}
