import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// READ, FAST_READ, GET_VERSION, READ_SIG and READ_CNT of a simulated tag.
@Suite("Simulated Type 2 tag: reading")
struct SimulatedType2ReadTests {
    @Test("ISO/IEC 14443-3 and NTAG213/215/216 8.5.1: the factory NTAG215 has BCC0, BCC1, its CC and data")
    func factoryImage() {
        var tag = SimulatedType2Tag.selected(.ntag215)
        #expect(tag.read(0) == .data(hex("04 51 7C A1  A2 4B 35 80  5C 48 00 00  E1 10 3E 00")))
        #expect(tag.read(4) == .data(hex("03 00 FE 00  00 00 00 00  00 00 00 00  00 00 00 00")))
        // CFG0 (83h) 04 00 00 FF, CFG1 00 00 00 00; PWD and PACK read as zeros.
        #expect(tag.read(0x83) == .data(hex("04 00 00 FF  00 00 00 00  00 00 00 00  00 00 00 00")))
        #expect(tag.bytes[(0x85 * 4)..<(0x86 * 4)] == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test("NTAG213/215/216 10.2: READ rolls over to page 0 past the last page; past it NAK 0h")
    func readWrapAround() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        // Pages 2Bh (PWD, reads 00), 2Ch (PACK, reads 00), 00h, 01h.
        #expect(tag.read(0x2B) == .data(hex("00000000 00000000 04517CA1 A24B3580")))
        #expect(tag.read(0x2D) == .nak(0))
        #expect(tag.state == .idle)
        #expect(tag.read(0) == .silent)
    }

    @Test("MF0ICU1 9.3: READ of page 0Eh on a MIFARE Ultralight returns pages 14, 15, 0, 1")
    func ultralightWrapAround() {
        var tag = SimulatedType2Tag.selected(.mifareUltralight)
        #expect(tag.read(0x0E) == .data(hex("00000000 00000000 04517CA1 A24B3580")))
    }

    @Test("MF0ICU2 9.2: an Ultralight C decodes READ addresses 00h-2Bh only; READ 29h rolls over after 2Bh")
    func ultralightCWrapAround() {
        var tag = SimulatedType2Tag.selected(.mifareUltralightC)
        // Pages 29h (counter), 2Ah (AUTH0 30h at the factory), 2Bh (AUTH1), then page 00h.
        #expect(tag.read(0x29) == .data(hex("00000000 30000000 00000000 04517CA1")))
        #expect(tag.read(0x2C) == .nak(0))
    }

    @Test("MF0ICU2 7.5.8 and 9.2: AUTH0 10h with AUTH1 bit 0 clear read-protects pages 10h on; READ rolls over there")
    func ultralightCReadProtection() {
        var tag = SimulatedType2Tag.selected(.mifareUltralightC)
        #expect(tag.write(0x2A, "10 00 00 00") == .ack)
        #expect(tag.read(0x0E) == .data(hex("00000000 00000000 04517CA1 A24B3580")))
        #expect(tag.read(0x10) == .nak(0))
        tag.select()
        #expect(tag.write(0x10, "01 02 03 04") == .nak(0))
        tag.select()
        // AUTH1 (page 2Bh) lies past AUTH0 too: it cannot change without 3DES authentication.
        #expect(tag.write(0x2B, "01 00 00 00") == .nak(0))
    }

    @Test("NTAG213/215/216 10.3: FAST_READ needs start <= end <= last page, else NAK 0h")
    func fastReadBounds() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        let all = tag.transceive([0x3A, 0x00, 0x2C])
        #expect(all.bytes?.count == 45 * 4)
        #expect(all.bytes.map { Array($0.prefix(8)) } == hex("04517CA1 A24B3580"))
        #expect(tag.transceive([0x3A, 0x04, 0x04]) == .data(hex("01 03 A0 0C")))
        #expect(tag.transceive([0x3A, 0x05, 0x04]) == .nak(0))
        #expect(tag.transceive([0x3A, 0x00, 0x00]) == .silent)
        tag.select()
        #expect(tag.transceive([0x3A, 0x00, 0x2D]) == .nak(0))
        #expect(tag.count(of: .fastRead) == 5)
    }

    @Test("NTAG213/215/216 8.8.1: PWD and PACK read back as 00h, though the tag holds them")
    func passwordReadsAsZero() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(0x2B, "11 22 33 44") == .ack)
        #expect(tag.write(0x2C, "AA BB 00 00") == .ack)
        #expect(tag.read(0x2A) == .data(hex("00000000 00000000 00000000 04517CA1")))
        #expect(tag.transceive([0x3A, 0x2B, 0x2C]) == .data([UInt8](repeating: 0, count: 8)))
        #expect(Array(tag.bytes[(0x2B * 4)..<(0x2D * 4)]) == hex("11223344 AABB0000"))
    }

    @Test("NTAG213/215/216 8.8 and 10.2: with PROT, pages from AUTH0 need PWD_AUTH; READ rolls over at AUTH0")
    func readProtection() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(0x2B, "11 22 33 44") == .ack)
        #expect(tag.write(0x2C, "AA BB 00 00") == .ack)
        #expect(tag.write(0x2A, "80 00 00 00") == .ack)
        #expect(tag.write(0x29, "04 00 00 10") == .ack)
        tag.fieldOff()
        tag.select()
        #expect(tag.read(0x0E) == .data(hex("00000000 00000000 04517CA1 A24B3580")))
        #expect(tag.transceive([0x3A, 0x00, 0x0F]).bytes?.count == 64)
        #expect(tag.transceive([0x3A, 0x00, 0x10]) == .nak(0))
        tag.select()
        #expect(tag.read(0x10) == .nak(0))
        tag.select()
        #expect(tag.authenticate("11 22 33 44") == .data([0xAA, 0xBB]))
        #expect(tag.read(0x10) == .data([UInt8](repeating: 0, count: 16)))
        #expect(tag.read(0x2C).bytes.map { Array($0.suffix(12)) } == hex("04517CA1 A24B3580 5C480000"))
    }

    @Test(
        "NTAG213/215/216 10.1, MF0ULX1 8.1, NTAG210/212 10.1: GET_VERSION answers the chip's 8 bytes",
        arguments: Type2ChipCatalogue.all)
    func getVersion(chip: Type2Chip) {
        var tag = SimulatedType2Tag.selected(chip)
        let answer = tag.transceive([0x60])
        if let version = chip.versionResponses.first, chip.features.contains(.getVersion) {
            #expect(answer == .data(version))
            #expect(Type2ChipCatalogue.chip(forVersion: version) == chip)
            #expect(tag.state == .active)
        } else {
            #expect(answer == .nak(0))
            #expect(tag.state == .idle)
        }
        #expect(tag.count(of: .getVersion) == 1)
    }

    @Test("MF0ICU1: a MIFARE Ultralight has no GET_VERSION, FAST_READ, PWD_AUTH, READ_CNT or READ_SIG")
    func plainUltralightCommands() {
        for frame in [hex("60"), hex("3A 00 01"), hex("1B FF FF FF FF"), hex("39 02"), hex("3C 00")] {
            var tag = SimulatedType2Tag.selected(.mifareUltralight)
            #expect(tag.transceive(frame) == .nak(0), "\(frame)")
            #expect(tag.state == .idle)
            #expect(tag.transceive(hex("30 00")) == .silent)
        }
    }

    @Test("NTAG213/215/216 10.8: READ_SIG 3C 00 answers the tag's 32-byte signature; another address NAKs")
    func readSignature() {
        let signature = (0..<32).map { UInt8($0) }
        var tag = SimulatedType2Tag(
            chip: .ntag216, image: SimulatedType2Tag.factoryImage(chip: .ntag216),
            signature: signature)
        tag.select()
        #expect(tag.transceive(hex("3C 00")) == .data(signature))
        #expect(tag.transceive(hex("3C 01")) == .nak(0))
        var other = SimulatedType2Tag.selected(.ntag216)
        #expect(other.transceive(hex("3C 00")).bytes?.count == 32)
    }

    @Test("NTAG213/215/216 8.7 and 10.6: the NFC counter counts once per field when enabled; READ_CNT 39 02")
    func nfcCounter() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.transceive(hex("39 02")) == .nak(0))
        tag.select()
        #expect(tag.write(0x2A, "10 00 00 00") == .ack)
        tag.fieldOff()
        tag.select()
        #expect(tag.read(4) != .silent)
        #expect(tag.read(8) != .silent)
        #expect(tag.transceive(hex("39 02")) == .data(hex("01 00 00")))
        #expect(tag.transceive(hex("39 01")) == .nak(0))
        tag.fieldOff()
        tag.select()
        #expect(tag.transceive(hex("3A 04 04")) != .silent)
        #expect(tag.transceive(hex("39 02")) == .data(hex("02 00 00")))
        // NFC_CNT_PWD_PROT: READ_CNT needs PWD_AUTH.
        #expect(tag.write(0x2A, "18 00 00 00") == .ack)
        #expect(tag.transceive(hex("39 02")) == .nak(0))
        tag.select()
        #expect(tag.authenticate("FF FF FF FF") == .data([0, 0]))
        #expect(tag.transceive(hex("39 02")) == .data(hex("02 00 00")))
    }
}
