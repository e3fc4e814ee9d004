import LibNFCReader
import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// MIFARE Classic cards through libnfc's real `pn532_uart` driver to a simulated PN532: the
/// PN532 runs the authentication (InDataExchange MIFARE commands, UM0701 7.3.8).
@Suite("MIFARE Classic through libnfc's pn532_uart driver", .timeLimit(.minutes(3)))
struct LibNFCClassicTests {
    static let keyB = MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21))

    /// A 1K card formatted for NDEF, empty.
    static func formattedCard() -> SimulatedClassicTag {
        let factory = SimulatedClassicTag(type: .classic1K)
        let image = MifareClassicNDEFLayout(type: .classic1K).formattedImage(
            manufacturerBlock: factory.block(0) ?? [], keyB: keyB)
        return SimulatedClassicTag(type: .classic1K, image: image, uidLength: 4)
    }

    @Test("query, write and read back a 100-byte URI: the same card commands as the simulated reader needs")
    func writeAndRead() async throws {
        let bench = try PN532Bench(SimulatedField(.classic(Self.formattedCard())))
        defer { bench.stop() }
        let device = try await bench.open()
        let message = uriMessage(length: 100, seed: 3)
        func run(_ reader: any NFCReaderDevice, counting field: SimulatedReader) async throws
            -> [SimulatedClassicCommand: Int]
        {
            field.withField { $0.resetCommandCounts() }
            let session = NFCTagReaderSession(reader: reader)
            let card = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
            #expect(card.type == .classic1K)
            let (status, capacity) = try await card.queryNDEFStatus()
            #expect(status == .readWrite && capacity == 716)
            try await card.writeNDEF(message)
            #expect(try await card.readNDEF() == message)
            await session.invalidate()
            return field.field.classicCommandCounts
        }
        let viaLibNFC = try await run(device, counting: bench.reader)
        await device.close()
        #expect(bench.reader.field.tags.first?.classicTag?.memory.message == message)
        let direct = SimulatedReader(field: SimulatedField(.classic(Self.formattedCard())))
        let viaSimulator = try await run(direct, counting: direct)
        #expect(viaLibNFC == viaSimulator)
        print("libnfc figures: MIFARE Classic 1K 100-byte URI via pn532_uart: card commands \(viaLibNFC)")
    }

    @Test(
        "The Gen1a backdoor through pn532_uart (nfc_initiator_transceive_bits): a magic card answers, a genuine one not"
    )
    func gen1aBackdoor() async throws {
        for isMagic in [true, false] {
            var card = SimulatedClassicTag(type: .classic1K)
            card.answersGen1aBackdoor = isMagic
            let bench = try PN532Bench(SimulatedField(.classic(card)))
            defer { bench.stop() }
            let device = try await bench.open()
            let session = NFCTagReaderSession(reader: device)
            let tag = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
            #expect(try await tag.answersGen1aBackdoor() == isMagic)
            // The card was halted: it is selected again for the next command.
            try await tag.authenticate(sector: 1, key: .transport)
            #expect(try await tag.readBlock(4) == [UInt8](repeating: 0, count: 16))
            await session.invalidate()
            await device.close()
        }
    }

    @Test("A refused key is authentication-failed (NFC_EMFCAUTHFAIL); the card is selected again for the next key")
    func refusedKey() async throws {
        let bench = try PN532Bench(SimulatedField(.classic(SimulatedClassicTag(type: .classic1K))))
        defer { bench.stop() }
        let device = try await bench.open()
        let session = NFCTagReaderSession(reader: device)
        let card = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
        do {
            try await card.authenticate(sector: 1, key: .ndefKeyA)
            Issue.record("the NFC Forum key opened a factory sector")
        } catch {
            #expect(error.code == .authenticationFailed)
        }
        try await card.authenticate(sector: 1, key: .transport)
        let data = [UInt8](repeating: 0xA5, count: 16)
        try await card.writeBlock(4, data: data)
        #expect(try await card.readBlock(4) == data)
        #expect(bench.reader.field.classicCommandCounts[.authenticateA] == 2)
        await session.invalidate()
        await device.close()
    }
}
