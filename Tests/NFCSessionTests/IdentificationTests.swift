import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Type 2 identification")
struct IdentificationTests {
    @Test(
        "NTAG213/215/216 10.1: GET_VERSION sent as the single byte 60h identifies the chip in one command",
        arguments: [Type2Chip.ntag213, .ntag215, .ntag216, .ntag210, .ntag212, .mifareUltralightEV1MF0UL21])
    func byVersion(chip: Type2Chip) async throws {
        let reader = makeReader([SimulatedType2Tag(chip: chip)])
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == chip)
        #expect(tag.identification.method == .version)
        #expect(tag.identification.version == chip.versionResponses.first)
        #expect(reader.log.map(\.frame) == [[0x60]])
        #expect(reader.selectCount == 1)
    }

    @Test("MF0ICU1 9: MIFARE Ultralight NAKs GET_VERSION (back to IDLE), is selected again and known by its CC")
    func ultralightByCapabilityContainer() async throws {
        var image = SimulatedType2Tag.factoryImage(chip: .mifareUltralight)
        image.replaceSubrange(12..<20, with: hex("E1 10 06 00 03 00 FE 00"))
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralight, image: image)])
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == .mifareUltralight)
        #expect(tag.identification.method == .capabilityContainer)
        #expect(reader.log.map(\.kind) == [.getVersion, .read])
        #expect(reader.selectCount == 2)
        // The tag is usable: the next operation reads without a further selection.
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .zeroLengthMessage)
        #expect(reader.selectCount == 2)
    }

    @Test("MF0ICU2 7.5 and 9.2: a blank Ultralight C (CC 00) is told from an Ultralight by a READ past page 15")
    func blankUltralightCByPageCount() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralightC)])
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == .mifareUltralightC)
        #expect(tag.identification.method == .pageCount)
        // GET_VERSION (NAK), READ 0, READ 16 (answers: more than 16 pages).
        #expect(reader.log.map(\.frame) == [[0x60], [0x30, 0x00], [0x30, 0x10]])
    }

    @Test("MF0ICU1 9.3: a blank Ultralight NAKs the READ past its 16 pages and is selected again")
    func blankUltralightByPageCount() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralight)])
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == .mifareUltralight)
        #expect(reader.log.map(\.frame) == [[0x60], [0x30, 0x00], [0x30, 0x10]])
        #expect(reader.selectCount == 3)
    }

    @Test("T2T 1.1 6.1: without raw commands an NTAG215 is known by its CC size byte 3Eh alone")
    func readWriteOnlyReader() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)], capabilities: .readWriteOnly)
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == .ntag215)
        #expect(tag.identification.method == .capabilityContainer)
        #expect(reader.log.map(\.frame) == [[0x30, 0x00]])
    }

    @Test("NTAG213/215/216 8.5.6: CC 12h is NTAG213 or Ultralight C; READ of page 44 tells (key pages never read)")
    func ntag213WithoutRawCommands() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)], capabilities: .readWriteOnly)
        let (_, tag) = try await openTag(reader)
        #expect(tag.chip == .ntag213)
        #expect(tag.identification.method == .pageCount)
        #expect(reader.log.map(\.frame) == [[0x30, 0x00], [0x30, 0x2C]])
    }
}
