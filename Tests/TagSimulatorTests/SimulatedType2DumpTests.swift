import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A simulated Type 2 tag's state to and from a ``TagDump`` (and through the Flipper format).
@Suite("Simulated Type 2 tag: dumps")
struct SimulatedType2DumpTests {
    /// `tag`'s state written as a Flipper file and read back.
    static func throughFlipper(_ tag: SimulatedType2Tag) throws -> SimulatedType2Tag {
        let bytes = try tag.dump.encoded(as: .flipper)
        return try SimulatedType2Tag(dump: try TagDump(decoding: bytes))
    }

    /// An NTAG213 with PWD 11 22 33 44, PACK AA BB, ACCESS `access`, AUTH0 10h and a page written.
    static func configuredNTAG213(access: String) -> SimulatedType2Tag {
        var tag = SimulatedType2Tag.selected(.ntag213)
        _ = tag.write(0x06, "CA FE BA BE")
        _ = tag.write(0x2B, "11 22 33 44")
        _ = tag.write(0x2C, "AA BB 00 00")
        _ = tag.write(0x2A, access)
        _ = tag.write(0x29, "04 00 00 10")
        tag.fieldOff()
        return tag
    }

    @Test(
        "NTAG213/215/216 8.5.7, 8.7, 8.8.2: memory with PWD/PACK, NFC counter and failed count survive a Flipper file")
    func ntagRoundTrip() throws {
        // ACCESS 13h: NFC_CNT_EN (bit 4) and AUTHLIM 3.
        var tag = Self.configuredNTAG213(access: "13 00 00 00")
        tag.select()
        _ = tag.read(4)
        tag.fieldOff()
        tag.select()
        _ = tag.read(4)
        #expect(tag.authenticate("00 00 00 00") == .nak(0))
        #expect(tag.nfcCounter == 2 && tag.failedAuthenticationCount == 1)
        let copy = try Self.throughFlipper(tag)
        #expect(copy.chip == .ntag213)
        #expect(copy.bytes == tag.bytes)
        #expect(copy.memory.page(0x2B) == hex("11 22 33 44"))
        #expect(copy.memory.page(0x2C) == hex("AA BB 00 00"))
        #expect(copy.nfcCounter == 2)
        #expect(copy.failedAuthenticationCount == 1)
        #expect(!copy.isPasswordDisabled)
        #expect(copy.signature == tag.signature)
        #expect(copy.state == .idle)
        // READ_CNT 39 02 answers the counter LSB first (NTAG213/215/216 10.6).
        var selected = copy
        selected.select()
        #expect(selected.transceive(hex("39 02")) == .data(hex("02 00 00")))
    }

    @Test("NTAG213/215/216 8.8.2: a password disabled by AUTHLIM stays disabled after a Flipper file")
    func disabledPasswordRoundTrip() throws {
        var tag = Self.configuredNTAG213(access: "01 00 00 00")
        tag.select()
        #expect(tag.authenticate("00 00 00 00") == .nak(0))
        #expect(tag.isPasswordDisabled)
        var copy = try Self.throughFlipper(tag)
        #expect(copy.isPasswordDisabled)
        copy.select()
        #expect(copy.authenticate("11 22 33 44") == .nak(4))
    }

    @Test("MF0ULX1 8.7: the three one-way counters of an Ultralight EV1 come from the dump")
    func ultralightEV1Counters() throws {
        var dump = SimulatedType2Tag(chip: .mifareUltralightEV1MF0UL11).dump
        dump.counters = [1, 0x02_0304, 0xFF_FFFF]
        var tag = try SimulatedType2Tag(dump: try TagDump(decoding: try dump.encoded(as: .flipper)))
        #expect(tag.oneWayCounters == [1, 0x02_0304, 0xFF_FFFF])
        tag.select()
        #expect(tag.transceive(hex("39 01")) == .data(hex("04 03 02")))
        #expect(tag.dump.counters == [1, 0x02_0304, 0xFF_FFFF])
    }

    @Test(
        "GET_VERSION in the dump tells chips of the same layout apart (NTAG210/212 datasheet 10.1, MF0ULX1 8.8.3)",
        arguments: Type2ChipCatalogue.all)
    func everyChipRoundTrips(chip: Type2Chip) throws {
        let tag = SimulatedType2Tag(chip: chip, uid: hex("04 10 20 30 40 50 60"))
        let copy = try Self.throughFlipper(tag)
        #expect(copy.chip == chip)
        #expect(copy.bytes == tag.bytes)
        #expect(SimulatedTag.type2(copy).uid == hex("04 10 20 30 40 50 60"))
    }

    @Test("A dump that cannot be a simulated tag is refused with the reason's code")
    func hostileDumps() {
        let good = SimulatedType2Tag(chip: .ntag215).dump
        func code(_ dump: TagDump) -> TagMemoryError.Code? {
            do {
                _ = try SimulatedType2Tag(dump: dump)
                return nil
            } catch {
                return error.code
            }
        }
        var short = good
        short.memory.removeLast(4)
        #expect(code(short) == .malformedDump)
        var classic = good
        classic.layout = .mifareClassic
        #expect(code(classic) == .malformedDump)
        var unknownVersion = good
        unknownVersion.version = hex("00 04 04 02 01 00 99 03")
        #expect(code(unknownVersion) == .unsupportedChip)
        var otherUID = good
        otherUID.uid = hex("04 00 00 00 00 00 00")
        #expect(code(otherUID) == .malformedDump)
        var bigCounter = good
        bigCounter.counters = [0, 0, 0x100_0000]
        #expect(code(bigCounter) == .malformedDump)
        var fourCounters = good
        fourCounters.counters = [0, 0, 0, 0]
        #expect(code(fourCounters) == .malformedDump)
        var shortSignature = good
        shortSignature.signature = [1, 2, 3]
        #expect(code(shortSignature) == .malformedDump)
        var unknownName = good
        unknownName.version = nil
        unknownName.chipName = "NTAG I2C 1K"
        #expect(code(unknownName) == .unsupportedChip)
        #expect(code(good) == nil)
    }

    @Test("Every prefix of a saved Flipper file either loads or is refused: nothing traps")
    func truncatedFiles() throws {
        let bytes = try Self.configuredNTAG213(access: "13 00 00 00").dump.encoded(as: .flipper)
        // Everything up to the last page is required; the failed count line after it is optional.
        let tail = Array("Failed authentication attempts: 0\n".utf8)
        #expect(Array(bytes.suffix(tail.count)) == tail)
        let lastPageEnd = bytes.count - tail.count
        for length in 0...bytes.count {
            let loads =
                (try? TagDump(decoding: Array(bytes.prefix(length)))).flatMap { try? SimulatedType2Tag(dump: $0) }
                != nil
            if length < lastPageEnd - 1 { #expect(!loads, "prefix of \(length) bytes") }
        }
        #expect((try? SimulatedType2Tag(dump: TagDump(decoding: bytes))) != nil)
    }
}
