import Foundation
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
    /// A simulated NTAG215 served by the project's vpcd card (``SimulatorBridges/VirtualPCDCard``)
    /// in ``PCSCTestReaders/cardReader``, reached through the test run's pcscd.
    @Suite("with a card on a vpcd reader")
    struct WithCard {
        static let uid = SimulatedType2Tag.defaultUID
        static let atr = hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")
        /// NTAG215 GET_VERSION (NTAG213/215/216 datasheet 10.1).
        static let version = hex("00 04 04 02 01 00 11 03")

        static func ntag215(_ profile: ContactlessReaderProfile = .combined) async throws -> CardBench {
            try await CardBench(tag: .type2(SimulatedType2Tag(chip: .ntag215)), profile: profile)
        }

        func page(_ bench: CardBench, _ page: Int) -> [UInt8] {
            guard case .type2(let tag)? = bench.reader.field.tags.first else { return [] }
            return tag.memory.page(page) ?? []
        }

        @Test("polling finds the tag: UID by GET DATA, SAK from the ATR, the ATR kept")
        func poll() async throws {
            let bench = try await Self.ntag215()
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader)
            let target = try await bench.poll(device)
            #expect(target.uid == Self.uid)
            #expect(target.sak == 0x00)
            #expect(target.kind == .type2)
            #expect(target.atr == Self.atr)
            #expect(target.atqa == [])
            #expect(target.ats == nil)
            #expect(try await device.pollTargets() == [target])
            await device.close()
            await bench.stop()
        }

        @Test("acr122u profile: raw commands with the receive CRC off, NAK and re-selection")
        func acr122u() async throws {
            let bench = try await Self.ntag215(.acr122u)
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader)
            #expect(device.profile == .acr122u)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(try await device.transceive([0x60]) == .data(Self.version))
            #expect(try await device.transceive(hex("A2 05 DE AD BE EF")) == .ack)
            #expect(page(bench, 5) == hex("DE AD BE EF"))
            #expect(try await device.transceive(hex("3A 04 05")) == .data(hex("03 00 FE 00 DE AD BE EF")))
            // A READ past the end: NAK 0h (NTAG213/215/216 9.3), and the tag is IDLE until selected again.
            #expect(try await device.transceive([0x30, 0x90]) == .nak(0x0))
            #expect(
                await asyncReaderError { _ = try await device.transceive([0x30, 0x04]) }?.code == .tagConnectionLost)
            try await device.select(target)
            #expect(
                try await device.transceive([0x30, 0x04])
                    == .data(hex("03 00 FE 00 DE AD BE EF") + [UInt8](repeating: 0, count: 8)))
            #expect(try await device.firmwareVersion() == "ACR122U207")
            await device.close()
            await bench.stop()
        }

        @Test("pcsc-transparent profile: raw commands through the PC/SC 2.02 transparent session")
        func transparent() async throws {
            let bench = try await Self.ntag215(.pcsc202)
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .pcscTransparent)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(try await device.transceive([0x60]) == .data(Self.version))
            #expect(try await device.transceive(hex("A2 05 DE AD BE EF")) == .ack)
            #expect(try await device.transceive([0x30, 0x90]) == .nak(0x0))
            try await device.select(target)
            #expect(try await device.transceive(hex("3A 04 05")) == .data(hex("03 00 FE 00 DE AD BE EF")))
            await device.close()
            await bench.stop()
        }

        @Test("an exclusive connection keeps other programs out")
        func exclusive() async throws {
            let bench = try await Self.ntag215()
            defer { bench.card.stop() }
            let holder = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, exclusive: true)
            _ = try await bench.poll(holder)
            let other = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader)
            let busy = await asyncReaderError { _ = try await other.pollTargets() }
            #expect(busy?.code == .readerUnavailable)
            #expect(busy?.reason.contains("another program holds it exclusively") == true)
            await holder.close()
            #expect(try await other.pollTargets().count == 1)
            await other.close()
            await bench.stop()
        }

        @Test("generic profile: READ BINARY and UPDATE BINARY only")
        func generic() async throws {
            let bench = try await Self.ntag215(.pcsc202)
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .generic)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(
                try await device.transceive([0x30, 0x03])
                    == .data(hex("E1 10 3E 00 03 00 FE 00") + [UInt8](repeating: 0, count: 8)))
            #expect(try await device.transceive(hex("A2 06 01 02 03 04")) == .ack)
            #expect(page(bench, 6) == hex("01 02 03 04"))
            let refused = await asyncReaderError { _ = try await device.transceive([0x60]) }
            #expect(refused?.code == .unsupportedFeature)
            #expect(refused?.reason.contains("GET_VERSION") == true)
            #expect(try await device.transceive([0x30, 0x90]) == .nak(0x0))  // 63 00
            await device.close()
            await bench.stop()
        }

        @Test("a tag taken away: tag-connection-lost, then nothing to poll; the card watch sees it go")
        func removal() async throws {
            let bench = try await Self.ntag215()
            defer { bench.card.stop() }
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader)
            let target = try await bench.poll(device)
            try await device.select(target)
            var events = PCSCReaders.watchCard(in: PCSCTestReaders.cardReader).makeAsyncIterator()
            let present = try await events.next()
            #expect(present?.presence == .present)
            #expect(present?.atr == Self.atr)
            bench.card.removeTag()
            let gone = try await events.next()
            #expect(gone?.presence == .empty)
            #expect((gone?.eventCount ?? 0) > (present?.eventCount ?? 0))
            let lost = await asyncReaderError { _ = try await device.transceive([0x30, 0x04]) }
            #expect(lost?.code == .tagConnectionLost)
            #expect(try await device.pollTargets() == [])
            await device.close()
            await bench.stop()
        }
    }
}
