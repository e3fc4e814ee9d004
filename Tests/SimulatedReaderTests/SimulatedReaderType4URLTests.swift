import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Parsing `sim:type4` URLs.
@Suite("Simulated reader URLs: Type 4")
struct SimulatedReaderType4URLTests {
    @Test("sim:type4 is an NTAG 424 DNA-like tag: the default configuration, no Type 2 chip")
    func defaults() throws {
        let url = try SimulatedReaderURL(parsing: "sim:TYPE4")
        #expect(url.tagKind == .type4(SimulatedReaderURL.Type4Settings()))
        #expect(url.chip == nil)
        #expect(url.type4Configuration == SimulatedType4Tag.Configuration())
        #expect(url.description == "sim:type4")
        #expect(
            SimulatedReaderURL.allChipNames.contains("type4") && SimulatedReaderURL.allChipNames.contains("ntag424"))
        #expect(try SimulatedReaderURL(parsing: "sim:ntag215").type4Configuration == nil)
    }

    @Test("Every Type 4 option is read, and the canonical form parses back to the same URL")
    func allOptions() throws {
        let url = try SimulatedReaderURL(
            parsing: "sim:type4?version=3.0&mle=1024&mlc=512&ndef-size=65536&read-access=00&write-access=80"
                + "&cc-writable=yes&uid=08:A1:B2:C3&file=/tmp/t.t4t&remove-after=5&tear=1")
        let settings = SimulatedReaderURL.Type4Settings(
            majorVersion: 3, maximumResponseDataSize: 1024, maximumCommandDataSize: 512, maximumNDEFFileSize: 65536,
            readAccess: .granted, writeAccess: Type4AccessCondition(rawValue: 0x80), isCapabilityContainerWritable: true
        )
        #expect(url.tagKind == .type4(settings))
        #expect(url.uid == hex("08 A1 B2 C3"))
        #expect(url.filePath == "/tmp/t.t4t")
        #expect(url.faults == SimulatedField.Faults(removeAfterCommands: 5, inFlight: .tearsPage))
        let configuration = try #require(url.type4Configuration)
        #expect(configuration.mappingVersion == 0x30)
        #expect(configuration.maximumResponseDataSize == 1024 && configuration.maximumCommandDataSize == 512)
        #expect(configuration.maximumNDEFFileSize == 65536 && configuration.writeAccess.rawValue == 0x80)
        #expect(configuration.isCapabilityContainerWritable && configuration.uid == hex("08 A1 B2 C3"))
        #expect(
            url.description
                == "sim:type4?file=/tmp/t.t4t&uid=08A1B2C3&version=3&mle=1024&mlc=512&ndef-size=65536"
                + "&read-access=00&write-access=80&cc-writable=1&remove-after=5&in-flight=tear")
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
    }

    @Test(
        "version=1|2|3 and v1=1 set the mapping version byte (T4T 3.0 5.1)",
        arguments: [
            ("version=1", UInt8(0x10)), ("v1=1", 0x10), ("v1=true&version=1", 0x10), ("version=2", 0x20),
            ("v1=0", 0x20), ("version=3", 0x30), ("v1=0&version=3", 0x30), ("version=2.0", 0x20),
        ])
    func versions(query: String, mappingVersion: UInt8) throws {
        let url = try SimulatedReaderURL(parsing: "sim:type4?" + query)
        #expect(url.type4Configuration?.mappingVersion == mappingVersion)
    }

    @Test("UIDs of 4, 7 and 10 bytes make Type 4 tags (ISO/IEC 14443-3 6.5.4)", arguments: [4, 7, 10])
    func uidSizes(count: Int) async throws {
        let uid = [UInt8(0x08)] + (1..<count).map { UInt8($0) }
        let text = uid.map { byte in
            String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        let reader = try await SimulatedReader(url: "sim:type4?uid=" + text.joined())
        let target = try #require(try await reader.pollTargets().first)
        #expect(target.uid == uid)
        // ATQA bits 8-7: UID size single, double, triple (ISO/IEC 14443-3 6.4.2).
        #expect(target.atqa.first == [4: 0x04, 7: 0x44, 10: 0x84][count])
    }

    @Test(
        "Bad Type 4 URLs are invalid-parameter errors that name the option",
        arguments: [
            ("sim:type4?version=4", "version=4"),
            ("sim:type4?version=", "\"version\" has no value"),
            ("sim:type4?v1=maybe", "v1=maybe"),
            ("sim:type4?v1=1&version=3", "v1=1 contradicts version=3"),
            ("sim:type4?version=1&v1=0", "v1=0 contradicts version=1"),
            ("sim:type4?mle=14", "mle=14"),
            ("sim:type4?mle=65536", "mle=65536"),
            ("sim:type4?mle=0x100", "mle=0x100"),
            ("sim:type4?mlc=0", "mlc=0"),
            ("sim:type4?ndef-size=4", "ndef-size=4"),
            ("sim:type4?ndef-size=32768", "ndef-size=32768"),
            ("sim:type4?version=1&ndef-size=40000", "ndef-size=40000"),
            ("sim:type4?version=3&ndef-size=1048577", "ndef-size=1048577"),
            ("sim:type4?write-access=01", "write-access=01"),
            ("sim:type4?write-access=7F", "reserved"),
            ("sim:type4?read-access=zz", "read-access=zz"),
            ("sim:type4?read-access=000", "read-access=000"),
            ("sim:type4?cc-writable=2", "cc-writable=2"),
            ("sim:type4?mle=256&mle=256", "\"mle\" is given twice"),
            ("sim:type4?uid=0411223344", "uid=0411223344"),
            ("sim:type4?uid=88112233", "cascade tag"),
            ("sim:type4?frame-size=64", "unknown option \"frame-size\""),
            ("sim:ntag215?mle=256", "\"mle\" is for Type 4 tags only"),
            ("sim:ntag215?version=3", "\"version\" is for Type 4 tags only"),
            ("sim:ntag215?uid=08A1B2C3", "uid=08A1B2C3"),
            ("sim:type5", "type4"),
        ])
    func badURL(text: String, named: String) {
        expectRefused(text, naming: named)
    }

    @Test(
        "The README's examples parse and open",
        arguments: [
            "sim:type4", "sim:type4?version=3&ndef-size=4096", "sim:type4?v1=1&mle=59&mlc=52&write-access=FF",
        ])
    func readmeExamples(text: String) async throws {
        let reader = try await SimulatedReader(url: text)
        #expect(try await reader.pollTargets().map(\.kind) == [.type4])
    }

    @Test("A URL value built in code whose options make no tag fails to open with invalid-parameter")
    func invalidSettingsInCode() async {
        let url = SimulatedReaderURL(type4: SimulatedReaderURL.Type4Settings(majorVersion: 4))
        await #expect(throws: NFCReaderError(.invalidParameter, "")) { try await SimulatedReader(url: url) }
    }

    @Test("sim:ntag424 is an NTAG 424 DNA: no Type 4 option applies, a 7-byte UID; the name round-trips")
    func ntag424() throws {
        let url = try SimulatedReaderURL(parsing: "sim:NTAG424?uid=04518DFAA96180")
        guard case .type4(let settings) = url.tagKind else {
            Issue.record("not a Type 4 tag")
            return
        }
        #expect(settings.isNTAG424)
        #expect(url.description == "sim:ntag424?uid=04518DFAA96180")
        for bad in ["sim:ntag424?mlc=59", "sim:ntag424?version=3", "sim:ntag424?uid=04AABBCC"] {
            #expect(throws: NFCReaderError.self, "\(bad)") { try SimulatedReaderURL(parsing: bad) }
        }
    }
}
