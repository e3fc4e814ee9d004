import TagMemory
import TestSupport
import Testing

/// Raw images and proxmark3 binary dumps.
///
/// Raw: libnfc `utils/nfc-mfultralight.c` writes `uiReadPages * 4` bytes (45 pages for an
/// NTAG213, chosen by GET_VERSION byte 6) and with `--pw` copies PWD and PACK into pages 0x2B
/// and 0x2C; `utils/nfc-mfclassic.c` writes 64 blocks of 16 bytes for a 1K card. proxmark3:
/// `include/mifare.h` `mfu_dump_t` (56-byte header), written by `client/src/cmdhfmfu.c`.
@Suite("Raw and proxmark3 binary dumps")
struct BinaryDumpTests {
    @Test("libnfc NTAG213 dump taken with --pw: PWD and PACK found at pages 0x2B-0x2C (datasheet 8.5.7)")
    func libnfcPassword() throws {
        let bytes = try DumpFixtures.bytes("ntag213-uri-libnfc-pw.mfd")
        let dump = try TagDump(decoding: bytes, format: .raw)
        #expect(dump.layout == .type2)
        #expect(dump.pageCount == 45)
        #expect(dump.password == hex("12 34 56 78"))
        #expect(dump.passwordAcknowledge == hex("AB CD"))
        #expect(try dump.encoded(as: .raw) == bytes)
    }

    @Test("Descriptions never show PWD or PACK")
    func descriptionHidesSecrets() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri-libnfc-pw.mfd"), format: .raw)
        #expect(dump.description == "Type 2 tag: 45 pages (180 bytes), UID 04:A1:B2:C3:D4:E5:F6")
        for shown in [dump.description, String(describing: dump), String(reflecting: dump)] {
            for secret in ["12345678", "12 34", "12:34", "ABCD", "AB CD", "AB:CD", "abcd"] {
                #expect(!shown.contains(secret), "\(secret) in \(shown)")
            }
        }
    }

    @Test("PWD of an NTAG215 named by GET_VERSION (storage size 11h) is at page 0x85")
    func passwordByVersion() {
        var memory = Array(repeating: UInt8(0), count: 135 * 4)
        memory[0x85 * 4..<0x86 * 4] = [0xDE, 0xAD, 0xBE, 0xEF]
        let dump = TagDump(memory: memory, version: hex("00 04 04 02 01 00 11 03"))
        #expect(dump.password == hex("DE AD BE EF"))
        #expect(dump.passwordAcknowledge == nil, "PACK page holds zeros: not recorded")
        let unnamed = TagDump(memory: memory + [0, 0, 0, 0])
        #expect(unnamed.password == nil, "136 pages name no chip")
    }

    @Test("A libnfc 1.7 Ultralight dump is 16 pages, and an Ultralight has no PWD")
    func ultralight() throws {
        let memory = hex("04A1B29F C3D4E5F6 04480000 E1100600 0300FE00") + Array(repeating: 0, count: 44)
        let dump = try TagDump(decoding: memory, format: .raw)
        #expect(dump.pageCount == 16)
        #expect(dump.password == nil)
        #expect(dump.description.hasPrefix("Type 2 tag: 16 pages (64 bytes)"))
    }

    @Test(
        "A size that is not whole pages is refused at the offset of the partial page",
        arguments: [(181, 180), (7, 4), (3, 0), (1023, 1020)])
    func partialPage(_ size: Int, _ offset: Int) {
        let error = dumpError { _ = try TagDump(decoding: Array(repeating: 0x11, count: size), format: .raw) }
        #expect(error?.code == .malformedDump)
        #expect(error?.offset == offset)
    }

    @Test("Empty and oversized images are refused")
    func sizeLimits() {
        #expect(dumpError { _ = try TagDump(decoding: [], format: .raw) }?.code == .malformedDump)
        let huge = Array(repeating: UInt8(0), count: TagDump.maximumMemorySize + 4)
        #expect(dumpError { _ = try TagDump(decoding: huge, format: .raw) }?.code == .malformedDump)
        #expect(dumpError { _ = try TagDump(memory: []).encoded(as: .raw) }?.code == .invalidArgument)
        #expect(dumpError { _ = try TagDump(memory: [1, 2, 3]).encoded(as: .hexText) }?.code == .invalidArgument)
    }

    @Test("nfc-mfclassic 1K image: taken for MIFARE Classic by its trailers (MF1S50yyX 8.7)")
    func mifareClassic() throws {
        let bytes = try DumpFixtures.bytes("mifare-classic-1k-ndef-libnfc.mfd")
        let dump = try TagDump(decoding: bytes, format: .raw)
        #expect(dump.layout == .mifareClassic)
        #expect(dump.pageCount == 64)
        #expect(dump.page(3)?.dropFirst(6).prefix(4) == hex("78 77 88 C1")[...])
        #expect(dump.password == nil)
        #expect(dump.description == "MIFARE Classic: 64 blocks (1024 bytes)")
        #expect(try dump.encoded(as: .raw) == bytes)
        let text = try dump.encoded(as: .hexText)
        #expect(
            String(decoding: text, as: UTF8.self).contains("\n03: A0 A1 A2 A3 A4 A5 78 77 88 C1 FF FF FF FF FF FF\n"))
        #expect(try TagDump(decoding: text, format: .hexText) == dump)
        #expect(try TagDump(decoding: bytes, format: .raw, layout: .type2).layout == .type2)
        #expect(dumpError { _ = try dump.encoded(as: .proxmarkJSON) }?.code == .invalidArgument)
        #expect(dumpError { _ = try dump.encoded(as: .proxmarkBinary) }?.code == .invalidArgument)
    }

    @Test("A 1024-byte Type 2 image with a valid UID stays Type 2")
    func layoutGuess() throws {
        var memory = Array(repeating: UInt8(0xFF), count: 1024)
        memory[0..<9] = hex("04 A1 B2 9F C3 D4 E5 F6 04")[...]
        #expect(TagDump.Layout.guess(for: memory) == .type2)
        for size in TagDump.Layout.mifareClassicImageSizes.sorted() {
            #expect(TagDump.Layout.guess(for: Array(repeating: 0, count: size)) == .type2, "\(size) zero bytes")
        }
        var classic = Array(repeating: UInt8(0), count: 320)
        classic[3 * 16 + 6..<3 * 16 + 9] = hex("FF 07 80")[...]
        #expect(TagDump.Layout.guess(for: classic) == .mifareClassic)
    }

    @Test("proxmark3 .bin: header fields read, written back byte for byte")
    func proxmarkBinary() throws {
        let bytes = try DumpFixtures.bytes("ntag213-uri-proxmark.bin")
        let dump = try TagDump(decoding: bytes, format: .proxmarkBinary)
        #expect(dump.memory == (try DumpFixtures.ntag213Memory()))
        #expect(dump.version == hex("00 04 04 02 01 00 0F 03"))
        #expect(dump.signature == Array(0x10...0x2F))
        #expect(dump.counters == [0, 0, 7])
        #expect(dump.tearingFlags == [0, 0, 0xBD])
        #expect(dump.description == "NTAG213: 45 pages (180 bytes), UID 04:A1:B2:C3:D4:E5:F6", "named by GET_VERSION")
        #expect(try dump.encoded(as: .proxmarkBinary) == bytes)
    }

    @Test("proxmark3 .bin: a header that disagrees with the length, or a short file, is refused")
    func proxmarkBinaryErrors() throws {
        var bytes = try DumpFixtures.bytes("ntag213-uri-proxmark.bin")
        bytes[11] = 43
        let mismatch = dumpError { _ = try TagDump(decoding: bytes, format: .proxmarkBinary) }
        #expect(mismatch?.offset == 11)
        let header = Array(bytes.prefix(40))
        #expect(dumpError { _ = try TagDump(decoding: header, format: .proxmarkBinary) }?.code == .malformedDump)
        let partial = Array(bytes.prefix(57))
        #expect(dumpError { _ = try TagDump(decoding: partial, format: .proxmarkBinary) }?.offset == 56)
        let big = TagDump(memory: Array(repeating: 0, count: 257 * 4))
        #expect(dumpError { _ = try big.encoded(as: .proxmarkBinary) }?.code == .invalidArgument)
        let counter = TagDump(memory: [4, 1, 2, 3, 4, 5, 6, 7], counters: [0x100_0000])
        #expect(dumpError { _ = try counter.encoded(as: .proxmarkBinary) }?.code == .invalidArgument)
        let fourCounters = TagDump(memory: [4, 1, 2, 3, 4, 5, 6, 7], counters: [1, 2, 3, 4])
        #expect(dumpError { _ = try fourCounters.encoded(as: .flipper) }?.code == .invalidArgument)
    }
}
