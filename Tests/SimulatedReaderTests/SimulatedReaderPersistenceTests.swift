import Foundation
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A simulated reader keeping its tag in a dump file.
@Suite("Simulated reader: tag files")
struct SimulatedReaderPersistenceTests {
    @Test("A WRITE is saved at once to a Flipper file (crash-safe: no temporary file is left); a new reader sees it")
    func writeRoundTrip() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:ntag215?file=" + directory.path("tag.nfc")
        // The first reader is dropped without close: the file is already up to date, as after a
        // crash (which lets the tag file's lock go, as dropping the reader does).
        try await { () async throws in
            let first = try await SimulatedReader(url: url)
            #expect(first.filePath == directory.path("tag.nfc"))
            try await first.selectFirst()
            #expect(try directory.contents() == [".tag.nfc.lock"])
            #expect(try await first.write(4, "03 0B D1 01") == .ack)
            #expect(try directory.contents().sorted() == [".tag.nfc.lock", "tag.nfc"])
        }()
        #expect(try directory.contents() == ["tag.nfc"])
        let text = String(decoding: try directory.read("tag.nfc"), as: UTF8.self)
        #expect(text.hasPrefix("Filetype: Flipper NFC device\nVersion: 4\n"))
        #expect(text.contains("Page 4: 03 0B D1 01\n"))
        let second = try await SimulatedReader(url: url)
        try await second.selectFirst()
        #expect(try await second.read(4).prefix(4) == hex("03 0B D1 01")[...])
    }

    @Test("NTAG213/215/216 8.7 and 8.8.2: the NFC counter and the failed PWD_AUTH count persist")
    func countersPersist() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:ntag215?file=" + directory.path("tag.nfc")
        let reader = try await SimulatedReader(url: url)
        try await reader.selectFirst()
        #expect(try await reader.write(0x85, "11 22 33 44") == .ack)  // PWD
        #expect(try await reader.write(0x84, "13 00 00 00") == .ack)  // ACCESS: NFC_CNT_EN, AUTHLIM 3
        for _ in 0..<2 {
            await reader.releaseTargets()
            try await reader.selectFirst()
            _ = try await reader.read(4)  // counts once per field
        }
        #expect(try await reader.transceive(hex("1B 00 00 00 00")) == .nak(0))
        await reader.close()
        let reopened = try await SimulatedReader(url: url)
        let tag = reopened.withField { $0.tags.first?.type2Tag }
        #expect(tag?.nfcCounter == 2)
        #expect(tag?.failedAuthenticationCount == 1)
        #expect(tag?.isPasswordDisabled == false)
        // PWD is kept although READ returns zeros for it (NTAG213/215/216 8.5.7).
        #expect(tag?.memory.page(0x85) == hex("11 22 33 44"))
        try await reopened.selectFirst()
        #expect(try await reopened.transceive(hex("39 02")) == .data(hex("02 00 00")))
        #expect(try await reopened.read(0x85).prefix(4) == hex("00 00 00 00")[...])
    }

    @Test("NTAG213/215/216 8.8.2: a password disabled by AUTHLIM is still disabled after reopening")
    func disabledPasswordPersists() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:ntag213?file=" + directory.path("tag.nfc")
        let reader = try await SimulatedReader(url: url)
        try await reader.selectFirst()
        #expect(try await reader.write(0x2B, "11 22 33 44") == .ack)
        #expect(try await reader.write(0x2A, "01 00 00 00") == .ack)  // AUTHLIM 1
        #expect(try await reader.transceive(hex("1B 00 00 00 00")) == .nak(0))
        await reader.close()
        let reopened = try await SimulatedReader(url: url)
        try await reopened.selectFirst()
        #expect(try await reopened.transceive(hex("1B 11 22 33 44")) == .nak(4))
    }

    @Test("A Flipper file from a real NTAG213 is loaded with its counter and saved back in the same format")
    func realFlipperFile() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let fixture = try ReaderFixtures.bytes("ntag213-uri-flipper-v4.nfc")
        try directory.file("real.nfc", fixture)
        let reader = try await SimulatedReader(url: "sim:ntag213?file=" + directory.path("real.nfc"))
        let tag = reader.withField { $0.tags.first?.type2Tag }
        #expect(tag?.nfcCounter == 7)
        #expect(tag?.signature == (0x10...0x2F).map { UInt8($0) })
        try await reader.selectFirst()
        // Page 5 of the fixture: 34 03 11 D1 (after the Lock Control TLV).
        #expect(try await reader.read(5).prefix(4) == hex("34 03 11 D1")[...])
        #expect(try await reader.write(0x27, "01 02 03 04") == .ack)
        let text = String(decoding: try directory.read("real.nfc"), as: UTF8.self)
        #expect(text.contains("Counter 2: 7\n"))
        #expect(text.contains("Page 39: 01 02 03 04\n"))
        #expect(text.contains("UID: 04 A1 B2 C3 D4 E5 F6\n"))
    }

    @Test("A new file is written in the format its extension names; nothing is written before a change")
    func formatByExtension() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let reader = try await SimulatedReader(
            url: "sim:ntag213?uid=04:11:22:33:44:55:66&file=" + directory.path("t.json"))
        try await reader.selectFirst()
        _ = try await reader.read(0)
        await reader.close()
        #expect(try directory.contents().isEmpty)
        let writer = try await SimulatedReader(
            url: "sim:ntag213?uid=04:11:22:33:44:55:66&file=" + directory.path("t.json"))
        try await writer.selectFirst()
        #expect(try await writer.write(10, "0A 0B 0C 0D") == .ack)
        let bytes = try directory.read("t.json")
        #expect(try TagDump.detect(bytes) == .proxmarkJSON)
        #expect(try TagDump(decoding: bytes).page(10).map(Array.init) == hex("0A 0B 0C 0D"))
        #expect(try TagDump(decoding: bytes).effectiveUID == hex("04 11 22 33 44 55 66"))
    }

    @Test("Changes made through withField are saved by flush()")
    func flushSavesFieldChanges() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let reader = try await SimulatedReader(url: "sim:ultralight?file=" + directory.path("u.nfc"))
        reader.withField { field in
            field.select(uid: SimulatedType2Tag.defaultUID)
            _ = field.transceive([0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF])
        }
        try await reader.flush()
        let dump = try TagDump(decoding: try directory.read("u.nfc"))
        #expect(dump.page(5).map(Array.init) == hex("DE AD BE EF"))
        #expect(dump.chipIdentification?.chip == .mifareUltralight)
    }

    /// Files that are not the tag the URL names.
    static let hostileFiles: [(name: String, content: [UInt8])] = [
        ("empty", []),
        ("binary noise", (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
        ("JSON cut short", Array("{\"FileType\": \"mfu\", ".utf8)),
        ("Flipper RFID file", Array("Filetype: Flipper RFID key\nVersion: 1\n".utf8)),
        (
            "Flipper file with fewer pages than it says",
            Array("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\n".utf8)
                + Array("UID: 04 51 7C A2 4B 35 80\nATQA: 00 44\nSAK: 00\nPages total: 135\nPage 0: 04 51 7C 57\n".utf8)
        ),
        ("hex text of 3 pages", Array("04 51 7C 57\nA2 4B 35 80\n5C 48 00 00\n".utf8)),
        ("over 1 MiB", [UInt8](repeating: 0x30, count: (1 << 20) + 1)),
    ]

    @Test("Hostile tag files are refused with invalid-tag-file naming the file, without trapping", arguments: 0..<7)
    func hostileFile(index: Int) async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let (name, content) = Self.hostileFiles[index]
        try directory.file("bad.nfc", content)
        do {
            _ = try await SimulatedReader(url: "sim:ntag215?file=" + directory.path("bad.nfc"))
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.code == .invalidTagFile, "\(name)")
            #expect(error.reason.contains(directory.path("bad.nfc")), "\(name): \(error.reason)")
        }
    }

    @Test("A file of another chip, or a uid= other than the file's, is refused")
    func mismatchedFile() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        try directory.file("real.nfc", try ReaderFixtures.bytes("ntag213-uri-flipper-v4.nfc"))
        let path = directory.path("real.nfc")
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            try await SimulatedReader(url: "sim:ntag215?file=" + path)
        }
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            try await SimulatedReader(url: "sim:ntag213?uid=04112233445566&file=" + path)
        }
        _ = try await SimulatedReader(url: "sim:ntag213?uid=04A1B2C3D4E5F6&file=" + path)
    }

    @Test("A torn WRITE is in the file as the tag holds it: bytes 0-1 new, 2-3 old")
    func tornWriteIsSaved() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:ntag215?remove-after=2&tear=1&file=" + directory.path("tag.nfc")
        let reader = try await SimulatedReader(url: url)
        try await reader.selectFirst()
        #expect(try await reader.write(8, "11 22 33 44") == .ack)
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await reader.write(8, "AA BB CC DD") }
        let dump = try TagDump(decoding: try directory.read("tag.nfc"))
        #expect(dump.page(8).map(Array.init) == hex("AA BB 33 44"))
    }

    @Test("A file that cannot be written makes the command fail with reader-unavailable")
    func unwritableFile() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        // The folder is there when the reader opens, and gone before the first write.
        let folder = try directory.directory("gone")
        let reader = try await SimulatedReader(url: "sim:ntag213?file=" + folder + "/tag.nfc")
        try FileManager.default.removeItem(atPath: folder)
        try await reader.selectFirst()
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { try await reader.write(4, "01 02 03 04") }
        #expect(reader.storedPage(4) == hex("01 02 03 04"))
        #expect(try directory.contents().isEmpty)
    }

    @Test("A tag file in a folder that does not exist is refused when the reader opens, naming the folder")
    func missingFolder() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let error = await #expect(throws: NFCReaderError(.tagFolderMissing, "")) {
            try await SimulatedReader(url: "sim:ntag213?file=" + directory.path("missing/tag.nfc"))
        }
        #expect(error?.reason.contains("the folder of the tag file") == true)
        #expect(try directory.contents().isEmpty)
    }

    @Test("A path that cannot be read is reader-unavailable")
    func unreadablePath() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) {
            try await SimulatedReader(url: "sim:ntag215?file=" + directory.path)
        }
    }

    @Test("Flipper files with bytes changed at random load or are refused, never trap")
    func mutatedFiles() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let original = try SimulatedType2Tag(chip: .ntag213).dump.encoded(as: .flipper)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let alphabet = Array("0123456789ABCDEF :\n#-xZ".utf8)
        for round in 0..<60 {
            var bytes = original
            for _ in 0..<(1 + round % 4) {
                bytes[next() % bytes.count] = alphabet[next() % alphabet.count]
            }
            try directory.file("m.nfc", bytes)
            do {
                _ = try await SimulatedReader(url: "sim:ntag213?file=" + directory.path("m.nfc"))
            } catch {
                #expect(error.code == .invalidTagFile, "round \(round): \(error)")
            }
        }
    }
}
