import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import Testing

@testable import PCSCReader

extension PCSCDaemonTests.Sessions {
    /// A Type 4 tag that takes 4,096-byte READ BINARY answers and UPDATE BINARY commands (MLe and
    /// MLc, T4T 3.0 5.1.2) in an 8,000-byte NDEF file.
    static func largeType4Bench() async throws -> CardBench {
        let configuration = SimulatedType4Tag.Configuration(
            maximumResponseDataSize: 4096, maximumCommandDataSize: 4096, maximumNDEFFileSize: 8000)
        return try await CardBench(
            SimulatedReader(tag: .type4(try SimulatedType4Tag(configuration: configuration))), profile: .pcsc202)
    }

    /// Writes and reads back a 3,000-byte message through a device with `apduLength`; the
    /// UPDATE BINARY and READ BINARY commands the tag saw.
    static func largeType4RoundTrip(_ apduLength: PCSCAPDULength) async throws -> (updates: Int, reads: Int) {
        let bench = try await largeType4Bench()
        defer { bench.card.stop() }
        let device = PCSCReaderDevice(
            readerName: PCSCTestReaders.cardReader, profile: .generic, apduLength: apduLength)
        _ = try await bench.poll(device)
        let session = NFCTagReaderSession(reader: device)
        guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            throw PCSCTestReaders.BenchError(description: "not a Type 4 tag")
        }
        let message = uriMessage(length: 3000, seed: 5)
        bench.reader.withField { $0.resetCommandCounts() }
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        let field = bench.reader.field
        await session.invalidate()
        await device.close()
        await bench.stop()
        return (field.count(of: SimulatedType4Command.updateBinary), field.count(of: SimulatedType4Command.readBinary))
    }

    @Test("apdu=extended: a 3,000-byte Type 4 message in extended-length APDUs through pcscd and vpcd")
    func extendedLength() async throws {
        let extended = try await Self.largeType4RoundTrip(.extended)
        // The 3,002-byte file (NLEN and the message) fits one UPDATE BINARY of MLc 4,096 (T4T 3.0
        // 5.4.3: measured 1); the write's read-back and readNDEF read it in one READ BINARY each
        // after NLEN (measured 6 READ BINARY with the CC and NLEN reads).
        #expect(extended.updates <= 3, "\(extended)")
        #expect(extended.reads <= 6, "\(extended)")
        let short = try await Self.largeType4RoundTrip(.short)
        // Short APDUs: at most 252 data bytes per UPDATE BINARY, 256 per READ BINARY (measured 13
        // and 28).
        #expect(short.updates >= 3000 / 252, "\(short)")
        #expect(short.reads >= 2 * (3000 / 256), "\(short)")
    }

    @Test("apdu=auto: vpcd's driver reports no Part 10 properties, so APDUs stay short")
    func automaticLength() async throws {
        let bench = try await Self.largeType4Bench()
        defer { bench.card.stop() }
        let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .generic)
        #expect(device.capabilities.maximumAPDUDataSize == 256)
        _ = try await bench.poll(device)
        #expect(device.capabilities.maximumAPDUDataSize == 256)
        #expect(!device.capabilities.supportsExtendedLengthAPDUs)
        await device.close()
        await bench.stop()
    }
}
