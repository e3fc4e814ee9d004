import Foundation
import NDEF
import NFCSession
import TagMemory
import Testing

@testable import PCSCReader

extension PCSCDaemonTests {
    /// A tag behind pcscd: a minimal NTAG215 (``FakeVPCDCard``) on a vpcd reader of pcscd's own
    /// configuration, reached on loopback.
    @Suite("with a card on a vpcd reader")
    struct WithCard {
        /// A daemon with one vpcd entry on a free port, and a card on its first reader.
        struct Bench {
            let daemon: PCSCDaemon
            let card: FakeVPCDCard
            let readerName = "Virtual PCD 00 00"

            /// Tries up to three random port pairs: one may be taken by another program.
            init(answersRegisters: Bool = true) async throws {
                var attempt = 1
                while true {
                    let port = UInt16.random(in: 20_000...59_998) & ~1
                    do {
                        let daemon = try await PCSCDaemon(vpcdPort: port)
                        self.card = try FakeVPCDCard(port: port, answersRegisters: answersRegisters)
                        self.daemon = daemon
                        return
                    } catch  where attempt < 3 {
                        attempt += 1
                    }
                }
            }

            /// Polls until the tag shows (pcscd checks vpcd every 0.4 s).
            func poll(_ device: PCSCReaderDevice) async throws -> NFCTargetInfo {
                for _ in 0..<100 {
                    if let target = try await device.pollTargets().first { return target }
                    try await Task.sleep(for: .milliseconds(30))
                }
                throw PCSCDaemon.DaemonError(message: "the card never showed; log: \(daemon.log())")
            }

            func stop() {
                card.remove()
                daemon.stop()
            }
        }

        @Test("polling finds the tag: UID by GET DATA, SAK from the ATR, the ATR kept")
        func poll() async throws {
            let bench = try await Bench()
            defer { bench.stop() }
            let device = PCSCReaderDevice(readerName: bench.readerName)
            let target = try await bench.poll(device)
            #expect(target.uid == FakeVPCDCard.uid)
            #expect(target.sak == 0x00)
            #expect(target.kind == .type2)
            #expect(target.atr == FakeVPCDCard.atr)
            #expect(target.atqa == [])
            #expect(target.ats == nil)
            #expect(try await device.pollTargets() == [target])
            await device.close()
        }

        @Test("acr122u profile: raw commands with the receive CRC off, NAK and re-selection")
        func acr122u() async throws {
            let bench = try await Bench()
            defer { bench.stop() }
            let device = PCSCReaderDevice(readerName: bench.readerName)
            #expect(device.profile == .acr122u)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(try await device.transceive([0x60]) == .data(FakeVPCDCard.version))
            // The register dance came first: ReadRegister, WriteRegister, ReadRegister of 6303h.
            let received = bench.card.received.map { Array($0.dropFirst(5).prefix(2)) }
            #expect(received.contains([0xD4, 0x08]))
            let page0 = try await device.transceive([0x30, 0x00])
            #expect(
                page0
                    == .data(
                        Array(FakeVPCDCard.uid.prefix(3)) + [0x88 ^ 0x04 ^ 0xA1 ^ 0xB2] + [
                            0xC3, 0xD4, 0xE5, 0xF6, 0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6, 0x48, 0x00, 0x00, 0xE1, 0x10, 0x3E, 0x00,
                        ]))
            #expect(try await device.transceive(hex("A2 05 DE AD BE EF")) == .ack)
            #expect(bench.card.page(5) == hex("DE AD BE EF"))
            #expect(try await device.transceive(hex("3A 04 05")) == .data(hex("03 00 FE 00 DE AD BE EF")))
            // A READ past the end: NAK 0h, and the tag is IDLE until selected again.
            #expect(try await device.transceive([0x30, 0x90]) == .nak(0x0))
            #expect(
                await asyncReaderError { _ = try await device.transceive([0x30, 0x04]) }?.code == .tagConnectionLost)
            try await device.select(target)
            #expect(
                try await device.transceive([0x30, 0x04])
                    == .data(hex("03 00 FE 00 DE AD BE EF") + [UInt8](repeating: 0, count: 8)))
            #expect(try await device.firmwareVersion() == nil)  // the fake reader has no firmware text
            await device.close()
        }

        @Test("acr122u profile without register commands: reads work, a 4-bit ACK hides behind a CRC error")
        func acr122uReaderCRC() async throws {
            let bench = try await Bench(answersRegisters: false)
            defer { bench.stop() }
            let device = PCSCReaderDevice(readerName: bench.readerName)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(try await device.transceive([0x60]) == .data(FakeVPCDCard.version))
            let write = await asyncReaderError { _ = try await device.transceive(hex("A2 05 DE AD BE EF")) }
            #expect(write?.code == .tagResponseError)
            #expect(write?.reason.contains("4-bit ACK or NAK") == true)
            await device.close()
        }

        @Test("an exclusive connection keeps other programs out")
        func exclusive() async throws {
            let bench = try await Bench()
            defer { bench.stop() }
            let holder = PCSCReaderDevice(readerName: bench.readerName, exclusive: true)
            _ = try await bench.poll(holder)
            let other = PCSCReaderDevice(readerName: bench.readerName)
            let busy = await asyncReaderError { _ = try await other.pollTargets() }
            #expect(busy?.code == .readerUnavailable)
            #expect(busy?.reason.contains("another program holds it exclusively") == true)
            await holder.close()
            #expect(try await other.pollTargets().count == 1)
            await other.close()
        }

        @Test("generic profile: READ BINARY and UPDATE BINARY only")
        func generic() async throws {
            let bench = try await Bench()
            defer { bench.stop() }
            let device = PCSCReaderDevice(readerName: bench.readerName, profile: .generic)
            let target = try await bench.poll(device)
            try await device.select(target)
            #expect(
                try await device.transceive([0x30, 0x03])
                    == .data(hex("E1 10 3E 00 03 00 FE 00") + [UInt8](repeating: 0, count: 8)))
            #expect(try await device.transceive(hex("A2 06 01 02 03 04")) == .ack)
            #expect(bench.card.page(6) == hex("01 02 03 04"))
            let refused = await asyncReaderError { _ = try await device.transceive([0x60]) }
            #expect(refused?.code == .unsupportedFeature)
            #expect(refused?.reason.contains("GET_VERSION") == true)
            #expect(try await device.transceive([0x30, 0x90]) == .nak(0x0))  // 63 00
            #expect(try await device.sendAPDU(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == hex("6E 00"))
            await device.close()
        }

        @Test("the session identifies the NTAG215 and writes and reads NDEF through pcscd")
        func session() async throws {
            let bench = try await Bench()
            defer { bench.stop() }
            let device = PCSCReaderDevice(readerName: bench.readerName)
            _ = try await bench.poll(device)
            let session = NFCTagReaderSession(reader: device)
            guard case .miFare(let tag) = try await session.nextTag(timeout: .seconds(5)) else {
                Issue.record("not a Type 2 tag")
                return
            }
            #expect(tag.chip?.name == "NTAG215")
            let message = NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com/pcsc").makeRecord()])
            try await tag.writeNDEF(message)
            #expect(try await tag.readNDEF() == message)
            #expect(bench.card.page(4).first == 0x03)
            await session.invalidate()
            await device.close()
        }

        @Test("a tag taken away: tag-connection-lost, then nothing to poll; the card watch sees it go")
        func removal() async throws {
            let bench = try await Bench()
            let device = PCSCReaderDevice(readerName: bench.readerName)
            let target = try await bench.poll(device)
            try await device.select(target)
            var events = PCSCReaders.watchCard(in: bench.readerName).makeAsyncIterator()
            let present = try await events.next()
            #expect(present?.presence == .present)
            #expect(present?.atr == FakeVPCDCard.atr)
            bench.card.remove()
            let gone = try await events.next()
            #expect(gone?.presence == .empty)
            #expect((gone?.eventCount ?? 0) > (present?.eventCount ?? 0))
            let lost = await asyncReaderError { _ = try await device.transceive([0x30, 0x04]) }
            #expect(lost?.code == .tagConnectionLost)
            #expect(try await device.pollTargets() == [])
            await device.close()
            bench.daemon.stop()
        }
    }
}
