import TagMemory
import TestSupport
import Testing

/// The PWD_AUTH configuration pages (NTAG213/215/216 datasheet 8.5.7, MF0ULX1 8.5).
@Suite("Type 2 configuration")
struct Type2ConfigurationTests {
    @Test("8.5.7: factory NTAG213 configuration: AUTH0 FFh (nothing protected), ACCESS 00h")
    func factory() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let config = try #require(memory.configuration)
        #expect(config.auth0 == 0xFF && config.firstProtectedPage == nil && config.access == 0)
        #expect(!config.isPageWriteProtected(4) && !config.isPageReadProtected(40))
        #expect(config.authenticationLimit == 0 && !config.isConfigurationLocked)
        #expect(config.isStrongModulationEnabled)
        #expect(config.mirror == Type2Configuration.Mirror(mode: .none, byte: 0, page: 0))
    }

    @Test("8.5.7: AUTH0 04h with PROT: pages 4 on need the password for reading and writing")
    func passwordProtected() throws {
        for name in ["ntag213", "ntag215", "ntag216"] {
            let memory = try TagFixtures.memory("\(name)-password-protected.hex")
            let config = try #require(memory.configuration)
            #expect(config.auth0 == 4 && config.firstProtectedPage == 4 && config.isReadProtected)
            #expect(config.authenticationLimit == 3)
            #expect(config.isPageWriteProtected(4) && !config.isPageWriteProtected(3))
            #expect(config.isPageReadProtected(20) && !config.isPageReadProtected(3))
            #expect(config.password == [0, 0, 0, 0] && config.passwordAcknowledge == [0, 0])
            // Password protection is not a lock, and the CC is untouched: still read/write for NDEF.
            #expect(memory.ndefStatus.status == .readWrite && !memory.isPageLocked(4))
        }
    }

    @Test("8.5.7 ACCESS: bit 7 PROT, bit 6 CFGLCK, bit 4 NFC_CNT_EN, bit 3 NFC_CNT_PWD_PROT, bits 2-0 AUTHLIM")
    func accessBits() throws {
        var config = try Type2Configuration(chip: .ntag215, pages: [UInt8](repeating: 0, count: 16))
        config.isNFCCounterEnabled = true
        #expect(config.access == 0x10)
        config.isNFCCounterPasswordProtected = true
        #expect(config.access == 0x18)
        config.isConfigurationLocked = true
        config.isReadProtected = true
        config.authenticationLimit = 9
        #expect(config.access == 0xDF && config.authenticationLimit == 7)
        // CFGLCK locks CFG0 and CFG1, not PWD and PACK.
        #expect(config.isPageLocked(0x83) && config.isPageLocked(0x84) && !config.isPageLocked(0x85))
        // NTAG210 has no NFC counter: those bits read as off.
        let ntag210 = try Type2Configuration(
            chip: .ntag210, pages: [0, 0, 0, 0, 0x18] + [UInt8](repeating: 0, count: 11))
        #expect(!ntag210.isNFCCounterEnabled && !ntag210.isNFCCounterPasswordProtected)
    }

    @Test("8.5.7 MIRROR: bits 7-6 MIRROR_CONF, 5-4 MIRROR_BYTE, 2 STRG_MOD_EN; MIRROR_PAGE in byte 2")
    func mirror() throws {
        var config = try Type2Configuration(chip: .ntag213, pages: hex("04000000 00000000 00000000 00000000"))
        config.mirror = .init(mode: .uidAndNFCCounter, byte: 2, page: 0x10)
        #expect(config.cfg0 == hex("e4001000"))
        config.auth0 = 0x2A
        config.password = hex("11223344")
        config.passwordAcknowledge = hex("abcd")
        #expect(config.pageContents.map(\.page) == [0x29, 0x2A, 0x2B, 0x2C])
        #expect(
            config.pageContents.map(\.bytes) == [hex("e400102a"), hex("00000000"), hex("11223344"), hex("abcd0000")])
        config.mirror = nil
        #expect(config.cfg0 == hex("0400002a"))
        // EV1 has no ASCII mirror.
        let ev1 = try Type2Configuration(chip: .mifareUltralightEV1MF0UL11, pages: [UInt8](repeating: 0xC0, count: 16))
        #expect(ev1.mirror == nil)
    }

    @Test("Chips without PWD_AUTH pages, and images that end before them")
    func errors() throws {
        #expect(throws: TagMemoryError(.unsupportedChip, "")) {
            try Type2Configuration(chip: .mifareUltralightC, pages: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: TagMemoryError(.truncatedImage, "")) {
            try Type2Configuration(chip: .ntag213, memory: [UInt8](repeating: 0, count: 170))
        }
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try Type2Configuration(chip: .ntag213, pages: [UInt8](repeating: 0, count: 15))
        }
    }
}
