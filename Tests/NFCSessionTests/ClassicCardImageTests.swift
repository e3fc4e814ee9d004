import NFCSession
import NFCWireFormat
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// ``NFCMiFareClassicTag/readCardImage(keys:)``: every block the keys open, counted in
/// authentications and READs, with the keys put in the trailers.
@Suite("MIFARE Classic card image")
struct ClassicCardImageTests {
    /// The image and the command counts of reading `card` with `keys`.
    static func read(_ card: SimulatedClassicTag, keys: MifareClassicKeyring? = nil) async throws -> (
        image: NFCMiFareClassicTag.CardImage, reader: SimulatedReader
    ) {
        let reader = SimulatedReader(tag: .classic(card))
        let (session, tag) = try await ClassicSessionTests.openCard(reader)
        let image = try await tag.readCardImage(keys: keys)
        await session.invalidate()
        return (image, reader)
    }

    @Test("A factory 1K: one AUTH_A and four READs per sector (16 and 64), the image byte for byte")
    func factory() async throws {
        let card = SimulatedClassicTag(type: .classic1K)
        let (image, reader) = try await Self.read(card)
        #expect(image.bytes == card.bytes)
        #expect(reader.field.classicCommandCounts[.authenticateA] == 16)
        #expect(reader.field.classicCommandCounts[.authenticateB] == nil)
        #expect(reader.field.classicCommandCounts[.read] == 64)
        #expect(image.incompleteSectors.isEmpty && image.sectors.allSatisfy { $0.keyA == .transport })
    }

    @Test("A formatted 4K: key B (hidden) from the keyring, once per sector; MAD2 sector 16 with the MAD key")
    func formatted4K() async throws {
        let card = ClassicSessionTests.formattedCard(.classic4K)
        let keys = MifareClassicKeyring(keyBToInstall: ClassicSessionTests.keyB)
        let (image, reader) = try await Self.read(card, keys: keys)
        #expect(image.bytes == card.bytes)
        #expect(reader.field.classicCommandCounts[.authenticateB] == 40)
        #expect(reader.field.classicCommandCounts[.read] == 256)
        #expect(image.sectors[16].keyA == .directoryKeyA && image.sectors[17].keyA == .ndefKeyA)
        // Without the key B the trailers keep zeros there and nothing else differs.
        let (plain, plainReader) = try await Self.read(card)
        #expect(plainReader.field.classicCommandCounts[.authenticateB] == nil)
        var withoutKeyB = image.bytes
        for sector in MifareClassicType.classic4K.sectors {
            let end = sector.trailerBytes.upperBound
            withoutKeyB.replaceSubrange((end - 6)..<end, with: [0, 0, 0, 0, 0, 0])
        }
        #expect(plain.bytes == withoutKeyB)
    }

    @Test("Data only key B may read: read with key B; a sector no key opens stays zeros and is named")
    func keyBOnlyAndShut() async throws {
        var bytes = SimulatedClassicTag(type: .classic1K).bytes
        let secret = MifareClassicKey((0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F))
        let other = MifareClassicKey((0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F))
        // Sector 2: data blocks read and written by key B only (condition 011), trailer 011.
        let sector2 = try #require(MifareClassicSector(2))
        let keyBOnly = try MifareClassicSectorTrailer(
            keyA: MifareClassicKey.transport.bytes, accessBits: MifareClassicAccessBits(conditions: [3, 3, 3, 3]),
            generalPurposeByte: MifareClassicGeneralPurposeByte(rawValue: 0x69), keyB: secret.bytes)
        bytes.replaceSubrange(sector2.trailerBytes, with: keyBOnly.bytes)
        bytes[sector2.firstBlock * 16] = 0x42
        // Sector 3: key A and key B unknown to the keyring.
        let sector3 = try #require(MifareClassicSector(3))
        bytes.replaceSubrange(sector3.trailerBytes.prefix(6), with: other.bytes)
        let card = SimulatedClassicTag(type: .classic1K, image: bytes)
        let keys = MifareClassicKeyring(candidates: [secret])
        let (image, _) = try await Self.read(card, keys: keys)
        #expect(image.sectors[2].keyA == .transport && image.sectors[2].keyB == secret)
        #expect(image.sectors[2].unreadBlocks.isEmpty)
        #expect(image.bytes[sector2.bytes] == bytes[sector2.bytes])
        #expect(image.incompleteSectors == [3])
        #expect(image.sectors[3].keyA == nil && image.sectors[3].unreadBlocks == Array(12...15))
        #expect(image.bytes[sector3.bytes].allSatisfy { $0 == 0 })
    }

    @Test("The Gen1a backdoor: a magic card answers 40h (7 bits) and 43h, a genuine one neither; the card reads on")
    func gen1a() async throws {
        for isMagic in [true, false] {
            var card = SimulatedClassicTag(type: .classic1K)
            card.answersGen1aBackdoor = isMagic
            let reader = SimulatedReader(tag: .classic(card))
            let (session, tag) = try await ClassicSessionTests.openCard(reader)
            try await tag.authenticate(sector: 0, key: .transport)
            #expect(try await tag.answersGen1aBackdoor() == isMagic)
            // Halted by the probe: the next command selects the card again, and authenticates anew.
            let stale = await caught { _ = try await tag.readBlock(1) }
            #expect(stale?.code == .authenticationRequired)
            try await tag.authenticate(sector: 0, key: .transport)
            #expect(try await tag.readBlock(1) == [UInt8](repeating: 0, count: 16))
            await session.invalidate()
        }
    }

    @Test("The field: 43h counts only right after an acknowledged 40h in 7 bits; other frames get nothing")
    func backdoorFrames() {
        var magic = SimulatedClassicTag(type: .classic1K)
        magic.answersGen1aBackdoor = true
        var field = SimulatedField(.classic(magic))
        let answers = [
            field.receiveBackdoorFrame(0x43, bits: 8), field.receiveBackdoorFrame(0x40, bits: 8),
            field.receiveBackdoorFrame(0x40, bits: 7), field.receiveBackdoorFrame(0x43, bits: 8),
            field.receiveBackdoorFrame(0x43, bits: 8),
        ]
        #expect(answers == [false, false, true, true, false])
        var genuine = SimulatedField(.classic(SimulatedClassicTag(type: .classic1K)))
        let genuineAnswers = [genuine.receiveBackdoorFrame(0x40, bits: 7), genuine.receiveBackdoorFrame(0x43, bits: 8)]
        #expect(genuineAnswers == [false, false])
        var ntag = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        let ntagAnswer = ntag.receiveBackdoorFrame(0x40, bits: 7)
        #expect(!ntagAnswer)
    }

    @Test("After a format or a lock, the status needs no command: a card taken away then was not cut part way")
    func statusAfterChange() async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K)))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        let keys = MifareClassicKeyring(keyBToInstall: ClassicSessionTests.keyB)
        try await card.format(keys: keys, confirmation: try await card.prepareFormat(keys: keys))
        var sent = reader.field.classicCommandCounts.values.reduce(0, +)
        #expect(try await card.ndefStatusAfterChange() == NDEFTagStatus(status: .readWrite, capacity: 716))
        #expect(reader.field.classicCommandCounts.values.reduce(0, +) == sent)
        await card.useKeys(keys)
        try await card.writeLock(try await card.prepareLock())
        sent = reader.field.classicCommandCounts.values.reduce(0, +)
        #expect(try await card.ndefStatusAfterChange() == NDEFTagStatus(status: .readOnly, capacity: 716))
        #expect(reader.field.classicCommandCounts.values.reduce(0, +) == sent)
        #expect(try await card.ndefStatus() == NDEFTagStatus(status: .readOnly, capacity: 716))
        await session.invalidate()
    }
}
