import TagMemory
import TestSupport
import Testing

/// Format detection, conversions between formats, and hostile input.
@Suite("Dump detection and conversion")
struct DumpDetectionTests {
    static let fixtures: [(String, TagDumpFormat)] = [
        ("ntag213-uri-flipper-v4.nfc", .flipper),
        ("ntag213-uri-flipper-v3.nfc", .flipper),
        ("ultralight-flipper-v2.nfc", .flipper),
        ("ntag213-uri-libnfc-pw.mfd", .raw),
        ("mifare-classic-1k-ndef-libnfc.mfd", .raw),
        ("ntag213-uri-proxmark.bin", .proxmarkBinary),
        ("ntag213-uri-proxmark.json", .proxmarkJSON),
        ("ntag213-uri.txt", .hexText),
    ]

    @Test("Every fixture is recognised by content, whatever its name", arguments: fixtures)
    func detectsFixtures(_ name: String, _ format: TagDumpFormat) throws {
        let bytes = try DumpFixtures.bytes(name)
        #expect(try TagDump.detect(bytes, fileName: name) == format)
        #expect(try TagDump.detect(bytes) == format)
        #expect(try TagDump.detect(bytes, fileName: "dump.json") == format)
        #expect(try TagDump(decoding: bytes, fileName: name) == TagDump(decoding: bytes, format: format))
    }

    @Test("A binary extension makes text-looking bytes an image")
    func extensionHint() throws {
        let printable = utf8(String(repeating: "ABCD", count: 45))
        #expect(try TagDump.detect(printable, fileName: "card.mfd") == .raw)
        #expect(try TagDump.detect(printable, fileName: "CARD.BIN") == .raw)
        #expect(try TagDump.detect(utf8("04A1B29F\n"), fileName: "card.txt") == .hexText)
        #expect(try TagDump.detect(utf8("04A1B29F\n")) == .hexText)
    }

    @Test(
        "Unknown content gets a clear error",
        arguments: [
            ("", nil), ("Hello, tag!\n", 1), ("# just a note\n\nhello\n", 3), ("Filetype: Flipper RFID key\n", 1),
            ("Filetype: Flipper NFC devices\n", 1),
        ] as [(String, Int?)])
    func unknownContent(_ text: String, _ line: Int?) {
        let error = dumpError { _ = try TagDump.detect(utf8(text)) }
        #expect(error?.code == .malformedDump)
        #expect(errorLine(error) == line, "\(error?.reason ?? "no error")")
    }

    @Test("Flipper → proxmark3 JSON and .bin gives the proxmark3 fixtures byte for byte")
    func flipperToProxmark() throws {
        let flipper = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri-flipper-v4.nfc"), format: .flipper)
        #expect(try flipper.encoded(as: .proxmarkJSON) == DumpFixtures.bytes("ntag213-uri-proxmark.json"))
        #expect(try flipper.encoded(as: .proxmarkBinary) == DumpFixtures.bytes("ntag213-uri-proxmark.bin"))
    }

    @Test("proxmark3 → Flipper gives the Flipper fixture: chip by GET_VERSION, ATQA 00 44, SAK 00")
    func proxmarkToFlipper() throws {
        let expected = try DumpFixtures.bytes("ntag213-uri-flipper-v4.nfc")
        for name in ["ntag213-uri-proxmark.json", "ntag213-uri-proxmark.bin"] {
            let dump = try TagDump(decoding: try DumpFixtures.bytes(name), fileName: name)
            #expect(try dump.encoded(as: .flipper) == expected, "\(name)")
        }
    }

    @Test("Every format carries the memory image through every other")
    func memoryThroughAllFormats() throws {
        let source = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri-flipper-v4.nfc"), format: .flipper)
        for first in TagDumpFormat.allCases {
            for second in TagDumpFormat.allCases {
                let once = try TagDump(decoding: try source.encoded(as: first), format: first)
                let twice = try TagDump(decoding: try once.encoded(as: second), format: second)
                #expect(twice.memory == source.memory, "\(first) then \(second)")
                #expect(try twice.encoded(as: second) == once.encoded(as: second), "\(second) is canonical")
            }
        }
    }

    @Test("Hex text and raw images convert both ways unchanged")
    func hexAndRaw() throws {
        let raw = try DumpFixtures.bytes("ntag213-uri-libnfc-pw.mfd")
        let dump = try TagDump(decoding: raw, fileName: "x.mfd")
        let text = try dump.encoded(as: .hexText)
        #expect(try TagDump(decoding: text, fileName: "x.txt").encoded(as: .raw) == raw)
        #expect(try TagDump(decoding: text, fileName: "x.txt").password == hex("12 34 56 78"))
    }

    @Test("Files past the size limit are refused before any parsing; big files of noise stay cheap")
    func sizeLimit() throws {
        let huge = Array(repeating: UInt8(ascii: "\n"), count: TagDump.maximumFileSize + 1)
        #expect(dumpError { _ = try TagDump.detect(huge) }?.offset == TagDump.maximumFileSize)
        for format in TagDumpFormat.allCases {
            #expect(dumpError { _ = try TagDump(decoding: huge, format: format) }?.code == .malformedDump)
        }
        var flipper = try DumpFixtures.lines("ntag213-uri-flipper-v4.nfc")
        flipper.insert(contentsOf: Array(repeating: "x: y", count: 50_000), at: 3)
        let dump = try TagDump(decoding: utf8(flipper.joined(separator: "\n")), format: .flipper)
        #expect(dump.pageCount == 45)
        let blank = Array(repeating: UInt8(ascii: "\n"), count: 300_000) + utf8("00000000")
        #expect(try TagDump(decoding: blank, format: .hexText).pageCount == 1)
    }

    @Test("Random bytes and mutated fixtures never trap")
    func hostileBytes() throws {
        var random = SeededRandom(seed: 0x5EED)
        var inputs: [[UInt8]] = []
        for _ in 0..<300 {
            let count = Int.random(in: 0..<700, using: &random)
            inputs.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        let sizes = [1, 3, 4, 8, 9, 55, 56, 57, 60, 64, 180, 236, 320, 1024, 1080, 2048, 4096, 16_384, 16_388]
        for size in sizes {
            inputs.append(Array(repeating: 0, count: size))
            inputs.append(Array(repeating: 0xFF, count: size))
            for _ in 0..<5 { inputs.append((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }) }
            var header = Array(repeating: UInt8(0), count: size)
            if size > 56, (size - 56) % 4 == 0 { header[11] = UInt8(truncatingIfNeeded: (size - 56) / 4 - 1) }
            inputs.append(header)
        }
        for (name, _) in Self.fixtures {
            let bytes = try DumpFixtures.bytes(name)
            for _ in 0..<60 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<mutated.count, using: &random)
                    let pick = ["0", "9", ":", " ", "\n", "#", "[", "\"", "{", "-", "\u{0}", "F"]
                    mutated[at] = pick.randomElement(using: &random)?.utf8.first ?? 0
                }
                inputs.append(mutated)
            }
        }
        for input in inputs {
            for format in TagDumpFormat.allCases {
                _ = dumpError { _ = try TagDump(decoding: input, format: format) }
            }
            _ = dumpError { _ = try TagDump(decoding: input, fileName: "x.mfd") }
            for layout in TagDump.Layout.allCases {
                _ = TagDump.Layout.guess(for: input)
                _ = dumpError { _ = try TagDump(decoding: input, format: .raw, layout: layout) }
                let dump = TagDump(layout: layout, memory: input)
                _ = (dump.description, dump.password, dump.passwordAcknowledge, dump.effectiveUID, dump.page(3))
                for format in TagDumpFormat.allCases { _ = dumpError { _ = try dump.encoded(as: format) } }
            }
        }
    }
}
