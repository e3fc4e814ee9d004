import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import PCSCReader

extension PCSCDaemonTests {
    /// MIFARE Classic cards through the test run's pcscd and the vpcd card: PC/SC Part 3 LOAD
    /// KEYS, GENERAL AUTHENTICATE, READ BINARY and UPDATE BINARY (3.2.2.1), whatever the profile.
    @Suite("MIFARE Classic through pcscd and the vpcd card")
    struct Classic {
        static let keyB = MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21))

        /// A 1K card formatted for NDEF, empty.
        static func formattedCard() -> SimulatedClassicTag {
            let factory = SimulatedClassicTag(type: .classic1K)
            let image = MifareClassicNDEFLayout(type: .classic1K).formattedImage(
                manufacturerBlock: factory.block(0) ?? [], keyB: keyB)
            return SimulatedClassicTag(type: .classic1K, image: image, uidLength: 4)
        }

        @Test("The ATR names a 1K; query, write and read back a 100-byte URI", arguments: ProfilePair.all)
        func writeAndRead(_ pair: ProfilePair) async throws {
            let bench = try await CardBench(tag: .classic(Self.formattedCard()), profile: pair.reader)
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: pair.profile)
            let target = try await bench.poll(device)
            #expect(target.kind == .mifareClassic && target.sak == 0x08)
            let session = NFCTagReaderSession(reader: device)
            let card = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
            let (status, capacity) = try await card.queryNDEFStatus()
            #expect(status == .readWrite && capacity == 716)
            let message = uriMessage(length: 100, seed: 5)
            bench.reader.withField { $0.resetCommandCounts() }
            try await card.writeNDEF(message)
            #expect(try await card.readNDEF() == message)
            let counts = bench.reader.field.classicCommandCounts
            print("PCSC figures: MIFARE Classic 1K 100-byte URI write+verify+read, profile \(pair.profile): \(counts)")
            // 103 TLV bytes over blocks 4-6, 8-10 and 12 of an empty card (length 0 already):
            // each block once, the length block 4 last.
            #expect(counts[.write] == 7)
            #expect(bench.reader.field.tags.first?.classicTag?.memory.message == message)
            await session.invalidate()
            await device.close()
            await bench.stop()
        }

        @Test("A refused key is authentication-failed; the card is reset, and the next key opens the sector")
        func refusedKey() async throws {
            let bench = try await CardBench(tag: .classic(SimulatedClassicTag(type: .classic1K)))
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .generic)
            _ = try await bench.poll(device)
            let session = NFCTagReaderSession(reader: device)
            let card = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
            do {
                try await card.authenticate(sector: 2, key: .directoryKeyA)
                Issue.record("the MAD key opened a factory sector")
            } catch {
                #expect(error.code == .authenticationFailed)
            }
            try await card.authenticate(sector: 2, key: .transport)
            let data = [UInt8](repeating: 0x3C, count: 16)
            try await card.writeBlock(9, data: data)
            #expect(try await card.readBlock(9) == data)
            await session.invalidate()
            await device.close()
            await bench.stop()
        }

        @Test("The Gen1a backdoor is not checked through PC/SC (no 7-bit frames); the card reads on afterwards")
        func gen1aNotChecked() async throws {
            var magic = SimulatedClassicTag(type: .classic1K)
            magic.answersGen1aBackdoor = true
            let bench = try await CardBench(tag: .classic(magic))
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .generic)
            _ = try await bench.poll(device)
            let session = NFCTagReaderSession(reader: device)
            let card = try #require(try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag)
            #expect(try await card.answersGen1aBackdoor() == nil)
            try await card.authenticate(sector: 1, key: .transport)
            #expect(try await card.readBlock(4) == [UInt8](repeating: 0, count: 16))
            await session.invalidate()
            await device.close()
            await bench.stop()
        }
    }
}
