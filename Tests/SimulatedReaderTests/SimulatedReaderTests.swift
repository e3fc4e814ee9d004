import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The simulated reader as an ``NFCReaderDevice``: polling, selection, faults, latency.
@Suite("Simulated reader")
struct SimulatedReaderTests {
    @Test("ISO/IEC 14443-3 6.4: two tags are listed one by one with UID, ATQA 44 00 and SAK 00, then selected by UID")
    func pollTwoTags() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213?second-tag=1")
        let targets = try await reader.pollTargets()
        #expect(targets.map(\.index) == [0, 1])
        #expect(targets.map(\.uid) == [hex("04 51 7C A2 4B 35 80"), hex("04 51 7C A2 4B 35 81")])
        #expect(targets.allSatisfy { $0.atqa == hex("44 00") && $0.sak == 0 && $0.kind == .type2 })
        // Polling again (WUPA) finds the halted tags again.
        #expect(try await reader.pollTargets().count == 2)
        try await reader.select(targets[1])
        #expect(reader.withField { $0.selectedUID } == targets[1].uid)
        // NTAG213 CC, NTAG213/215/216 8.5.6.
        #expect(try await reader.read(3).prefix(4) == hex("E1 10 12 00")[...])
        #expect(reader.withField { $0.tag(uid: targets[1].uid)?.type2CommandCounts[.read] } == 1)
        #expect(reader.count(of: .read) == 1)
    }

    @Test("The reader reports what a simulated reader can do")
    func capabilities() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        #expect(reader.name == "sim:ntag215")
        #expect(reader.capabilities.maximumFrameSize == 252)
        #expect(reader.capabilities.supportsRawCommands && reader.capabilities.supportsFastRead)
        #expect(reader.capabilities.supportsISODEP && reader.capabilities.detectsMultipleTargets)
    }

    @Test("NTAG213/215/216 9.3: a NAK is passed on, and the tag is silent afterwards (connection lost)")
    func nakThenSilence() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213")
        try await reader.selectFirst()
        #expect(try await reader.transceive([0x30, 0xFF]) == .nak(0))
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.transceive([0x30, 0x00]) }
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) {
            try await reader.select(NFCTargetInfo(index: 0, uid: hex("04 00 00 00 00 00 00"), atqa: [], sak: 0))
        }
    }

    @Test(
        "remove-after: each in-flight outcome leaves page 6 as the tag would (tear: bytes 0-1 new, 2-3 old)",
        arguments: [
            ("complete", "AA BB CC DD"), ("none", "11 22 33 44"), ("tear", "AA BB 33 44"),
        ])
    func removeAfterWithOutcome(outcome: String, expected: String) async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?remove-after=2&in-flight=\(outcome)")
        try await reader.selectFirst()
        #expect(try await reader.write(6, "11 22 33 44") == .ack)
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.write(6, "AA BB CC DD") }
        #expect(reader.storedPage(6) == hex(expected))
    }

    @Test("tear=1 is in-flight=tear")
    func tearShorthand() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213?remove-after=1&tear=1")
        try await reader.selectFirst()
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.write(4, "AA BB CC DD") }
        // NTAG213 page 4 ships as 01 03 A0 0C (NTAG213/215/216 8.5).
        #expect(reader.storedPage(4) == hex("AA BB A0 0C"))
    }

    @Test("After the tag leaves, polling finds nothing and commands are lost until it is put back")
    func silentUntilPutBack() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?remove-after=1")
        try await reader.selectFirst()
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.read(4) }
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.read(4) }
        #expect(try await reader.pollTargets().isEmpty)
        reader.withField { $0.putBack() }
        // Back in IDLE: not selected any more.
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.read(4) }
        try await reader.selectFirst()
        #expect(try await reader.read(4).prefix(4) == hex("03 00 FE 00")[...])
    }

    @Test("corrupt-every: the corrupted answer is a response error (a CRC error), the others arrive")
    func corruptedAnswer() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?corrupt-every=3")
        try await reader.selectFirst()
        _ = try await reader.read(0)
        _ = try await reader.read(0)
        await #expect(throws: NFCReaderError(.tagResponseError, "")) { try await reader.read(0) }
        _ = try await reader.read(0)
    }

    @Test("latency-ms: each command takes at least that long; disarmed, none waits")
    func latency() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?latency-ms=60")
        try await reader.selectFirst()
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<3 { _ = try await reader.read(0) }
        }
        #expect(elapsed >= .milliseconds(180))  // a lower bound: a busy machine only adds to it
        // Whether a command waits, told without a clock: a cancelled task's command ends in the
        // wait (cancelled) while the latency is armed, and is carried out once it is disarmed.
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await caughtError { _ = try await reader.read(0) }
        }
        #expect(await waiting.value?.code == .cancelled)
        reader.withField { $0.disarm() }
        let carriedOut = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await reader.read(0)
        }
        #expect(try await carriedOut.value.count == 16)
    }

    @Test("A FAST_READ answer larger than the reader's frame is a response error")
    func frameLimit() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        try await reader.selectFirst()
        // 63 pages = 252 bytes pass; 64 pages do not (NTAG213/215/216 10.3).
        guard case .data(let bytes) = try await reader.transceive([0x3A, 0x00, 62]) else {
            Issue.record("expected data")
            return
        }
        #expect(bytes.count == 252)
        await #expect(throws: NFCReaderError(.tagResponseError, "")) { try await reader.transceive([0x3A, 0x00, 63]) }
    }

    @Test("An APDU to a Type 2 tag is a response error; without a selected tag the connection is lost")
    func apduToType2Tag() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.sendAPDU(hex("00 A4 04 00")) }
        try await reader.selectFirst()
        await #expect(throws: NFCReaderError(.tagResponseError, "")) { try await reader.sendAPDU(hex("00 A4 04 00")) }
    }

    @Test("releaseTargets turns the field off and on: the tag is IDLE and must be selected again")
    func release() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215")
        try await reader.selectFirst()
        await reader.releaseTargets()
        #expect(reader.withField { $0.tags.first?.type2Tag?.state } == .idle)
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.read(0) }
    }

    @Test("After close every call throws reader-unavailable")
    func closed() async throws {
        let reader = SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag213)))
        await reader.close()
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { try await reader.pollTargets() }
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { try await reader.transceive([0x30, 0]) }
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { try await reader.sendAPDU([0, 0xA4, 0, 0]) }
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) {
            try await reader.select(NFCTargetInfo(index: 0, uid: SimulatedType2Tag.defaultUID, atqa: [], sak: 0))
        }
    }
}
