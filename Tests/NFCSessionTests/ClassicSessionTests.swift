import NDEF
import NFCSession
import NFCWireFormat
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// MIFARE Classic cards through a session on the simulated reader: sector commands and the
/// NDEF operations of AN1304 with the public keys.
@Suite("MIFARE Classic session")
struct ClassicSessionTests {
    static let keyB = MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21))

    /// A card of `type` formatted for NDEF (and empty), with key B ``keyB``.
    static func formattedCard(_ type: MifareClassicType = .classic1K) -> SimulatedClassicTag {
        let factory = SimulatedClassicTag(type: type)
        let image = MifareClassicNDEFLayout(type: type).formattedImage(
            manufacturerBlock: factory.block(0) ?? [], keyB: keyB)
        return SimulatedClassicTag(type: type, image: image, uidLength: factory.uid.count)
    }

    /// A session's first tag on `reader`, which must be a MIFARE Classic card.
    static func openCard(_ reader: SimulatedReader) async throws -> (NFCTagReaderSession, NFCMiFareClassicTag) {
        let session = NFCTagReaderSession(reader: reader)
        let tag = try await session.nextTag(timeout: .seconds(2))
        let card = try #require(tag as? NFCMiFareClassicTag)
        return (session, card)
    }

    /// The card in `reader`'s field.
    static func card(in reader: SimulatedReader) -> SimulatedClassicTag? {
        reader.field.tags.first?.classicTag ?? reader.field.removedTags.first?.classicTag
    }

    @Test("The session hands out a MIFARE Classic card with its product from the SAK")
    func identification() async throws {
        for (type, sak) in [(MifareClassicType.classic1K, UInt8(0x08)), (.classic4K, 0x18), (.mini, 0x09)] {
            let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: type)))
            let (session, card) = try await Self.openCard(reader)
            #expect(card.type == type && card.targetInfo.sak == sak)
            #expect(card.chipName == type.description)
            await session.invalidate()
        }
    }

    @Test("A second card in the field (second-tag): a factory card of the same product; the session touches neither")
    func secondCard() async throws {
        var field = SimulatedField(.classic(SimulatedClassicTag(type: .classic4K)))
        field.arm(.init(secondTag: true))
        #expect(field.tags.count == 2 && field.tags.allSatisfy { $0.classicTag?.type == .classic4K })
        let reader = SimulatedReader(field: field)
        let session = NFCTagReaderSession(reader: reader)
        let error = await caught { _ = try await session.nextTag(timeout: .zero) }
        #expect(error?.code == .multipleTagsFound || error?.code == .timeout)
        await session.invalidate()
    }

    @Test("Sector commands: authenticate, write, read; a wrong key is authentication-failed and never retried")
    func sectorCommands() async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K)))
        let (session, card) = try await Self.openCard(reader)
        try await card.authenticate(sector: 2, key: .transport)
        let data = [UInt8](repeating: 0x5A, count: 16)
        try await card.writeBlock(9, data: data)
        #expect(try await card.readBlock(9) == data)
        let error = await caught { try await card.authenticate(sector: 3, key: .ndefKeyA) }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.reason.contains("D3F7D3F7D3F7") == true)
        #expect(reader.field.classicCommandCounts[.authenticateA] == 2)
        // The card is selected again before the next command.
        try await card.authenticate(sector: 3, key: .transport)
        #expect(try await card.readBlock(12) == [UInt8](repeating: 0, count: 16))
        let outside = await caught { _ = try await card.readBlock(16) }
        #expect(outside?.code == .authenticationRequired)
        let secret = MifareClassicKey((1, 2, 3, 4, 5, 6))
        let refused = await caught { try await card.authenticate(sector: 1, key: secret) }
        #expect(refused?.reason.contains("010203040506") == false)
        await session.invalidate()
    }

    @Test("A factory card is not NDEF formatted: status not supported, read tag-not-supported, write refused")
    func factoryCard() async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K)))
        let (session, card) = try await Self.openCard(reader)
        let (status, capacity) = try await card.queryNDEFStatus()
        #expect(status == .notSupported && capacity == 0)
        #expect(await caught { _ = try await card.readNDEF() }?.code == .tagNotSupported)
        #expect(await caught { try await card.writeNDEF(uriMessage(length: 20)) }?.code == .tagNotSupported)
        #expect(reader.field.classicCommandCounts[.write] == nil)
        await session.invalidate()
    }

    @Test(
        "AN1304: a formatted card reads as read/write with 716 (1K) or 3356 (4K) bytes; a write reads back",
        arguments: [(MifareClassicType.classic1K, 716), (.classic4K, 3356)])
    func writeAndRead(type: MifareClassicType, capacity: Int) async throws {
        let reader = SimulatedReader(tag: .classic(Self.formattedCard(type)))
        let (session, card) = try await Self.openCard(reader)
        let (status, found) = try await card.queryNDEFStatus()
        #expect(status == .readWrite && found == capacity)
        #expect(await caught { _ = try await card.readNDEF() }?.code == .zeroLengthMessage)
        for length in [20, 100, 300, capacity] {
            let message = uriMessage(length: length, seed: UInt8(length % 7))
            try await card.writeNDEF(message)
            #expect(try await card.readNDEF() == message)
            let stored = try #require(Self.card(in: reader)).memory
            #expect(stored.message == message)
        }
        let tooLong = await caught { try await card.writeNDEF(uriMessage(length: capacity + 1)) }
        #expect(tooLong?.code == .tagSizeTooSmall && tooLong?.capacity == capacity)
        try await card.erase()
        #expect(await caught { _ = try await card.readNDEF() }?.code == .zeroLengthMessage)
        await session.invalidate()
    }

    @Test("A 100-byte URI on a formatted 1K: the blocks it spans, trailers skipped, the length block twice")
    func writeCommandCount() async throws {
        let reader = SimulatedReader(tag: .classic(Self.formattedCard()))
        let (session, card) = try await Self.openCard(reader)
        try await card.writeNDEF(uriMessage(length: 20))
        let plan = try await card.plannedWrite(of: uriMessage(length: 100))
        // T, L, 100 message bytes and the Terminator from byte 64 (block 4): 103 bytes over
        // blocks 4-6, 8-10 and 12 (sectors 1-3, trailers skipped); the length block 4 zeroed
        // first and written last, the others once.
        #expect(plan.steps.map(\.address) == [4, 5, 6, 8, 9, 10, 12, 4])
        #expect(plan.description.contains("block 4:"))
        await session.invalidate()
    }

    @Test("A cut during the writes leaves the old, an empty or the new message; resumeWrite completes it")
    func cutAndResume() async throws {
        let old = uriMessage(length: 40, seed: 1)
        let new = uriMessage(length: 200, seed: 2)
        let base = SimulatedReader(tag: .classic(Self.formattedCard()))
        let (firstSession, first) = try await Self.openCard(base)
        try await first.writeNDEF(old)
        await firstSession.invalidate()
        let card = try #require(Self.card(in: base))
        // Every command of the whole write (reads, authentications, writes, read-back) is cut once.
        let clean = SimulatedReader(tag: .classic(card))
        clean.withField { $0.resetCommandCounts() }
        let (cleanSession, cleanCard) = try await Self.openCard(clean)
        try await cleanCard.writeNDEF(new)
        let total = await cleanCard.commandsSent
        await cleanSession.invalidate()
        // T, L, 200 bytes and the Terminator: 13 blocks of sectors 1-5, the length block twice.
        #expect(clean.field.classicCommandCounts[.write] == 14)
        var interrupted = 0
        for cut in 1...total {
            var field = SimulatedField(.classic(card))
            field.arm(.init(removeAfterCommands: cut, inFlight: .tearsPage))
            let reader = SimulatedReader(field: field)
            let (session, tag) = try await Self.openCard(reader)
            let error = await caught { try await tag.writeNDEF(new) }
            await session.invalidate()
            let after = try #require(Self.card(in: reader)).memory
            let seen = after.message
            #expect(seen == old || seen == new || (after.ndefMessageBytes == [] && error != nil), "cut at \(cut)")
            guard error != nil else { continue }
            interrupted += 1
            reader.withField { $0.putBack() }
            reader.withField { $0.disarm() }
            let (again, resumed) = try await Self.openCard(reader)
            try await resumed.resumeWrite(new)
            #expect(try await resumed.readNDEF() == new, "resume after the cut at \(cut)")
            await again.invalidate()
        }
        #expect(interrupted == total)
    }
}
