import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// An ISO-DEP (Type 4) tag behind the reader: PC/SC Part 3 3.1.3.2.3.2 ATR, GET DATA and the
/// pass-through of every APDU of another class than FF (NFC Forum Type 4 Tag 3.0, 5.4).
@Suite struct ISODEPReaderTests {
    @Test("The ATR carries the ATS's historical bytes: 3B 81 80 01 80 80 for ATS 06 77 77 71 02 80")
    func atr() throws {
        let bench = try ReaderBench.type4()
        #expect(bench.emulator.answerToReset(bench.field).map { hexText($0) } == "3B8180018080")
    }

    @Test("Historical bytes follow TL, T0 and the interface bytes T0 announces")
    func historicalBytes() {
        #expect(ContactlessReaderEmulator.historicalBytes(ofATS: hex("06 77 77 71 02 80")) == [0x80])
        #expect(ContactlessReaderEmulator.historicalBytes(ofATS: hex("05 78 80 70 02")) == [])
        #expect(ContactlessReaderEmulator.historicalBytes(ofATS: hex("04 00 AA BB")) == hex("AA BB"))
        #expect(ContactlessReaderEmulator.historicalBytes(ofATS: hex("09 00 AA BB")) == hex("AA BB"))
        #expect(ContactlessReaderEmulator.historicalBytes(ofATS: hex("01")) == [])
    }

    @Test("An ATS without historical bytes gives 3B 80 80 01 01 (TCK = 80 ^ 80 ^ 01)")
    func atrWithoutHistoricalBytes() throws {
        var configuration = SimulatedType4Tag.Configuration()
        configuration.uid = hex("01020304")
        let tag = try SimulatedType4Tag(configuration: configuration)
        let atr = ContactlessReaderEmulator.answerToReset(for: .type4(tag))
        #expect(atr.count == 5 + ContactlessReaderEmulator.historicalBytes(ofATS: tag.ats).count)
        #expect(atr.dropFirst().reduce(0, ^) == 0)
    }

    @Test("GET DATA: the UID, and with P1 01 the ATS's historical bytes")
    func getData() throws {
        var bench = try ReaderBench.type4()
        #expect(bench.send("FF CA 00 00 00") == "043C6A922F61809000")
        #expect(bench.send("FF CA 01 00 00") == "809000")
    }

    @Test("NDEF Tag Application, CC file and its READ BINARY go to the tag (T4T 3.0 5.4.2-5.4.4)")
    func ndefApplication() throws {
        var bench = try ReaderBench.type4()
        #expect(bench.send("00 A4 04 00 07 D2760000850101 00") == "9000")
        #expect(bench.send("00 A4 00 0C 02 E103") == "9000")
        let cc = bench.send("00 B0 00 00 0F")
        #expect(cc.hasPrefix("000F20"))
        #expect(cc.hasSuffix("9000"))
        #expect(bench.send("80 CA 00 00 00") == "6E00")
    }

    @Test("Storage-card commands are not for ISO-DEP tags: 6A 81")
    func storageCommands() throws {
        var bench = try ReaderBench.type4()
        #expect(bench.send("FF B0 00 04 10") == "6A81")
        #expect(bench.send("FF D6 00 04 04 01020304") == "6A81")
        #expect(bench.send("FF 86 00 00 05 01 00 04 60 00") == "6A81")
    }

    @Test("A corrupted response is repaired by the ISO-DEP retransmission: the client gets it intact")
    func corruptedResponse() throws {
        let tag = try SimulatedType4Tag(configuration: .init())
        var bench = ReaderBench([.type4(tag)], faults: .init(corruptEveryNthResponse: 1))
        #expect(bench.send("00 A4 04 00 07 D2760000850101 00") == "9000")
        #expect(bench.field.responsesSinceArmed == 1)
    }

    @Test("A halted ISO-DEP tag does not answer: 63 00")
    func silentTag() throws {
        var bench = try ReaderBench.type4()
        bench.field.haltSelected()
        #expect(bench.send("00 A4 04 00 07 D2760000850101 00") == "6300")
    }
}
