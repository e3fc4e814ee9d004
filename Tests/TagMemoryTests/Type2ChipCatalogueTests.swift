import TagMemory
import TestSupport
import Testing

/// The chip catalogue against the NXP datasheets.
@Suite("Type 2 chip catalogue")
struct Type2ChipCatalogueTests {
    @Test(
        "GET_VERSION answers (nfcpy tt2_nxp.py VERSION_MAP, proxmark3 cmdhfmfu.c, datasheets' GET_VERSION tables)",
        arguments: [
            ("0004030101000B03", "MF0UL11"), ("0004030201000B03", "MF0UL11"), ("0004030101000E03", "MF0UL21"),
            ("0004030201000E03", "MF0UL21"), ("0004040101000B03", "NT2L1011"), ("0004040101000E03", "NT2L1211"),
            ("0004040201000F03", "NT2H1311"), ("0004040201001103", "NT2H1511"), ("0004040201001303", "NT2H1611"),
        ])
    func version(answer: String, typeCode: String) {
        #expect(Type2ChipCatalogue.chip(forVersion: hex(answer))?.typeCode == typeCode)
    }

    @Test("GET_VERSION answers of other chips match nothing: NTAG I2C 1k, NTAG213 TT, NTAG213F, short answers")
    func unknownVersions() {
        for answer in ["0004040502011303", "0004040203000F03", "0004040401000F03", "00040402", ""] {
            #expect(Type2ChipCatalogue.chip(forVersion: hex(answer)) == nil)
        }
    }

    @Test("Page counts without GET_VERSION: unique for 16, 44, 48, 45, 135, 231; ambiguous for 20 and 41")
    func pageCounts() {
        #expect(Type2ChipCatalogue.chip(forPageCount: 16) == .mifareUltralight)
        #expect(Type2ChipCatalogue.chip(forPageCount: 48) == .mifareUltralightC)
        #expect(Type2ChipCatalogue.chip(forPageCount: 44) == .mifareUltralightC)
        #expect(Type2ChipCatalogue.chip(forPageCount: 45) == .ntag213)
        #expect(Type2ChipCatalogue.chip(forPageCount: 135) == .ntag215)
        #expect(Type2ChipCatalogue.chip(forPageCount: 231) == .ntag216)
        #expect(Type2ChipCatalogue.chip(forPageCount: 20) == nil)
        #expect(Type2ChipCatalogue.chips(forPageCount: 20) == [.mifareUltralightEV1MF0UL11, .ntag210])
        #expect(Type2ChipCatalogue.chips(forPageCount: 41) == [.mifareUltralightEV1MF0UL21, .ntag212])
        #expect(Type2ChipCatalogue.chips(forPageCount: 42).isEmpty)
        #expect(Type2ChipCatalogue.all.count == 9)
    }

    @Test("Memory maps: pages, user pages and sizes (NTAG213/215/216 8.5, MF0ULX1 8.5, MF0ICU2 7.5)")
    func memoryMaps() {
        let expected: [(Type2Chip, Int, ClosedRange<Int>, Int)] = [
            (.mifareUltralight, 16, 4...15, 48), (.mifareUltralightC, 48, 4...39, 144),
            (.mifareUltralightEV1MF0UL11, 20, 4...15, 48), (.mifareUltralightEV1MF0UL21, 41, 4...35, 128),
            (.ntag210, 20, 4...15, 48), (.ntag212, 41, 4...35, 128), (.ntag213, 45, 4...39, 144),
            (.ntag215, 135, 4...129, 504), (.ntag216, 231, 4...225, 888),
        ]
        for (chip, pages, user, size) in expected {
            #expect(chip.pageCount == pages && chip.userPages == user && chip.userMemorySize == size, "\(chip.name)")
        }
    }

    @Test("Configuration pages: CFG0, CFG1, PWD, PACK are the last four pages; none on Ultralight and Ultralight C")
    func configurationPages() {
        for chip in Type2ChipCatalogue.all {
            if let pages = chip.configurationPages {
                #expect(pages.passwordAcknowledge == chip.pageCount - 1 && pages.cfg0 == chip.pageCount - 4)
                #expect(chip.features.contains(.passwordAuthentication))
            } else {
                #expect(!chip.features.contains(.passwordAuthentication))
            }
        }
        #expect(Type2Chip.ntag213.configurationPages?.cfg0 == 0x29)
        #expect(Type2Chip.ntag215.configurationPages?.cfg0 == 0x83)
        #expect(Type2Chip.ntag216.configurationPages?.cfg0 == 0xE3)
        #expect(Type2Chip.mifareUltralight.configurationPages == nil)
        #expect(Type2Chip.mifareUltralightC.configurationPages == nil)
        #expect(Type2Chip.mifareUltralightC.features.contains(.tripleDESAuthentication))
        #expect(Type2Chip.mifareUltralightC.tripleDESPages?.auth0 == 0x2A)
        #expect(Type2Chip.mifareUltralightC.unreadablePages == 0x2C...0x2F)
    }

    @Test("NTAG213 dynamic lock bits (8.5.3): 2 pages per bit, byte 2 bits 0-5 block-lock bit pairs")
    func ntag213Lock() throws {
        let layout = try #require(Type2Chip.ntag213.dynamicLock)
        #expect(layout.page == 0x28 && layout.byteRange == 160..<163)
        #expect(layout.pageLockBits.count == 12)
        #expect(layout.pageLockBits[0] == .init(byte: 0, bit: 0, pages: 16...17))
        #expect(layout.pageLockBits[7] == .init(byte: 0, bit: 7, pages: 30...31))
        #expect(layout.pageLockBits[11] == .init(byte: 1, bit: 3, pages: 38...39))
        #expect(layout.blockLockBits.map(\.bit) == [0, 1, 2, 3, 4, 5] && layout.blockLockBits[5].freezes == [10, 11])
        #expect(layout.allPageLockBits == [0xFF, 0x0F, 0x00] && layout.allBlockLockBits == [0x00, 0x00, 0x3F])
        // The NXP community example: 03 00 00 locks pages 16-19; 00 00 3F only freezes lock bits.
        #expect(layout.lockedPages(lockBytes: [0x03, 0x00, 0x00]) == [16...17, 18...19])
        #expect(layout.lockedPages(lockBytes: [0x00, 0x00, 0x3F]).isEmpty)
        #expect(layout.isLockBitFrozen(forPage: 39, lockBytes: [0x00, 0x00, 0x20]))
    }

    @Test("NTAG215/216 dynamic lock bits (8.5.3): 16 pages per bit, last group ends at the last user page")
    func ntag215216Lock() throws {
        let n215 = try #require(Type2Chip.ntag215.dynamicLock)
        #expect(n215.page == 0x82 && n215.pageLockBits.count == 8)
        #expect(n215.pageLockBits[0].pages == 16...31 && n215.pageLockBits[7].pages == 128...129)
        #expect(n215.allPageLockBits == [0xFF, 0x00, 0x00] && n215.allBlockLockBits == [0x00, 0x00, 0x0F])
        let n216 = try #require(Type2Chip.ntag216.dynamicLock)
        #expect(n216.page == 0xE2 && n216.pageLockBits.count == 14)
        #expect(n216.pageLockBits[13] == .init(byte: 1, bit: 5, pages: 224...225))
        #expect(n216.allPageLockBits == [0xFF, 0x3F, 0x00] && n216.allBlockLockBits == [0x00, 0x00, 0x7F])
        // The NFC Forum default (16 + CC2 × 8) is not the lock page on NTAG215/216.
        #expect(16 + 0x3E * 8 != n215.page * 4 && 16 + 0x6D * 8 != n216.page * 4)
    }

    @Test("MF0UL21 and NTAG212 (page 24h, 2 pages per bit, 10 bits); Ultralight C (page 28h byte 0, 4 pages per bit)")
    func otherLocks() throws {
        for chip in [Type2Chip.mifareUltralightEV1MF0UL21, .ntag212] {
            let layout = try #require(chip.dynamicLock)
            #expect(layout.page == 0x24 && layout.pageLockBits.count == 10 && layout.pageLockBits[9].pages == 34...35)
            #expect(layout.allPageLockBits == [0xFF, 0x03, 0x00] && layout.allBlockLockBits == [0x00, 0x00, 0x1F])
        }
        let ulc = try #require(Type2Chip.mifareUltralightC.dynamicLock)
        #expect(ulc.page == 0x28 && ulc.byteCount == 2)
        // "E0 00 00 00 locks pages 28..39" (bits 5-7 of byte 0).
        #expect(ulc.lockedPages(lockBytes: [0xE0, 0x00]) == [28...31, 32...35, 36...39])
        #expect(ulc.lockedPages(lockBytes: [0x0E, 0x00]) == [16...19, 20...23, 24...27])
        #expect(ulc.allPageLockBits == [0xEE, 0x00] && ulc.allBlockLockBits == [0x11, 0x00])
        #expect(Type2Chip.mifareUltralight.dynamicLock == nil && Type2Chip.ntag210.dynamicLock == nil)
        #expect(Type2Chip.mifareUltralightEV1MF0UL11.dynamicLock == nil)
    }

    @Test("Factory content: CC and TLVs (NTAG213/215/216 8.5.6, NTAG210/212 8.5, blank Ultralight family)")
    func factoryContent() {
        #expect(Type2Chip.ntag213.factoryCapabilityContainer == hex("e1101200"))
        #expect(Type2Chip.ntag213.factoryData == hex("0103a00c340300fe"))
        #expect(Type2Chip.ntag215.factoryCapabilityContainer == hex("e1103e00"))
        #expect(Type2Chip.ntag216.factoryCapabilityContainer == hex("e1106d00"))
        #expect(Type2Chip.ntag215.factoryData == hex("0300fe") && Type2Chip.ntag216.factoryData == hex("0300fe"))
        #expect(Type2Chip.ntag212.factoryData == hex("010390 0a340300fe"))
        #expect(Type2Chip.ntag210.factoryCapabilityContainer == hex("e1100600"))
        #expect(Type2Chip.mifareUltralightC.factoryCapabilityContainer == hex("00000000"))
        // What a formatter announces: NXP's value for NTAG, the whole user memory otherwise.
        #expect(Type2Chip.ntag215.ndefCapabilityContainer == hex("e1103e00"))
        #expect(Type2Chip.mifareUltralight.ndefCapabilityContainer == hex("e1100600"))
        #expect(Type2Chip.mifareUltralightC.ndefCapabilityContainer == hex("e1101200"))
        #expect(Type2Chip.mifareUltralightEV1MF0UL21.ndefCapabilityContainer == hex("e1101000"))
    }

    @Test("Features (command sets of each datasheet)")
    func features() {
        #expect(Type2Chip.mifareUltralight.features == [.compatibilityWrite])
        #expect(Type2Chip.mifareUltralightC.features.isDisjoint(with: [.getVersion, .passwordAuthentication]))
        #expect(Type2Chip.ntag213.features.isSuperset(of: [.getVersion, .fastRead, .readCounter, .readSignature]))
        #expect(Type2Chip.ntag213.features.isSuperset(of: [.passwordAuthentication, .nfcCounter, .asciiMirror]))
        #expect(!Type2Chip.ntag210.features.contains(.readCounter) && !Type2Chip.ntag212.features.contains(.nfcCounter))
        #expect(Type2Chip.mifareUltralightEV1MF0UL11.features.isSuperset(of: [.oneWayCounters, .readCounter]))
        for chip in Type2ChipCatalogue.all {
            #expect(chip.features.contains(.getVersion) == !chip.versionResponses.isEmpty, "\(chip.name)")
        }
    }
}
