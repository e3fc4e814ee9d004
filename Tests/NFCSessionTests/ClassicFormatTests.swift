import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// Formatting MIFARE Classic cards for NDEF with a keyring (AN1304, AN10787): the confirmation,
/// the result, and every cut of the way.
@Suite("MIFARE Classic format")
struct ClassicFormatTests {
    static let keyB = MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21))
    static let keys = MifareClassicKeyring(keyBToInstall: keyB)

    /// Formats the card in `reader` with `keys`: prepare, then format with the confirmation.
    static func format(_ reader: SimulatedReader, keys: MifareClassicKeyring = keys) async throws {
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        do {
            let confirmation = try await card.prepareFormat(keys: keys)
            #expect(!confirmation.description.contains("4B6579204221"))
            try await card.format(keys: keys, confirmation: confirmation)
        } catch {
            await session.invalidate()
            throw error
        }
        await session.invalidate()
    }

    @Test(
        "A factory card becomes an empty NDEF card with the NFC Forum layout and the keyring's key B",
        arguments: [(MifareClassicType.classic1K, 716), (.classic4K, 3356), (.mini, 190)])
    func formatFactoryCard(type: MifareClassicType, capacity: Int) async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: type)))
        try await Self.format(reader)
        let card = try #require(ClassicSessionTests.card(in: reader))
        let layout = MifareClassicNDEFLayout(type: type)
        #expect(card.bytes == layout.formattedImage(manufacturerBlock: card.block(0) ?? [], keyB: Self.keyB))
        let (session, tag) = try await ClassicSessionTests.openCard(reader)
        #expect(try await tag.queryNDEFStatus() == (.readWrite, capacity))
        let message = uriMessage(length: 60)
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        await session.invalidate()
    }

    @Test("Without a key B to install, on a formatted card, or with a changed card, nothing is written")
    func refusals() async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K)))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        #expect(
            await caught { _ = try await card.prepareFormat(keys: MifareClassicKeyring()) }?.code == .invalidParameter)
        let confirmation = try await card.prepareFormat(keys: Self.keys)
        let other = MifareClassicKeyring(keyBToInstall: MifareClassicKey((1, 2, 3, 4, 5, 6)))
        let mismatch = await caught { try await card.format(keys: other, confirmation: confirmation) }
        #expect(mismatch?.code == .confirmationMismatch)
        #expect(reader.field.classicCommandCounts[.write] == nil)
        try await card.format(keys: Self.keys, confirmation: confirmation)
        #expect(await caught { _ = try await card.prepareFormat(keys: Self.keys) }?.code == .invalidParameter)
        await session.invalidate()
    }

    @Test("A sector with unknown keys stops the format before any write, naming the sector")
    func unknownKeys() async throws {
        var image = SimulatedClassicTag.factoryImage(type: .classic1K)
        let secret: [UInt8] = [9, 8, 7, 6, 5, 4]
        image.replaceSubrange(5 * 64 + 48..<5 * 64 + 64, with: secret + [0xFF, 0x07, 0x80, 0x69] + secret)
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K, image: image)))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        let error = await caught { _ = try await card.prepareFormat(keys: Self.keys) }
        #expect(error?.code == .authenticationFailed && error?.reason.contains("sector 5") == true)
        #expect(reader.field.classicCommandCounts[.write] == nil)
        // The keys file names the sector's key: the format goes through.
        let keys = MifareClassicKeyring(
            sectorCandidates: [5: [MifareClassicKey((9, 8, 7, 6, 5, 4))]], keyBToInstall: Self.keyB)
        try await card.format(keys: keys, confirmation: try await card.prepareFormat(keys: keys))
        #expect(try await card.queryNDEFStatus().0 == .readWrite)
        await session.invalidate()
    }

    @Test("A card laid out with another key B and a broken MAD: that key B (from the keys file) writes the MAD sector")
    func otherKeyB() async throws {
        let theirs = MifareClassicKey((0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F))
        let layout = MifareClassicNDEFLayout(type: .classic1K)
        var image = layout.formattedImage(
            manufacturerBlock: SimulatedClassicTag(type: .classic1K).block(0) ?? [], keyB: theirs)
        image[16] ^= 0xFF  // the MAD1 CRC no longer matches: not NDEF formatted
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K, image: image, uidLength: 4)))
        let keys = MifareClassicKeyring(candidates: [theirs], keyBToInstall: Self.keyB)
        try await Self.format(reader, keys: keys)
        let card = try #require(ClassicSessionTests.card(in: reader))
        #expect(card.bytes == layout.formattedImage(manufacturerBlock: card.block(0) ?? [], keyB: Self.keyB))
    }

    @Test("After a cut half-way, a rerun with another key B is refused before any write; with both keys it finishes")
    func rerunWithOtherKeys() async throws {
        let reader = SimulatedReader(tag: .classic(SimulatedClassicTag(type: .classic1K)))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        let code = try await card.prepareFormat(keys: Self.keys)
        reader.withField { $0.arm(.init(removeAfterCommands: 60, inFlight: .completes)) }
        #expect(await caught { try await card.format(keys: Self.keys, confirmation: code) }?.mayBeHalfWritten == true)
        await session.invalidate()
        var field = reader.field
        field.putBack()
        field.disarm()
        let converted = try #require(field.tags.first?.classicTag).memory.trailers.filter {
            $0.keyB == Self.keyB.bytes
        }
        #expect(!converted.isEmpty && converted.count < 16)
        let again = SimulatedReader(field: field)
        // Another keys file, naming another key B only: the converted sectors open with no key
        // of it as key B, so the survey stops before the first write.
        let other = MifareClassicKeyring(keyBToInstall: MifareClassicKey((9, 9, 9, 9, 9, 9)))
        let (second, retry) = try await ClassicSessionTests.openCard(again)
        again.withField { $0.resetCommandCounts() }
        let refused = await caught { _ = try await retry.prepareFormat(keys: other) }
        #expect(refused?.code == .authenticationFailed)
        #expect(again.field.classicCommandCounts[.write] == nil)
        // The first key B as a candidate and the other as the key to install: every sector ends
        // with the new one.
        let both = MifareClassicKeyring(candidates: [Self.keyB], keyBToInstall: MifareClassicKey((9, 9, 9, 9, 9, 9)))
        try await retry.format(keys: both, confirmation: try await retry.prepareFormat(keys: both))
        await second.invalidate()
        let after = try #require(again.field.tags.first?.classicTag)
        #expect(after.memory.ndefStatus.status == .readWrite)
        #expect(after.memory.trailers.allSatisfy { $0.keyB == [9, 9, 9, 9, 9, 9] })
    }

    @Test("A cut at any command leaves every sector with its old keys or the new ones; the same format finishes it")
    func cutMatrix() async throws {
        let factory = SimulatedClassicTag(type: .classic1K)
        let clean = SimulatedReader(tag: .classic(factory))
        let (cleanSession, cleanCard) = try await ClassicSessionTests.openCard(clean)
        let confirmation = try await cleanCard.prepareFormat(keys: Self.keys)
        let prepared = await cleanCard.commandsSent
        try await cleanCard.format(keys: Self.keys, confirmation: confirmation)
        let total = await cleanCard.commandsSent - prepared
        await cleanSession.invalidate()
        let layout = MifareClassicNDEFLayout(type: .classic1K)
        var interrupted = 0
        for cut in stride(from: 1, through: total, by: 1) {
            var field = SimulatedField(.classic(factory))
            let reader = SimulatedReader(field: field)
            let (session, card) = try await ClassicSessionTests.openCard(reader)
            let code = try await card.prepareFormat(keys: Self.keys)
            reader.withField { $0.arm(.init(removeAfterCommands: cut, inFlight: .tearsPage)) }
            let error = await caught { try await card.format(keys: Self.keys, confirmation: code) }
            await session.invalidate()
            guard error != nil else { continue }
            interrupted += 1
            field = reader.field
            field.putBack()
            field.disarm()
            let after = try #require(field.tags.first?.classicTag)
            // Every trailer holds the old keys or the new ones, and consistent access bits.
            for sector in MifareClassicType.classic1K.sectors {
                let trailer = after.trailer(of: sector)
                let new =
                    sector.isDirectorySector
                    ? layout.directoryTrailer(keyB: Self.keyB) : layout.ndefTrailer(keyB: Self.keyB)
                #expect(trailer == SimulatedClassicTag.transportTrailer || trailer == new, "cut \(cut): \(sector)")
            }
            #expect(after.memory.ndefStatus.status == .notSupported || after.memory.ndefStatus.status == .readWrite)
            let again = SimulatedReader(field: field)
            // Cut after the MAD's trailer (while proving its keys): the card is formatted already.
            if after.memory.ndefStatus.status == .notSupported { try await Self.format(again) }
            let (check, finished) = try await ClassicSessionTests.openCard(again)
            #expect(try await finished.queryNDEFStatus() == (.readWrite, 716), "after the cut at \(cut)")
            await check.invalidate()
        }
        #expect(interrupted == total)
    }
}
