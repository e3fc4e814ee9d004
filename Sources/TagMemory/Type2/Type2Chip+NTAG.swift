extension Type2Chip {
    /// NTAG210 (NT2L1011/NT2H1011): 20 pages, 48 bytes of user memory (pages 4-15).
    ///
    /// Datasheet NTAG210/212 Rev. 3.x, section 8.5 (memory organization): static lock bytes only;
    /// configuration pages 10h-13h (CFG0: MIRROR, RFUI, MIRROR_PAGE, AUTH0; CFG1: ACCESS with PROT
    /// and CFGLCK, AUTHLIM; PWD; PACK). NXP formats it: CC E1 10 06 00 and an empty NDEF TLV
    /// 03 00 FE in page 4. GET_VERSION 00 04 04 01 01 00 0B 03. FAST_READ, READ_SIG, PWD_AUTH; no
    /// NFC counter.
    public static let ntag210 = Type2Chip(
        name: "NTAG210",
        typeCode: "NT2L1011",
        versionResponses: [
            [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03], [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0B, 0x03],
        ],
        pageCount: 20,
        userPages: 4...15,
        dynamicLock: nil,
        configurationPages: ConfigurationPages(cfg0: 0x10, cfg1: 0x11, password: 0x12, passwordAcknowledge: 0x13),
        factoryCapabilityContainer: [0xE1, 0x10, 0x06, 0x00],
        factoryData: [0x03, 0x00, 0xFE],
        features: [.getVersion, .fastRead, .readSignature, .passwordAuthentication, .compatibilityWrite]
    )

    /// NTAG212 (NT2L1211): 41 pages, 128 bytes of user memory (pages 4-35).
    ///
    /// Datasheet NTAG210/212 Rev. 3.x, section 8.5 (memory organization): dynamic lock bytes in
    /// page 24h, 2 pages per lock bit (pages 16-35, 10 bits), byte 2 bits 0-4 block-lock the pairs;
    /// configuration pages 25h-28h. Factory CC E1 10 10 00; factory data a Lock Control TLV naming
    /// page 24h (10 bits, 8 bytes per bit) and an empty NDEF TLV: 01 03 90 0A 34 03 00 FE.
    /// GET_VERSION 00 04 04 01 01 00 0E 03.
    public static let ntag212 = Type2Chip(
        name: "NTAG212",
        typeCode: "NT2L1211",
        versionResponses: [[0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03]],
        pageCount: 41,
        userPages: 4...35,
        dynamicLock: .grouped(page: 0x24, lastPage: 35, pagesPerBit: 2),
        configurationPages: ConfigurationPages(cfg0: 0x25, cfg1: 0x26, password: 0x27, passwordAcknowledge: 0x28),
        factoryCapabilityContainer: [0xE1, 0x10, 0x10, 0x00],
        factoryData: [0x01, 0x03, 0x90, 0x0A, 0x34, 0x03, 0x00, 0xFE],
        features: [.getVersion, .fastRead, .readSignature, .passwordAuthentication, .compatibilityWrite]
    )

    /// NTAG213 (NT2H1311): 45 pages, 144 bytes of user memory (pages 4-39).
    ///
    /// Datasheet NTAG213/215/216 Rev. 3.2, section 8.5 (memory organization): static lock bytes
    /// (8.5.2); dynamic lock bytes page 28h bytes 0-2 (8.5.3): lock bit *n* locks pages 16 + 2*n*
    /// and 17 + 2*n* (byte 0 pages 16-31, byte 1 bits 0-3 pages 32-39), byte 2 bits 0-5 are the
    /// block-lock bits BL16-19 ... BL36-39, byte 3 must be 00h; CC E1 10 12 00 (8.5.6); factory
    /// data 01 03 A0 0C 34 03 00 FE (Lock Control TLV, empty NDEF TLV); configuration pages
    /// 29h-2Ch (8.5.7). GET_VERSION 00 04 04 02 01 00 0F 03. READ_CNT (NFC counter), FAST_READ,
    /// READ_SIG, PWD_AUTH, UID/counter ASCII mirror.
    public static let ntag213 = Type2Chip(
        name: "NTAG213",
        typeCode: "NT2H1311",
        versionResponses: [[0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]],
        pageCount: 45,
        userPages: 4...39,
        dynamicLock: .grouped(page: 0x28, lastPage: 39, pagesPerBit: 2),
        configurationPages: ConfigurationPages(cfg0: 0x29, cfg1: 0x2A, password: 0x2B, passwordAcknowledge: 0x2C),
        factoryCapabilityContainer: [0xE1, 0x10, 0x12, 0x00],
        factoryData: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE],
        features: ntag21xFeatures
    )

    /// NTAG215 (NT2H1511): 135 pages, 504 bytes of user memory (pages 4-129).
    ///
    /// Datasheet NTAG213/215/216 Rev. 3.2, section 8.5: dynamic lock bytes page 82h (8.5.3), each
    /// lock bit locking 16 pages (byte 0 bit *n*: pages 16 + 16*n* to 31 + 16*n*, bit 7 pages
    /// 128-129), byte 2 bits 0-3 block-lock the bit pairs; CC E1 10 3E 00, announcing 496 bytes
    /// (8.5.6), and no Lock Control TLV: factory data 03 00 FE; configuration pages 83h-86h
    /// (8.5.7). The NFC Forum default lock location (16 + 496 = byte 512, page 80h) is not where
    /// the lock bytes are. GET_VERSION 00 04 04 02 01 00 11 03.
    public static let ntag215 = Type2Chip(
        name: "NTAG215",
        typeCode: "NT2H1511",
        versionResponses: [[0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]],
        pageCount: 135,
        userPages: 4...129,
        dynamicLock: .grouped(page: 0x82, lastPage: 129, pagesPerBit: 16),
        configurationPages: ConfigurationPages(cfg0: 0x83, cfg1: 0x84, password: 0x85, passwordAcknowledge: 0x86),
        factoryCapabilityContainer: [0xE1, 0x10, 0x3E, 0x00],
        factoryData: [0x03, 0x00, 0xFE],
        features: ntag21xFeatures
    )

    /// NTAG216 (NT2H1611): 231 pages, 888 bytes of user memory (pages 4-225).
    ///
    /// Datasheet NTAG213/215/216 Rev. 3.2, section 8.5: dynamic lock bytes page E2h (8.5.3), each
    /// lock bit locking 16 pages (byte 0 pages 16-143, byte 1 bits 0-5 pages 144-225, bit 5 only
    /// pages 224-225), byte 2 bits 0-6 block-lock the bit pairs; CC E1 10 6D 00, announcing 872
    /// bytes (8.5.6), factory data 03 00 FE; configuration pages E3h-E6h (8.5.7).
    /// GET_VERSION 00 04 04 02 01 00 13 03.
    public static let ntag216 = Type2Chip(
        name: "NTAG216",
        typeCode: "NT2H1611",
        versionResponses: [[0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]],
        pageCount: 231,
        userPages: 4...225,
        dynamicLock: .grouped(page: 0xE2, lastPage: 225, pagesPerBit: 16),
        configurationPages: ConfigurationPages(cfg0: 0xE3, cfg1: 0xE4, password: 0xE5, passwordAcknowledge: 0xE6),
        factoryCapabilityContainer: [0xE1, 0x10, 0x6D, 0x00],
        factoryData: [0x03, 0x00, 0xFE],
        features: ntag21xFeatures
    )

    /// The commands and functions of NTAG213/215/216 (datasheet section 10, command overview).
    private static let ntag21xFeatures: Features = [
        .getVersion, .fastRead, .readCounter, .readSignature, .passwordAuthentication, .compatibilityWrite,
        .asciiMirror, .nfcCounter,
    ]
}
