import Foundation
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// `sim:type4` readers keeping their tag in a state-text file.
@Suite("Simulated reader: Type 4 tag files")
struct SimulatedReaderType4PersistenceTests {
    static let ok = hex("90 00")
    /// NLEN 0011 and the URI record https://www.proxmark.com (T4T 3.0 5.2).
    static let proxmarkFile = hex("00 11 D1 01 0D 55 02 70 72 6F 78 6D 61 72 6B 2E 63 6F 6D")

    @Test("An UPDATE BINARY is saved at once as state text; a new reader reads it back")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:type4?version=3&ndef-size=1024&file=" + directory.path("tag.t4t")
        // Version 3.0: ENLEN (4 bytes) first, T4T 3.0 5.2.
        let file = hex("00 00 00 11") + Self.proxmarkFile.dropFirst(2)
        // Dropped without close, as after a crash (the tag file's lock goes with it).
        try await { () async throws in
            let first = try await SimulatedReader(url: url)
            try await first.selectFirst()
            #expect(try await first.openType4File() == [Self.ok, Self.ok])
            #expect(try directory.contents() == [".tag.t4t.lock"])
            #expect(try await first.sendAPDU(hex("00 D6 00 00 15") + file) == Self.ok)
        }()
        #expect(try directory.contents() == ["tag.t4t"])
        let text = String(decoding: try directory.read("tag.t4t"), as: UTF8.self)
        #expect(text.contains("\nndeftool-type4-tag 1\n"))
        #expect(text.contains("\nmapping-version 30\n"))
        #expect(text.contains("\nndef 00 00 00 11 D1 01 0D 55 02 70 72 6F 78 6D 61 72  # 0000\n"))
        #expect(text.hasSuffix("\nend\n"))
        // The URL's options match the file's tag.
        let second = try await SimulatedReader(url: url)
        try await second.selectFirst()
        #expect(try await second.openType4File() == [Self.ok, Self.ok])
        #expect(try await second.sendAPDU(hex("00 B0 00 00 15")) == file + Self.ok)
        await second.close()
        // Options left out take the file's values.
        let third = try await SimulatedReader(url: "sim:type4?file=" + directory.path("tag.t4t"))
        #expect(third.withField { $0.tags.first?.type4Tag?.configuration.maximumNDEFFileSize } == 1024)
    }

    @Test("A READ changes nothing, so nothing is written; a CC made read-only (T4T 3.0 5.5.8) persists")
    func readOnlyPersists() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:type4?cc-writable=1&file=" + directory.path("tag.txt")
        try await { () async throws in
            let reader = try await SimulatedReader(url: url)
            try await reader.selectFirst()
            #expect(try await reader.openType4File("E1 03") == [Self.ok, Self.ok])
            #expect(try await reader.sendAPDU(hex("00 B0 00 00 0F")).count == 17)
            #expect(try directory.contents() == [".tag.txt.lock"])
            // Write access byte at CC offset 0E.
            #expect(try await reader.sendAPDU(hex("00 D6 00 0E 01 FF")) == Self.ok)
        }()
        let reopened = try await SimulatedReader(url: url)
        try await reopened.selectFirst()
        #expect(try await reopened.openType4File() == [Self.ok, Self.ok])
        #expect(try await reopened.sendAPDU(hex("00 D6 00 00 02 00 00")) == hex("69 82"))
    }

    @Test("A torn UPDATE BINARY is in the file as the tag holds it: the first half of the data new, the rest old")
    func tornUpdateIsSaved() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:type4?remove-after=4&tear=1&file=" + directory.path("tag.t4t")
        let reader = try await SimulatedReader(url: url)
        try await reader.selectFirst()
        #expect(try await reader.openType4File() == [Self.ok, Self.ok])
        #expect(try await reader.sendAPDU(Self.updateCommand(Self.proxmarkFile)) == Self.ok)
        // NLEN 0 (T4T 3.0 5.5.7, first step of an update), torn: 1 of its 2 bytes is written.
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) {
            try await reader.sendAPDU(hex("00 D6 00 00 02 00 00"))
        }
        let tag = try SimulatedType4Tag(stateText: String(decoding: try directory.read("tag.t4t"), as: UTF8.self))
        #expect(Array(tag.ndefFile.prefix(19)) == [0x00, 0x11] + Self.proxmarkFile.dropFirst(2))
        var other = try await SimulatedReader(url: "sim:type4?remove-after=4&tear=1&file=" + directory.path("b.t4t"))
        try await other.selectFirst()
        #expect(try await other.openType4File() == [Self.ok, Self.ok])
        #expect(try await other.sendAPDU(Self.updateCommand(Self.proxmarkFile)) == Self.ok)
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) {
            try await other.sendAPDU(hex("00 D6 00 02 04 AA BB CC DD"))
        }
        let torn = try SimulatedType4Tag(stateText: String(decoding: try directory.read("b.t4t"), as: UTF8.self))
        #expect(Array(torn.ndefFile.prefix(8)) == hex("00 11 AA BB 0D 55 02 70"))
        other = try await SimulatedReader(url: "sim:type4?file=" + directory.path("b.t4t"))
        try await other.selectFirst()
        #expect(try await other.openType4File() == [Self.ok, Self.ok])
        #expect(try await other.sendAPDU(hex("00 B0 00 00 04")) == hex("00 11 AA BB 90 00"))
    }

    @Test("The state-text fixture loads by content whatever its extension and is written back as state text")
    func fixtureLoads() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let fixture = try Type4ReaderFixtures.bytes("simulated-ntag424-uri-state.txt")
        try directory.file("tag.nfc", fixture)
        let reader = try await SimulatedReader(url: "sim:type4?file=" + directory.path("tag.nfc"))
        try await reader.selectFirst()
        #expect(try await reader.openType4File() == [Self.ok, Self.ok])
        #expect(try await reader.sendAPDU(hex("00 B0 00 00 13")) == Self.proxmarkFile + Self.ok)
        #expect(try await reader.sendAPDU(hex("00 D6 00 13 02 AB CD")) == Self.ok)
        let text = String(decoding: try directory.read("tag.nfc"), as: UTF8.self)
        #expect(text.hasPrefix("# Simulated NFC Forum Type 4 tag"))
        #expect(text.contains("\nndef 63 6F 6D AB CD  # 0010\n"))
    }

    @Test("A file of the other kind of tag, a .t4t file for a Type 2 chip, options or a UID unlike the file's: refused")
    func wrongKindOfFile() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        try directory.file("type4.txt", try Type4ReaderFixtures.bytes("simulated-ntag424-uri-state.txt"))
        try directory.file("type2.nfc", try ReaderFixtures.bytes("ntag213-uri-flipper-v4.nfc"))
        let cases: [(url: String, named: String)] = [
            ("sim:ntag215?file=" + directory.path("type4.txt"), "holds a simulated Type 4 tag, not NTAG215"),
            (
                "sim:type4?file=" + directory.path("type2.nfc"),
                "a Type 2 tag, not a Type 4 tag: open it with sim:ntag213"
            ),
            ("sim:ntag213?file=" + directory.path("new.t4t"), ".t4t file keeps a Type 4 tag"),
            ("sim:type4?version=3&file=" + directory.path("type4.txt"), "version=3 (the file's tag has 2)"),
            ("sim:type4?mle=255&mlc=255&file=" + directory.path("type4.txt"), "mle=255 (the file's tag has 256)"),
            ("sim:type4?uid=04112233445566&file=" + directory.path("type4.txt"), "uid= differs"),
        ]
        for (url, named) in cases {
            do {
                _ = try await SimulatedReader(url: url)
                Issue.record("\(url) opened")
            } catch {
                #expect(error.code == .invalidParameter, "\(url)")
                #expect(error.reason.contains(named), "\(url): \(error.reason)")
            }
        }
        #expect(try directory.contents() == ["type2.nfc", "type4.txt"])
        // The options the file's tag has are accepted.
        _ = try await SimulatedReader(
            url: "sim:type4?version=2&mle=256&uid=043C6A922F6180&file=" + directory.path("type4.txt"))
    }

    @Test("Broken state-text files are refused with invalid-tag-file naming the file, never trap", arguments: 0..<5)
    func brokenStateText(index: Int) async throws {
        let fixture = String(decoding: try Type4ReaderFixtures.bytes("simulated-ntag424-uri-state.txt"), as: UTF8.self)
        let broken = [
            fixture.replacingOccurrences(of: "\nend\n", with: "\n"),
            fixture.replacingOccurrences(of: "mle 0100", with: "mle 0001"),
            fixture.replacingOccurrences(of: "cc 00 0F", with: "cc 00"),
            fixture + "ndef 00\n",
            "ndeftool-type4-tag 1\n\u{FF}",
        ][index]
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        try directory.file("bad.t4t", Array(broken.utf8))
        do {
            _ = try await SimulatedReader(url: "sim:type4?file=" + directory.path("bad.t4t"))
            Issue.record("case \(index) was accepted")
        } catch {
            #expect(error.code == .invalidTagFile)
            #expect(error.reason.contains(directory.path("bad.t4t")), "\(error.reason)")
        }
    }

    /// UPDATE BINARY of `data` at offset 0.
    static func updateCommand(_ data: [UInt8]) -> [UInt8] {
        [0x00, 0xD6, 0x00, 0x00, UInt8(truncatingIfNeeded: data.count)] + data
    }
}
