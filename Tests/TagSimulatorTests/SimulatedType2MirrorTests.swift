import NDEF
import TagMemory
import TestSupport
import Testing

@testable import TagSimulator

/// The ASCII mirror of NTAG213/215/216 (datasheet 8.7), against the datasheet's own examples:
/// NTAG213 with UID 04 E1 41 12 4C 28 80 and the mirror at page 0Ch, byte 1 (Tables 14-21).
@Suite("Simulated Type 2 tag: UID and NFC counter mirror")
struct SimulatedType2MirrorTests {
    static let uid = hex("04 E1 41 12 4C 28 80")

    /// The datasheet's NTAG213 with `pages` (page number to 4 bytes) and CFG0 byte 0 `mirror`,
    /// MIRROR_PAGE 0Ch, and ACCESS `access`; selected.
    static func tag(mirror: UInt8, access: UInt8 = 0x10, pages: [Int: String], counter: UInt32 = 0)
        -> SimulatedType2Tag
    {
        var image = SimulatedType2Tag.factoryImage(chip: .ntag213, uid: uid)
        for (page, bytes) in pages { image.replaceSubrange((page * 4)..<(page * 4 + 4), with: hex(bytes)) }
        image.replaceSubrange((0x29 * 4)..<(0x29 * 4 + 4), with: [mirror, 0x00, 0x0C, 0xFF])
        image[0x2A * 4] = access
        var tag = SimulatedType2Tag(chip: .ntag213, image: image)
        tag.nfcCounter = counter
        tag.select()
        return tag
    }

    @Test("8.7.1, Tables 14-15: the UID mirror shows 04E141124C2880 in READ; memory keeps its zeros")
    func uidMirror() {
        var tag = Self.tag(
            mirror: 0x54,
            pages: [0x0C: "3D 30 30 30", 0x0D: "30 30 30 30", 0x0E: "30 30 30 30", 0x0F: "30 30 30 FE"])
        #expect(tag.read(0x0C) == .data(hex("3D 30 34 45 31 34 31 31 32 34 43 32 38 38 30 FE")))
        #expect(Array(tag.bytes[(0x0C * 4)..<(0x10 * 4)]) == hex("3D 30 30 30 30 30 30 30 30 30 30 30 30 30 30 FE"))
        // FAST_READ shows it too, and a READ starting inside the mirror its slice.
        #expect(tag.transceive([0x3A, 0x0D, 0x0D]) == .data(Array("1411".utf8)))
        #expect(tag.read(0x0E) == .data(Array("24C2880".utf8) + hex("FE 00 00 00 00 00 00 00 00")))
    }

    @Test("8.7.2, Tables 17-18: the counter mirror shows 003F31, most significant byte first")
    func counterMirror() {
        // The first READ of the field counts (8.6): 3F30h becomes 3F31h, and the mirror shows it.
        var tag = Self.tag(mirror: 0x94, pages: [0x0C: "3D 30 30 30", 0x0D: "30 30 30 FE"], counter: 0x3F30)
        #expect(tag.read(0x0C).data?.prefix(8) == hex("3D 30 30 33 46 33 31 FE")[...])
        #expect(tag.nfcCounter == 0x3F31)
    }

    @Test("8.7.3, Tables 20-21: UID, x and counter: 04E141124C2880x003F31")
    func bothMirrored() {
        var tag = Self.tag(
            mirror: 0xD4,
            pages: [
                0x0C: "3D 30 30 30", 0x0D: "30 30 30 30", 0x0E: "30 30 30 30", 0x0F: "30 30 30 78",
                0x10: "30 30 30 30", 0x11: "30 30 FE 00",
            ], counter: 0x3F30)
        #expect(tag.read(0x0C) == .data(hex("3D 30 34 45 31 34 31 31 32 34 43 32 38 38 30 78")))
        #expect(tag.read(0x10).data?.prefix(8) == hex("30 30 33 46 33 31 FE 00")[...])
    }

    @Test(
        "No counter mirror without NFC_CNT_EN, or with NFC_CNT_PWD_PROT before PWD_AUTH; UID and x counter shows the UID alone"
    )
    func counterGated() {
        let pages = [0x0C: "3D 30 30 30", 0x0D: "30 30 30 FE"]
        var disabled = Self.tag(mirror: 0x94, access: 0x00, pages: pages, counter: 5)
        #expect(disabled.read(0x0C).data?.prefix(8) == hex("3D 30 30 30 30 30 30 FE")[...])
        var protected = Self.tag(mirror: 0x94, access: 0x18, pages: pages, counter: 5)
        #expect(protected.read(0x0C).data?.prefix(8) == hex("3D 30 30 30 30 30 30 FE")[...])
        var both = Self.tag(mirror: 0xD4, access: 0x00, pages: [0x0F: "30 30 30 78"])
        #expect(both.read(0x0C).data == hex("00 30 34 45 31 34 31 31 32 34 43 32 38 38 30 78"))
    }

    @Test("8.7: a mirror that would not end inside user memory, or below page 4, is not applied")
    func outOfRange() {
        // NTAG213 user memory ends with page 27h: 14 characters from page 25h byte 0 do not fit.
        var image = SimulatedType2Tag.factoryImage(chip: .ntag213, uid: Self.uid)
        image.replaceSubrange((0x29 * 4)..<(0x29 * 4 + 4), with: [0x44, 0x00, 0x25, 0xFF])
        var late = SimulatedType2Tag(chip: .ntag213, image: image)
        late.select()
        #expect(late.read(0x25) == .data(Array(late.bytes[(0x25 * 4)..<(0x29 * 4)])))
        image.replaceSubrange((0x29 * 4)..<(0x29 * 4 + 4), with: [0x44, 0x00, 0x03, 0xFF])
        var early = SimulatedType2Tag(chip: .ntag213, image: image)
        early.select()
        #expect(early.read(0x03).data?.prefix(4) == hex("E1 10 12 00")[...])
    }

    @Test("8.6, 8.7.2: the counter counts once per field, stops at FFFFFFh, and is shown so; WRITE is not mirrored")
    func countsOncePerFieldAndSaturates() {
        var tag = Self.tag(mirror: 0x94, pages: [0x0C: "3D 30 30 30", 0x0D: "30 30 30 FE"], counter: 0xFF_FFFE)
        #expect(tag.read(0x0C).data?.prefix(8) == Array("=FFFFFF".utf8)[...] + [0xFE])
        #expect(tag.read(0x0C).data?.prefix(8) == Array("=FFFFFF".utf8)[...] + [0xFE], "one count per field")
        tag.fieldOff()
        tag.select()
        #expect(tag.read(0x0C).data?.prefix(8) == Array("=FFFFFF".utf8)[...] + [0xFE])
        #expect(tag.nfcCounter == 0xFF_FFFF, "saturated, not wrapped")
        // A WRITE over the mirrored page stores what it writes; memory never holds the mirror.
        #expect(tag.transceive([0xA2, 0x0D, 0x31, 0x32, 0x33, 0xFE]) == .ack)
        #expect(Array(tag.bytes[(0x0C * 4)..<(0x0E * 4)]) == hex("3D 30 30 30 31 32 33 FE"))
        #expect(tag.read(0x0C).data?.prefix(8) == Array("=FFFFFF".utf8)[...] + [0xFE])
    }
}

extension SimulatedType2Response {
    /// The data of a `.data` answer.
    var data: [UInt8]? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }
}
