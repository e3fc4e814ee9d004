import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Parsing `sim:` reader URLs.
@Suite("Simulated reader URLs")
struct SimulatedReaderURLTests {
    @Test(
        "Every chip name and NXP type code names its catalogue chip (Type2ChipCatalogue)",
        arguments: [
            ("ntag210", Type2Chip.ntag210), ("ntag212", .ntag212), ("ntag213", .ntag213), ("NTAG215", .ntag215),
            ("ntag216", .ntag216), ("ultralight", .mifareUltralight), ("ultralight-c", .mifareUltralightC),
            ("ultralight-ev1", .mifareUltralightEV1MF0UL11), ("ultralight-ev1-48", .mifareUltralightEV1MF0UL11),
            ("ultralight-ev1-128", .mifareUltralightEV1MF0UL21), ("mf0ul21", .mifareUltralightEV1MF0UL21),
            ("nt2h1511", .ntag215), ("MF0ICU2", .mifareUltralightC),
        ])
    func chipNames(name: String, chip: Type2Chip) throws {
        let url = try SimulatedReaderURL(parsing: "sim:" + name)
        #expect(url.chip == chip)
        #expect(url.filePath == nil && url.uid == nil && url.faults == .none)
    }

    @Test("Every option is read; values may be percent-encoded")
    func allOptions() throws {
        let url = try SimulatedReaderURL(
            parsing: "sim:ntag215?file=/tmp/my%20tag.nfc&remove-after=12&in-flight=complete&second-tag=true"
                + "&latency-ms=5&corrupt-every=7&uid=04-A1-B2-C3-D4-E5-F6")
        #expect(url.chip == .ntag215)
        #expect(url.filePath == "/tmp/my tag.nfc")
        #expect(url.uid == hex("04 A1 B2 C3 D4 E5 F6"))
        #expect(
            url.faults
                == SimulatedField.Faults(
                    removeAfterCommands: 12, inFlight: .completes, secondTag: true, latencyMilliseconds: 5,
                    corruptEveryNthResponse: 7))
        #expect(
            url.description
                == "sim:ntag215?file=/tmp/my%20tag.nfc&uid=04A1B2C3D4E5F6&remove-after=12&in-flight=complete"
                + "&second-tag=1&latency-ms=5&corrupt-every=7")
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
    }

    @Test("tear=1 and in-flight=tear mean the same; in-flight defaults to none")
    func inFlight() throws {
        #expect(try SimulatedReaderURL(parsing: "sim:ntag213?remove-after=3&tear=1").faults.inFlight == .tearsPage)
        #expect(
            try SimulatedReaderURL(parsing: "sim:ntag213?tear=1&remove-after=3&in-flight=tear").faults.inFlight
                == .tearsPage)
        #expect(try SimulatedReaderURL(parsing: "sim:ntag213?remove-after=3").faults.inFlight == .doesNothing)
        #expect(try SimulatedReaderURL(parsing: "sim:ntag213?remove-after=3&tear=0").faults.inFlight == .doesNothing)
    }

    @Test(
        "Bad URLs are invalid-parameter errors that name the bad part",
        arguments: [
            ("nfc:ntag215", "sim:CHIP"),
            ("sim:", "names no chip"),
            ("sim:ntag214", "\"ntag214\""),
            ("sim:ntag215?colour=red", "\"colour\""),
            ("sim:ntag215?remove-after", "\"remove-after\" is not KEY=VALUE"),
            ("sim:ntag215?remove-after=x", "remove-after=x"),
            ("sim:ntag215?remove-after=-1", "remove-after=-1"),
            ("sim:ntag215?remove-after=99999999999999999999", "remove-after=99999999999999999999"),
            ("sim:ntag215?tear=1", "needs remove-after"),
            ("sim:ntag215?in-flight=none", "needs remove-after"),
            ("sim:ntag215?remove-after=2&in-flight=sometimes", "in-flight=sometimes"),
            ("sim:ntag215?remove-after=2&in-flight=complete&tear=1", "contradicts in-flight=complete"),
            ("sim:ntag215?tear=maybe&remove-after=1", "tear=maybe"),
            ("sim:ntag215?uid=0411", "uid=0411"),
            ("sim:ntag215?uid=88112233445566", "cascade tag"),
            ("sim:ntag215?latency-ms=60001", "latency-ms=60001"),
            ("sim:ntag215?corrupt-every=0", "corrupt-every=0"),
            ("sim:ntag215?file=", "\"file\" has no value"),
            ("sim:ntag215?file=a&file=b", "\"file\" is given twice"),
            ("sim:ntag215?file=a&", "empty option"),
            ("sim:ntag215?", "empty option"),
            ("sim:ntag215?file=%zz", "two hex digits"),
            ("sim:ntag215?file=%FF", "not UTF-8"),
        ])
    func badURL(text: String, named: String) {
        expectRefused(text, naming: named)
    }

    @Test("SimulatedReader(url:) reports a bad URL the same way")
    func readerFromBadURL() async {
        await #expect(throws: NFCReaderError(.invalidParameter, "")) { try await SimulatedReader(url: "sim:ntag999") }
    }

    @Test("A URL without a file gives a reader over a factory tag with the URL's UID")
    func factoryTag() async throws {
        let reader = try await SimulatedReader(url: "sim:ultralight-ev1-128?uid=04:01:02:03:04:05:06")
        let tag = reader.withField { $0.tags.first?.type2Tag }
        #expect(tag?.chip == .mifareUltralightEV1MF0UL21)
        #expect(reader.withField { $0.tags.first?.uid } == hex("04 01 02 03 04 05 06"))
        #expect(reader.filePath == nil)
    }
}
