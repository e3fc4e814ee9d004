import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// `nak-write`, `lose-write` and `get-version`, and a reader that keeps to its capabilities.
@Suite("Simulated reader: write faults and capabilities")
struct SimulatedReaderWriteFaultTests {
    @Test("nak-write, nak-code, lose-write and get-version are read into the faults and written back canonically")
    func type2Options() throws {
        let url = try SimulatedReaderURL(
            parsing: "sim:ntag215?get-version=00:04:04:05:02:01:13:03&lose-write=3&nak-code=0&nak-write=2")
        #expect(
            url.faults
                == SimulatedField.Faults(
                    nakWrite: 2, nakCode: 0x0, loseWrite: 3, versionAnswer: hex("00 04 04 05 02 01 13 03")))
        #expect(url.description == "sim:ntag215?nak-write=2&nak-code=0&lose-write=3&get-version=0004040502011303")
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
        let plain = try SimulatedReaderURL(parsing: "sim:ntag213?nak-write=1")
        #expect(plain.faults.nakCode == 0x5)
        #expect(plain.description == "sim:ntag213?nak-write=1")
    }

    @Test("sim:type4 takes nak-write with nak-status and lose-write")
    func type4Options() throws {
        let url = try SimulatedReaderURL(parsing: "sim:type4?nak-write=1&nak-status=6982&lose-write=2")
        #expect(url.faults == SimulatedField.Faults(nakWrite: 1, nakStatusWord: 0x6982, loseWrite: 2))
        #expect(url.description == "sim:type4?nak-write=1&nak-status=6982&lose-write=2")
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
    }

    @Test(
        "Bad write fault options are invalid-parameter errors naming them",
        arguments: [
            ("sim:ntag215?nak-code=5", "needs nak-write"),
            ("sim:type4?nak-status=6581", "needs nak-write"),
            ("sim:ntag215?nak-write=0", "nak-write=0"),
            ("sim:ntag215?lose-write=x", "lose-write=x"),
            ("sim:ntag215?nak-write=1&nak-code=10", "nak-code=10"),
            ("sim:ntag215?nak-write=1&nak-code=g", "nak-code=g"),
            ("sim:type4?nak-write=1&nak-status=9000", "9000 is success"),
            ("sim:type4?nak-write=1&nak-status=65", "nak-status=65"),
            ("sim:ntag215?nak-write=1&nak-status=6581", "Type 4 tags only"),
            ("sim:type4?nak-write=1&nak-code=5", "Type 2 chips only"),
            ("sim:type4?get-version=0004", "Type 2 chips only"),
            ("sim:ntag215?get-version=zz", "get-version=zz"),
        ])
    func badOptions(text: String, named: String) {
        expectRefused(text, naming: named)
    }

    @Test("NTAG213/215/216 9.3: nak-write=2 refuses the second WRITE with NAK 5h; the page keeps its content")
    func nakThroughReader() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?nak-write=2")
        try await reader.selectFirst()
        #expect(try await reader.read(4).count == 16)
        #expect(try await reader.write(6, "01 02 03 04") == .ack)
        #expect(try await reader.write(7, "05 06 07 08") == .nak(0x5))
        #expect(reader.storedPage(7) == hex("00 00 00 00"))
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.read(4) }
    }

    @Test("T2T 1.1 5.2: lose-write=1 acknowledges the first WRITE and stores nothing")
    func loseThroughReader() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213?lose-write=1")
        try await reader.selectFirst()
        #expect(try await reader.write(6, "01 02 03 04") == .ack)
        #expect(try await reader.read(6).prefix(4) == hex("00 00 00 00")[...])
    }

    @Test("get-version replaces the GET_VERSION answer")
    func versionThroughReader() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag216?get-version=0004040502011303")
        try await reader.selectFirst()
        #expect(try await reader.transceive([0x60]) == .data(hex("00 04 04 05 02 01 13 03")))
    }

    @Test("T4T 3.0 5.4.5: sim:type4 nak-write and lose-write act on UPDATE BINARY")
    func type4ThroughReader() async throws {
        let refused = try await SimulatedReader(url: "sim:type4?nak-write=1")
        try await refused.selectFirst()
        #expect(try await refused.openType4File() == [hex("90 00"), hex("90 00")])
        #expect(try await refused.sendAPDU(hex("00 D6 00 02 02 D1 01")) == hex("65 81"))
        #expect(refused.storedNDEFFile(4) == hex("00 00 00 00"))
        let lost = try await SimulatedReader(url: "sim:type4?lose-write=1")
        try await lost.selectFirst()
        _ = try await lost.openType4File()
        #expect(try await lost.sendAPDU(hex("00 D6 00 02 02 D1 01")) == hex("90 00"))
        #expect(lost.storedNDEFFile(4) == hex("00 00 00 00"))
    }

    @Test("A reader keeps to its capabilities: no FAST_READ, READ and WRITE only, no ISO-DEP, one target listed")
    func capabilities() async throws {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(secondTag: true))
        field.isRecordingCommands = true
        let limited = NFCReaderCapabilities(
            maximumFrameSize: 252, supportsRawCommands: false, supportsFastRead: false, supportsISODEP: false,
            detectsMultipleTargets: false)
        let reader = SimulatedReader(field: field, capabilities: limited)
        let targets = try await reader.pollTargets()
        #expect(targets.count == 1)
        try await reader.select(targets[0])
        for frame in [[0x3A, 0x00, 0x03], [0x60], [0x3C, 0x00], [0x1B, 1, 2, 3, 4]] as [[UInt8]] {
            await #expect(throws: NFCReaderError(.unsupportedFeature, "")) { try await reader.transceive(frame) }
        }
        await #expect(throws: NFCReaderError(.unsupportedFeature, "")) { try await reader.sendAPDU(hex("00 A4 04 00")) }
        #expect(reader.field.log.isEmpty)
        #expect(try await reader.read(4).count == 16)
        #expect(try await reader.write(6, "01 02 03 04") == .ack)
    }
}
