extension Type2Chip {
    /// MIFARE Ultralight (MF0ICU1): 16 pages, 48 bytes of user memory (pages 4-15).
    ///
    /// Datasheet MF0ICU1 (MIFARE Ultralight contactless single-ticket IC), section 8.5 (memory
    /// organization): UID and BCC pages 0-2, static lock bytes page 2 bytes 2-3 (8.5.2), OTP page 3
    /// (8.5.3), data pages 4-15 (8.5.4). No dynamic lock bits, no configuration pages, no
    /// GET_VERSION and no authentication. Page 3 ships as 00 00 00 00: the tag maker writes the CC
    /// (an NDEF formatted one is E1 10 06 00, with 03 00 FE in page 4).
    public static let mifareUltralight = Type2Chip(
        name: "MIFARE Ultralight",
        typeCode: "MF0ICU1",
        versionResponses: [],
        pageCount: 16,
        userPages: 4...15,
        dynamicLock: nil,
        configurationPages: nil,
        factoryCapabilityContainer: [0x00, 0x00, 0x00, 0x00],
        factoryData: [],
        features: [.compatibilityWrite]
    )

    /// MIFARE Ultralight C (MF0ICU2): 48 pages, 144 bytes of user memory (pages 4-39).
    ///
    /// Datasheet MF0ICU2 Rev. 3.3, section 7.5 (memory organization): static lock bytes page 2
    /// (7.5.2); lock bytes 2-3 in page 28h (7.5.3), each lock bit locking 4 pages: byte 0 bits 1-3
    /// lock pages 16-19, 20-23, 24-27 and bits 5-7 pages 28-31, 32-35, 36-39; bit 0 block-locks
    /// bits 1-3 and bit 4 bits 5-7. Lock byte 3 (page 28h byte 1) locks the counter, AUTH0, AUTH1
    /// and key pages and is not modelled here (``Type2DynamicLockLayout/byteCount`` is 2 but only
    /// byte 0 bits are listed). 16-bit counter page 29h (7.5.11); AUTH0 page 2Ah (factory 30h = no
    /// protection) and AUTH1 page 2Bh (7.5.8); 3DES key pages 2Ch-2Fh, never readable (7.5.7).
    /// Authentication is 3DES (AUTHENTICATE 1Ah), not PWD_AUTH; no GET_VERSION. Table 13 (initial
    /// memory organization): page 3 is 00 00 00 00 and user memory undefined at delivery.
    public static let mifareUltralightC = Type2Chip(
        name: "MIFARE Ultralight C",
        typeCode: "MF0ICU2",
        versionResponses: [],
        pageCount: 48,
        userPages: 4...39,
        dynamicLock: Type2DynamicLockLayout(
            page: 0x28,
            byteCount: 2,
            pageLockBits: [
                .init(byte: 0, bit: 1, pages: 16...19), .init(byte: 0, bit: 2, pages: 20...23),
                .init(byte: 0, bit: 3, pages: 24...27), .init(byte: 0, bit: 5, pages: 28...31),
                .init(byte: 0, bit: 6, pages: 32...35), .init(byte: 0, bit: 7, pages: 36...39),
            ],
            blockLockBits: [.init(byte: 0, bit: 0, freezes: [0, 1, 2]), .init(byte: 0, bit: 4, freezes: [3, 4, 5])]
        ),
        configurationPages: nil,
        tripleDESPages: TripleDESPages(counter: 0x29, auth0: 0x2A, auth1: 0x2B, key: 0x2C...0x2F),
        factoryCapabilityContainer: [0x00, 0x00, 0x00, 0x00],
        factoryData: [],
        features: [.tripleDESAuthentication, .compatibilityWrite, .pageCounter]
    )

    /// MIFARE Ultralight EV1 MF0UL11: 20 pages, 48 bytes of user memory (pages 4-15).
    ///
    /// Datasheet MF0ULX1 Rev. 3.3, section 8.5 (memory organization): static lock bytes page 2,
    /// no dynamic lock bytes; configuration pages 10h-13h (CFG0: MOD, RFUI, RFUI, AUTH0; CFG1:
    /// ACCESS, VCTID, RFUI, RFUI; PWD; PACK, RFUI). GET_VERSION 00 04 03 01 01 00 0B 03 (subtype 02
    /// is the 50 pF MF0ULH11). Commands (section 9): GET_VERSION, FAST_READ, READ_CNT, INCR_CNT,
    /// CHECK_TEARING_EVENT (three 24-bit counters), READ_SIG, PWD_AUTH, VCSL. Page 3 (OTP) ships as
    /// 00 00 00 00: the tag maker writes the CC.
    public static let mifareUltralightEV1MF0UL11 = Type2Chip(
        name: "MIFARE Ultralight EV1 (MF0UL11)",
        typeCode: "MF0UL11",
        versionResponses: [
            [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03], [0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0B, 0x03],
            [0x00, 0x04, 0x03, 0x03, 0x01, 0x00, 0x0B, 0x03],
        ],
        pageCount: 20,
        userPages: 4...15,
        dynamicLock: nil,
        configurationPages: ConfigurationPages(cfg0: 0x10, cfg1: 0x11, password: 0x12, passwordAcknowledge: 0x13),
        factoryCapabilityContainer: [0x00, 0x00, 0x00, 0x00],
        factoryData: [],
        features: [
            .getVersion, .fastRead, .readCounter, .readSignature, .passwordAuthentication, .compatibilityWrite,
            .oneWayCounters,
        ]
    )

    /// MIFARE Ultralight EV1 MF0UL21: 41 pages, 128 bytes of user memory (pages 4-35).
    ///
    /// Datasheet MF0ULX1 Rev. 3.3, section 8.5 (memory organization): dynamic lock bytes in page
    /// 24h, bytes 0-2: lock bit *n* locks the 2 pages 16 + 2*n* and 17 + 2*n* (byte 0 bits 0-7
    /// pages 16-31, byte 1 bits 0-1 pages 32-35); byte 2 bits 0-4 block-lock the lock bit pairs;
    /// configuration pages 25h-28h as on MF0UL11. GET_VERSION 00 04 03 01 01 00 0E 03 (subtype 02:
    /// MF0ULH21). Page 3 ships as 00 00 00 00.
    public static let mifareUltralightEV1MF0UL21 = Type2Chip(
        name: "MIFARE Ultralight EV1 (MF0UL21)",
        typeCode: "MF0UL21",
        versionResponses: [
            [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03], [0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0E, 0x03],
        ],
        pageCount: 41,
        userPages: 4...35,
        dynamicLock: .grouped(page: 0x24, lastPage: 35, pagesPerBit: 2),
        configurationPages: ConfigurationPages(cfg0: 0x25, cfg1: 0x26, password: 0x27, passwordAcknowledge: 0x28),
        factoryCapabilityContainer: [0x00, 0x00, 0x00, 0x00],
        factoryData: [],
        features: [
            .getVersion, .fastRead, .readCounter, .readSignature, .passwordAuthentication, .compatibilityWrite,
            .oneWayCounters,
        ]
    )
}
