import Foundation
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Simulated tags served to the real pcscd through vpcd, checked with a real PC/SC client
/// (``PCSCClient``): what a PC/SC program sees of a contactless reader with a tag.
///
/// Needs `NDEFTOOL_PCSCD=1` (Scripts/test starts a private pcscd); skipped otherwise, with the
/// reason in the output. Uses the reader on port 35963 ("Virtual PCD 00 00") only, one test at a
/// time: every suite of this target that uses that reader nests in this one (the CLI tests use
/// 35964, the PCSCReader tests 35965 and 35966).
@Suite(.serialized, .enabled(if: PCSCClient.isAvailable, PCSCClient.skipNote), .timeLimit(.minutes(8)))
struct PCSCDaemonTests {
    /// Starts a card for `reader` on port 35963 once the reader is empty, and a client that
    /// waits for it; runs `body` with both, then ends the client and stops the card.
    static func withCard(
        _ reader: SimulatedReader, reinsertAfter: Int? = nil, profile: ContactlessReaderProfile = .combined,
        _ body: (VirtualPCDCard, PCSCClient) async throws -> Void
    ) async throws {
        let client = try PCSCClient()
        #expect(try await client.sees("absent"), "the reader still holds a card from an earlier test")
        let card = try VirtualPCDCard(
            reader: reader,
            configuration: .init(port: 35963, profile: profile, reinsertAfterMilliseconds: reinsertAfter))
        do {
            try card.start()
            #expect(try await client.sees("present"), "pcscd did not see the card")
            try await body(card, client)
        } catch {
            await client.close()
            card.stop()
            throw error
        }
        await client.close()
        card.stop()
    }

    static func ntag215() -> SimulatedReader {
        SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
    }

    @Test("A Type 2 tag: ATR, GET DATA, READ BINARY, UPDATE BINARY through pcscd")
    func storageCommands() async throws {
        try await Self.withCard(Self.ntag215()) { (_, client) async throws in
            #expect(
                try await client.call("connect \(PCSCClient.firstReader)")
                    == "ok 3B8F8001804F0CA0000003060300030000000068")
            #expect(try await client.transmit("FFCA000000") == "04517CA24B35809000")
            #expect(try await client.transmit("FFB0000010") == "04517CA1A24B35805C480000E1103E009000")
            #expect(try await client.transmit("FFD6000404DEADBEEF") == "9000")
            #expect(try await client.transmit("FFB0000404") == "DEADBEEF9000")
            #expect(try await client.transmit("FFB0008710") == "6300")
        }
    }

    @Test("Raw commands through pcscd: ACR122U Direct Transmit GET_VERSION and the PC/SC 2.02 transparent session")
    func passThrough() async throws {
        try await Self.withCard(Self.ntag215()) { (_, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            #expect(try await client.transmit("FF00480000") == "41435231323255323037")
            #expect(try await client.transmit("FF00000003D44260") == "D543000004040201001103" + "9000")
            #expect(try await client.transmit("FFC2000002" + "8100") == "C0030090009000")
            #expect(
                try await client.transmit("FFC2000103" + "950160") == "C003009000920100960200009708000404020100110390"
                    + "00")
            #expect(try await client.transmit("FFC2000002" + "8200") == "C0030090009000")
        }
    }

    @Test("A Type 4 tag: ATR from the ATS, GET DATA of the historical bytes, the NDEF application")
    func type4() async throws {
        let reader = SimulatedReader(tag: .type4(try SimulatedType4Tag(configuration: .init())))
        try await Self.withCard(reader) { (_, client) async throws in
            #expect(try await client.call("connect \(PCSCClient.firstReader)") == "ok 3B8180018080")
            #expect(try await client.transmit("FFCA010000") == "809000")
            #expect(try await client.transmit("00A4040007D276000085010100") == "9000")
            #expect(try await client.transmit("00A4000C02E103") == "9000")
            let cc = try await client.transmit("00B000000F")
            #expect(cc.hasPrefix("000F20") && cc.hasSuffix("9000"))
        }
    }

    @Test("Taking the tag out: pcscd sees the reader empty and transmissions fail; put back, it works again")
    func removalAndReinsertion() async throws {
        try await Self.withCard(Self.ntag215()) { (card, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            #expect(try await client.transmit("FFCA000000") == "04517CA24B35809000")
            card.removeTag()
            #expect(try await client.sees("absent"))
            #expect(try await client.call("transmit FFCA000000").hasPrefix("error"))
            card.insertTag()
            #expect(try await client.sees("present"))
            #expect(try await client.call("reconnect reset") == "ok")
            #expect(try await client.transmit("FFCA000000") == "04517CA24B35809000")
        }
    }

    @Test("A tag taken out and put straight back stays out long enough for pcscd to notice, then works")
    func quickReinsertion() async throws {
        try await Self.withCard(Self.ntag215()) { (card, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            let before = try #require(try await client.cardEventCount())
            card.removeTag()
            card.insertTag()  // at once: the card still makes one of pcscd's presence checks fail
            // pcscd counts the card leaving and coming back, however late it runs its checks.
            var last: Int?
            let counted = await eventually {
                last = (try? await client.cardEventCount()) ?? nil
                return (last ?? 0) >= before + 2
            }
            #expect(counted, "card events: \(before) before, \(String(describing: last)) last")
            #expect(try await client.call("reconnect reset") == "ok")
            #expect(try await client.transmit("FFCA000000") == "04517CA24B35809000")
        }
    }

    @Test("remove-after: the card vanishes during the command (an error or an empty response), then comes back")
    func removalFault() async throws {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(removeAfterCommands: 3))
        // Out until the test puts it back, once pcscd has seen the reader empty.
        try await Self.withCard(SimulatedReader(field: field)) { (card, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            #expect(try await client.transmit("FFB0000404") == "0300FE009000")
            #expect(try await client.transmit("FFB0000504") == "000000009000")
            // vpcd sees the connection close with the APDU in flight: SCardTransmit fails, or
            // succeeds with a response of 0 bytes (no SW1 SW2), as test-stacks.md describes.
            let vanished = try await client.call("transmit FFB0000604").trimmingCharacters(in: .whitespaces)
            #expect(vanished.hasPrefix("error") || vanished == "ok", "got \(vanished)")
            #expect(try await client.sees("absent"))
            card.insertTag()
            #expect(try await client.sees("present"))
            _ = try await client.call("disconnect leave")
            #expect(try await client.call("connect \(PCSCClient.firstReader)").hasPrefix("ok 3B8F"))
            #expect(try await client.transmit("FFB0000604") == "000000009000")
        }
    }

    // The time per APDU is printed, not judged (a busy machine makes any bound flaky): the
    // reader benchmark (`Scripts/bench`, ReaderBenchmarks pcsc) measures it as the "floor" of
    // every APDU through pcscd and the vpcd card bridge, where vpcd's 40 ms delayed-ACK stall
    // would show.
    @Test("1000 APDUs in a row through pcscd and vpcd (TCP_QUICKACK on the card's side) are all answered")
    func latency() async throws {
        try await Self.withCard(Self.ntag215()) { (_, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            let answers = [
                "FFCA000000": "04517CA24B35809000",
                "FFB0000410": "0300FE00" + String(repeating: "00", count: 12) + "9000",
                "FF00000003D44260": "D543000004040201001103" + "9000",
            ]
            for (apdu, expected) in answers.sorted(by: { $0.key < $1.key }) {
                let answer = try await client.call("time 1000 \(apdu)", within: .seconds(120))
                let fields = answer.split(separator: " ")
                #expect(fields.first == "ok", "\(answer)")
                let microseconds = try #require(fields.count >= 2 ? Double(fields[1]) : nil, "\(answer)")
                #expect((fields.count >= 3 ? String(fields[2]) : "") == expected, "\(answer)")
                print("APDU \(apdu) through pcscd and vpcd: \(microseconds) µs per round trip (mean of 1000)")
            }
        }
    }

    @Test("The tag file holds what a PC/SC client wrote")
    func tagFile() async throws {
        let directory = try TemporaryDirectory("pcscd")
        defer { directory.remove() }
        let url = "sim:ntag215?file=\(directory.path("tag.nfc"))"
        try await Self.withCard(try await SimulatedReader(url: url)) { (_, client) async throws in
            _ = try await client.call("connect \(PCSCClient.firstReader)")
            #expect(try await client.transmit("FFD6000504CAFEF00D") == "9000")
        }
        let reopened = try await SimulatedReader(url: url)
        guard case .type2(let tag)? = reopened.field.tags.first else {
            Issue.record("the file holds no Type 2 tag")
            return
        }
        #expect(tag.memory.page(5).map { hexText($0) } == "CAFEF00D")
    }
}
