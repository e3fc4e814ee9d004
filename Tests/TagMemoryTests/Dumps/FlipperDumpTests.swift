import Foundation
import TagMemory
import TestSupport
import Testing

/// Flipper Zero `.nfc` files. Layout: flipperzero-firmware `lib/nfc/nfc_device.c`
/// (`nfc_device_save`: header, device-type comment, `Device type`, UID comment, `UID`),
/// `lib/nfc/protocols/iso14443_3a/iso14443_3a.c` (`ATQA` most significant byte first from file
/// version 3, `SAK`), `lib/nfc/protocols/mf_ultralight/mf_ultralight.c` (`mf_ultralight_save`),
/// `lib/flipper_format/flipper_format_stream.c` (`Key: value`, `%02X` hex joined by spaces, `# `
/// comments, `\n`); documented in `documentation/file_formats/NfcFileFormats.md`.
@Suite("Flipper NFC files")
struct FlipperDumpTests {
    static let v4 = "ntag213-uri-flipper-v4.nfc"

    @Test("Version 4 file: every field read (mf_ultralight_load)")
    func readsVersion4() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes(Self.v4), format: .flipper)
        #expect(dump.layout == .type2)
        #expect(dump.pageCount == 45)
        #expect(dump.memory == (try DumpFixtures.ntag213Memory()))
        #expect(dump.page(4) == hex("01 03 A0 0C")[...])
        #expect(dump.uid == hex("04 A1 B2 C3 D4 E5 F6"))
        #expect(dump.atqa == hex("00 44"))
        #expect(dump.sak == 0)
        #expect(dump.chipName == "NTAG213")
        #expect(dump.version == hex("00 04 04 02 01 00 0F 03"))
        #expect(dump.signature == Array(0x10...0x2F))
        #expect(dump.counters == [0, 0, 7])
        #expect(dump.tearingFlags == [0, 0, 0xBD])
        #expect(dump.readPageCount == 45)
        #expect(dump.failedAuthenticationAttempts == 0)
        #expect(dump.password == nil, "PWD page 0x2B holds zeros: not recorded")
    }

    @Test("Version 4 is written byte for byte as mf_ultralight_save writes it")
    func canonicalRoundTrip() throws {
        let bytes = try DumpFixtures.bytes(Self.v4)
        let dump = try TagDump(decoding: bytes, format: .flipper)
        #expect(try dump.encoded(as: .flipper) == bytes)
    }

    @Test("Version 3: chip named by Device type, data format 1, partial read kept")
    func readsVersion3() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri-flipper-v3.nfc"), format: .flipper)
        #expect(dump.chipName == "NTAG213")
        #expect(dump.atqa == hex("00 44"))
        #expect(dump.readPageCount == 41)
        #expect(dump.pageCount == 45)
        #expect(dump.page(41) == [0, 0, 0, 0][...])
        #expect(dump.description == "NTAG213: 45 pages (180 bytes), UID 04:A1:B2:C3:D4:E5:F6, 41 of 45 pages read")
        let rewritten = try TagDump(decoding: try dump.encoded(as: .flipper), format: .flipper)
        #expect(rewritten == dump)
    }

    @Test("Version 2: ATQA least significant byte first, no data format version, no Pages read")
    func readsVersion2() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("ultralight-flipper-v2.nfc"), format: .flipper)
        #expect(dump.atqa == hex("00 44"), "file says 44 00 (NFC_LSB_ATQA_FORMAT_VERSION 2)")
        #expect(dump.chipName == "Mifare Ultralight")
        #expect(dump.readPageCount == nil)
        #expect(dump.failedAuthenticationAttempts == nil)
        #expect(dump.pageCount == 16)
        let text = String(decoding: try dump.encoded(as: .flipper), as: UTF8.self)
        #expect(text.contains("\nATQA: 00 44\n"))
        #expect(text.contains("\nNTAG/Ultralight type: Mifare Ultralight\n"))
        #expect(text.contains("\nPages read: 16\n"))
    }

    @Test("The writer fills what the dump lacks as a Flipper would hold it")
    func writerDefaults() throws {
        let memory = try DumpFixtures.ntag213Memory()
        let text = String(decoding: try TagDump(memory: memory).encoded(as: .flipper), as: UTF8.self)
        let lines = text.components(separatedBy: "\n")
        #expect(lines[5] == "UID: 04 A1 B2 C3 D4 E5 F6", "UID from pages 0-1 (NTAG213/215/216 8.5.1)")
        #expect(lines[7] == "ATQA: 00 44")
        #expect(lines[8] == "SAK: 00")
        #expect(lines[11] == "NTAG/Ultralight type: NTAG213", "45 pages: libnfc's NTAG213 size")
        #expect(lines[13] == "Mifare version: 00 00 00 00 00 00 00 00")
        #expect(lines[19] == "Tearing 2: 00")
        #expect(lines.last == "", "the file ends with a line break")
        #expect(lines[lines.count - 2] == "Failed authentication attempts: 0")
    }

    @Test("Unknown keys are ignored, keys may come in any order, CRLF line ends work")
    func tolerance() throws {
        let expected = try TagDump(decoding: try DumpFixtures.bytes(Self.v4), format: .flipper)
        var lines = try DumpFixtures.lines(Self.v4)
        lines.insert("Shadow file: true", at: 9)
        let sak = lines.remove(at: 8)
        lines.insert(sak, at: 14)
        let text = lines.joined(separator: "\r\n") + "\r\n"
        #expect(try TagDump(decoding: utf8(text), format: .flipper) == expected)
    }

    /// A change to the version 4 fixture and the line the error must name.
    struct Malformation: Sendable, CustomStringConvertible {
        var name: String
        var line: Int
        var edit: @Sendable (inout [String]) -> Void
        var description: String { name }
    }

    static let malformations: [Malformation] = [
        Malformation(name: "short page", line: 27) { $0[26] = "Page 4: 01 03 A0" },
        Malformation(name: "non-hex page byte", line: 27) { $0[26] = "Page 4: 01 03 A0 0G" },
        Malformation(name: "three-digit group", line: 27) { $0[26] = "Page 4: 010 3A0 0C" },
        Malformation(name: "UID of 2 bytes", line: 6) { $0[5] = "UID: 04 A1" },
        Malformation(name: "ATQA of 1 byte", line: 8) { $0[7] = "ATQA: 00" },
        Malformation(name: "signature of 31 bytes", line: 13) { $0[12] = String($0[12].dropLast(3)) },
        Malformation(name: "negative counter", line: 19) { $0[18] = "Counter 2: -1" },
        Malformation(name: "counter over 32 bits", line: 19) { $0[18] = "Counter 2: 4294967296" },
        Malformation(name: "tearing of 3 digits", line: 16) { $0[15] = "Tearing 0: BDX" },
        Malformation(name: "100 million pages claimed", line: 21) { $0[20] = "Pages total: 100000000" },
        Malformation(name: "enormous page count", line: 21) { $0[20] = "Pages total: 99999999999999999999999" },
        Malformation(name: "Pages total one short", line: 67) { $0[20] = "Pages total: 44" },
        Malformation(name: "Pages total one over", line: 21) { $0[20] = "Pages total: 46" },
        Malformation(name: "Pages total one short, after the pages", line: 66) {
            $0.remove(at: 20)
            $0.append("Pages total: 44")
        },
        Malformation(name: "Pages read over total", line: 22) { $0[21] = "Pages read: 46" },
        Malformation(name: "page gap", line: 28) { $0[27] = "Page 6: 34 03 11 D1" },
        Malformation(name: "page repeated", line: 28) { $0.insert("Page 4: 01 03 A0 0C", at: 27) },
        Malformation(name: "negative page number", line: 27) { $0[26] = "Page -1: 01 03 A0 0C" },
        Malformation(name: "enormous page number", line: 27) { $0[26] = "Page 99999999999999999999999: 00 00 00 00" },
        Malformation(name: "page past the firmware limit", line: 27) { $0[26] = "Page 510: 00 00 00 00" },
        Malformation(name: "version 1", line: 2) { $0[1] = "Version: 1" },
        Malformation(name: "version 5", line: 2) { $0[1] = "Version: 5" },
        Malformation(name: "MIFARE Classic device", line: 4) { $0[3] = "Device type: Mifare Classic" },
        Malformation(name: "line without a colon", line: 10) { $0.insert("just some words", at: 9) },
        Malformation(name: "repeated UID", line: 7) { $0.insert("UID: 04 A1 B2 C3 D4 E5 F6", at: 6) },
        Malformation(name: "another Flipper file type", line: 1) { $0[0] = "Filetype: Flipper RFID key" },
        Malformation(name: "file not starting with Filetype", line: 1) { $0.insert("Version: 4", at: 0) },
    ]

    @Test("Every malformed line is reported with its line number", arguments: malformations)
    func malformedLine(_ case: Malformation) throws {
        var lines = try DumpFixtures.lines(Self.v4)
        `case`.edit(&lines)
        let error = dumpError {
            _ = try TagDump(decoding: utf8(lines.joined(separator: "\n") + "\n"), format: .flipper)
        }
        #expect(error?.code == .malformedDump)
        #expect(errorLine(error) == `case`.line, "\(error?.reason ?? "no error")")
    }

    @Test(
        "A missing key the firmware requires is named",
        arguments: [
            "Version", "Device type", "UID", "ATQA", "SAK", "NTAG/Ultralight type", "Signature", "Mifare version",
            "Counter 1", "Tearing 2", "Pages total", "Pages read",
        ])
    func missingKey(_ key: String) throws {
        let lines = try DumpFixtures.lines(Self.v4).filter { !$0.hasPrefix(key + ":") }
        let error = dumpError { _ = try TagDump(decoding: utf8(lines.joined(separator: "\n")), format: .flipper) }
        #expect(error?.code == .malformedDump)
        #expect(error?.reason.contains("\"\(key)\"") == true, "\(error?.reason ?? "no error")")
    }

    @Test("Every prefix of a file reads or fails cleanly (truncated files)")
    func truncation() throws {
        let bytes = try DumpFixtures.bytes(Self.v4)
        let lastPageEnd = try #require(String(decoding: bytes, as: UTF8.self).range(of: "Page 44: 00 00 00 00"))
            .upperBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        for length in 0..<bytes.count {
            let error = dumpError { _ = try TagDump(decoding: Array(bytes[..<length]), format: .flipper) }
            if length == lastPageEnd || length == lastPageEnd + 1 {
                #expect(error == nil, "prefix of \(length) bytes holds every page")
            } else if length < lastPageEnd {
                #expect(error?.code == .malformedDump, "prefix of \(length) bytes")
            } else {
                #expect(error == nil || error?.code == .malformedDump, "prefix of \(length) bytes")
            }
        }
    }

    @Test("The writer refuses what a Flipper cannot hold")
    func writerLimits() throws {
        let classic = TagDump(layout: .mifareClassic, memory: Array(repeating: 0, count: 1024))
        #expect(dumpError { _ = try classic.encoded(as: .flipper) }?.code == .invalidArgument)
        let huge = TagDump(memory: Array(repeating: 0, count: 511 * 4), uid: hex("04 01 02 03 04 05 06"))
        #expect(dumpError { _ = try huge.encoded(as: .flipper) }?.code == .invalidArgument)
        var badName = TagDump(memory: try DumpFixtures.ntag213Memory())
        badName.chipName = "NTAG213\nPage 0: 00 00 00 00"
        #expect(dumpError { _ = try badName.encoded(as: .flipper) }?.code == .invalidArgument)
        let shortUID = TagDump(memory: [0, 0, 0, 0])
        #expect(dumpError { _ = try shortUID.encoded(as: .flipper) }?.code == .invalidArgument)
    }
}
