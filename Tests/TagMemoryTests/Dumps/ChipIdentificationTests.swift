import TagMemory
import TestSupport
import Testing

/// Which chip a dump is from: GET_VERSION, else the file's chip name, else the page count,
/// always through ``Type2ChipCatalogue``; and the Flipper names written for catalogue chips.
@Suite("Chip identification of dumps")
struct ChipIdentificationTests {
    /// An image of `pages` zero pages with PWD bytes at `passwordPage`.
    static func image(pages: Int, passwordPage: Int? = nil) -> [UInt8] {
        var memory = Array(repeating: UInt8(0), count: pages * 4)
        if let page = passwordPage { memory[page * 4..<page * 4 + 4] = [0x12, 0x34, 0x56, 0x78] }
        return memory
    }

    @Test("GET_VERSION wins over the name and the page count (NTAG213/215/216 datasheet 10.1)")
    func versionFirst() {
        let dump = TagDump(
            memory: Self.image(pages: 45), version: hex("00 04 04 02 01 00 11 03"), chipName: "NTAG213")
        let identification = dump.chipIdentification
        #expect(identification?.evidence == .getVersion(hex("00 04 04 02 01 00 11 03")))
        #expect(identification?.chip == .ntag215)
        #expect(identification?.passwordPage == 0x85)
    }

    @Test("An all-zero GET_VERSION is no answer: the name decides")
    func zeroVersionIgnored() {
        let dump = TagDump(memory: Self.image(pages: 16), version: Array(repeating: 0, count: 8), chipName: "NTAG213")
        #expect(dump.chipIdentification?.evidence == .chipName("NTAG213"))
        #expect(dump.chipIdentification?.chip == .ntag213)
    }

    @Test(
        "Flipper names map to catalogue chips (Flipper mf_ultralight.c names; NTAG210/212 go by storage size)",
        arguments: [
            ("Mifare Ultralight", Type2Chip.mifareUltralight), ("Mifare Ultralight C", .mifareUltralightC),
            ("Mifare Ultralight 11", .mifareUltralightEV1MF0UL11),
            ("Mifare Ultralight 21", .mifareUltralightEV1MF0UL21),
            ("NTAG213", .ntag213), ("NTAG215", .ntag215), ("NTAG216", .ntag216), ("NT2L1211", .ntag212),
        ])
    func flipperNames(_ name: String, _ chip: Type2Chip) {
        let dump = TagDump(memory: Self.image(pages: 4), chipName: name)
        #expect(dump.chipIdentification?.candidates == [chip])
    }

    @Test("A GET_VERSION or name outside the catalogue gives no chip, and the page count is not consulted")
    func outsideTheCatalogue() {
        // NTAG I2C 1k answers 00 04 04 05 02 01 13 03 and has 231 pages, like an NTAG216.
        let i2c = TagDump(memory: Self.image(pages: 231, passwordPage: 0xE5), version: hex("00 04 04 05 02 01 13 03"))
        #expect(i2c.chipIdentification?.candidates == [])
        #expect(i2c.password == nil)
        let named = TagDump(memory: Self.image(pages: 231, passwordPage: 0xE5), chipName: "NTAG I2C Plus 1K")
        #expect(named.chipIdentification?.candidates == [])
        #expect(named.password == nil)
    }

    @Test(
        "By page count, as libnfc nfc-mfultralight reads them; 20 and 41 pages are ambiguous but share PWD pages",
        arguments: [
            (16, [Type2Chip.mifareUltralight], nil), (20, [.mifareUltralightEV1MF0UL11, .ntag210], 0x12),
            (41, [.mifareUltralightEV1MF0UL21, .ntag212], 0x27), (45, [.ntag213], 0x2B), (135, [.ntag215], 0x85),
            (231, [.ntag216], 0xE5), (48, [.mifareUltralightC], nil), (136, [], nil),
        ] as [(Int, [Type2Chip], Int?)])
    func byPageCount(_ pages: Int, _ chips: [Type2Chip], _ passwordPage: Int?) {
        let dump = TagDump(memory: Self.image(pages: pages, passwordPage: passwordPage))
        #expect(dump.chipIdentification?.evidence == .pageCount(pages))
        #expect(dump.chipIdentification?.candidates == chips)
        #expect(dump.chipIdentification?.passwordPage == passwordPage)
        #expect(dump.password == (passwordPage == nil ? nil : hex("12 34 56 78")))
    }

    @Test("MIFARE Classic images have no Type 2 chip")
    func mifareClassic() {
        #expect(TagDump(layout: .mifareClassic, memory: Array(repeating: 0, count: 1024)).chipIdentification == nil)
    }

    @Test(
        "The Flipper writer names the chip as the firmware would (mf_ultralight_get_type_by_version)",
        arguments: [
            ("00 04 04 01 01 00 0B 03", "Mifare Ultralight 11"), ("00 04 04 01 01 00 0E 03", "Mifare Ultralight 21"),
            ("00 04 03 01 01 00 0E 03", "Mifare Ultralight 21"), ("00 04 04 02 01 00 13 03", "NTAG216"),
            ("00 04 04 05 02 01 13 03", "Mifare Ultralight"),
        ])
    func flipperWriterName(_ version: String, _ name: String) throws {
        var memory = Self.image(pages: 20)
        memory[0..<9] = hex("04 A1 B2 9F C3 D4 E5 F6 04")[...]
        let text = String(
            decoding: try TagDump(memory: memory, version: hex(version)).encoded(as: .flipper), as: UTF8.self)
        #expect(text.contains("\nNTAG/Ultralight type: \(name)\n"))
    }

    @Test("Version 3 files may name chips outside the catalogue (Flipper's NTAG I2C names)")
    func version3UncataloguedName() throws {
        var lines = try DumpFixtures.lines("ntag213-uri-flipper-v3.nfc")
        let index = try #require(lines.firstIndex(of: "Device type: NTAG213"))
        lines[index] = "Device type: NTAG I2C 1K"
        let dump = try TagDump(decoding: utf8(lines.joined(separator: "\n")), format: .flipper)
        #expect(dump.chipName == "NTAG I2C 1K")
        lines[index] = "Device type: NTAG 999"
        #expect(dumpError { _ = try TagDump(decoding: utf8(lines.joined(separator: "\n")), format: .flipper) } != nil)
    }
}
