import HexText

/// A dumped tag: its memory image and whatever the dump file knows about the tag.
///
/// Dump files are how a real tag reaches the tool (`ndeftool inspect FILE`) and where a
/// simulated tag keeps its state. A dump is read from bytes with ``init(decoding:fileName:)``
/// or ``init(decoding:format:layout:)`` and written with ``encoded(as:)``; the formats and
/// their exact layouts are described on ``TagDumpFormat``. Nothing here touches files: the
/// caller reads and writes them.
///
/// For a Type 2 tag (MIFARE Ultralight, NTAG) ``memory`` is the pages from page 0, four bytes
/// each (NFC Forum T2T 1.0, section 2.1; NXP NTAG213/215/216 datasheet, section 8.5); for a
/// MIFARE Classic card it is the blocks from block 0, sixteen bytes each (NXP MF1S50yyX,
/// section 8.6). The other fields are nil when the format does not record them.
///
/// PWD and PACK live in the memory image, at the pages the chip keeps them in, when the tool
/// that made the dump knew them (a tag always reads them back as zeros): see ``password``.
/// ``description`` never shows them.
public struct TagDump: Sendable, Hashable, CustomStringConvertible {
    /// How the memory image is divided.
    public enum Layout: String, Sendable, Hashable, Codable, CaseIterable {
        /// NFC Forum Type 2 tag: 4-byte pages (T2T 1.0, section 2.1).
        case type2
        /// MIFARE Classic: 16-byte blocks, four per sector below 2 KiB (MF1S50yyX, section 8.6).
        case mifareClassic = "mifare-classic"

        /// The bytes in one page (Type 2) or block (MIFARE Classic).
        public var unitSize: Int {
            switch self {
            case .type2: 4
            case .mifareClassic: 16
            }
        }
    }

    /// The largest memory image a dump may hold, in bytes (a MIFARE Classic 4K card holds 4096,
    /// the largest NTAG I2C plus 1968). Larger files are refused, never allocated.
    public static let maximumMemorySize = 16_384

    /// The largest file the readers accept, in bytes (1 MiB). The largest real dumps are a few
    /// tens of kilobytes; a caller can refuse a bigger file before reading it.
    public static let maximumFileSize = 1 << 20

    /// How ``memory`` is divided into pages or blocks.
    public var layout: Layout
    /// The memory image: pages (Type 2) or blocks (MIFARE Classic) back to back from 0.
    public var memory: [UInt8]
    /// The UID (4, 7 or 10 bytes) as the dump states it.
    public var uid: [UInt8]?
    /// ATQA (SENS_RES), two bytes, most significant first as `nfc-list` shows it (`00 44` for
    /// Ultralight and NTAG; ISO/IEC 14443-3, 6.5.2).
    public var atqa: [UInt8]?
    /// SAK (SEL_RES) (ISO/IEC 14443-3, 6.5.3.4).
    public var sak: UInt8?
    /// The 8-byte GET_VERSION response (NTAG213/215/216 datasheet, 10.1; MF0ULX1, 8.8.3).
    public var version: [UInt8]?
    /// The 32-byte READ_SIG response, the originality signature (NTAG213/215/216, 10.8).
    public var signature: [UInt8]?
    /// The one-way counters as READ_CNT returns them: three on Ultralight EV1 (MF0ULX1, 8.7),
    /// the NFC counter at index 2 on NTAG21x (NTAG213/215/216, 8.11). Values are 24-bit.
    public var counters: [UInt32]?
    /// The tearing flags as CHECK_TEARING_EVENT returns them (MF0ULX1, 8.8.10), one per counter.
    public var tearingFlags: [UInt8]?
    /// The chip or device type exactly as the file names it (for example `NTAG215`).
    public var chipName: String?
    /// How many pages the reading tool managed to read, when the file says; the rest of
    /// ``memory`` holds whatever the tool filled in (Flipper writes zeros).
    public var readPageCount: Int?
    /// Failed PWD_AUTH attempts the tool counted (Flipper's `Failed authentication attempts`).
    public var failedAuthenticationAttempts: UInt32?

    /// Creates a dump.
    public init(
        layout: Layout = .type2,
        memory: [UInt8],
        uid: [UInt8]? = nil,
        atqa: [UInt8]? = nil,
        sak: UInt8? = nil,
        version: [UInt8]? = nil,
        signature: [UInt8]? = nil,
        counters: [UInt32]? = nil,
        tearingFlags: [UInt8]? = nil,
        chipName: String? = nil,
        readPageCount: Int? = nil,
        failedAuthenticationAttempts: UInt32? = nil
    ) {
        self.layout = layout
        self.memory = memory
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.version = version
        self.signature = signature
        self.counters = counters
        self.tearingFlags = tearingFlags
        self.chipName = chipName
        self.readPageCount = readPageCount
        self.failedAuthenticationAttempts = failedAuthenticationAttempts
    }

    /// The number of whole pages (Type 2) or blocks (MIFARE Classic) in ``memory``.
    public var pageCount: Int { memory.count / layout.unitSize }

    /// The bytes of page (or block) `index`, or nil when the memory image does not reach it.
    public func page(_ index: Int) -> ArraySlice<UInt8>? {
        let size = layout.unitSize
        guard index >= 0, index < pageCount else { return nil }
        return memory[(index * size)..<(index * size + size)]
    }

    /// The UID the dump states, or else the one in pages 0-2 of a Type 2 image (UID0-2 in page
    /// 0 before BCC0, UID3-6 in page 1; NTAG213/215/216 datasheet, 8.5.1).
    public var effectiveUID: [UInt8]? {
        if let uid { return uid }
        guard layout == .type2, memory.count >= 8 else { return nil }
        return Array(memory[0..<3]) + Array(memory[4..<8])
    }

    /// The PWD recorded in the memory image, when the chip is known and the dump tool wrote it.
    ///
    /// The chip is the one ``chipIdentification`` finds (GET_VERSION, else ``chipName``, else
    /// the page count of a libnfc dump) and the page is the catalogue's: PWD sits at page
    /// 0x2B/0x85/0xE5 on NTAG213/215/216 (datasheet 8.5.7), 0x12/0x27 on MF0UL11/MF0UL21
    /// (MF0ULX1, 8.5). A chip outside ``Type2ChipCatalogue`` gives nil. A tag reads PWD back as
    /// zeros, so zeros mean "not recorded" and give nil; libnfc (`--pw`), proxmark3 and Flipper
    /// store a known password.
    public var password: [UInt8]? {
        guard let page = passwordPage, let bytes = self.page(page), bytes.contains(where: { $0 != 0 }) else {
            return nil
        }
        return Array(bytes)
    }

    /// The 2-byte PACK recorded in the page after PWD, under the same rules as ``password``.
    public var passwordAcknowledge: [UInt8]? {
        guard let page = passwordPage, let bytes = self.page(page + 1)?.prefix(2),
            bytes.contains(where: { $0 != 0 })
        else { return nil }
        return Array(bytes)
    }

    /// The PWD page of the chip this dump is from, when the chip can be told.
    private var passwordPage: Int? { chipIdentification?.passwordPage }

    /// One line: the chip (as the file names it or GET_VERSION identifies it), the size, the
    /// UID and how much was read. Never PWD or PACK.
    public var description: String {
        var parts: [String] = []
        let unit = layout == .type2 ? "page" : "block"
        let fallback = layout == .type2 ? "Type 2 tag" : "MIFARE Classic"
        let identified = version.flatMap { Type2ChipCatalogue.chip(forVersion: $0) }?.name
        let name = chipName ?? (layout == .type2 ? identified : nil) ?? fallback
        parts.append("\(name): \(pageCount) \(unit)\(pageCount == 1 ? "" : "s") (\(memory.count) bytes)")
        if let uid = effectiveUID { parts.append("UID " + Hex.encode(uid, uppercase: true, separator: ":")) }
        if let read = readPageCount, read != pageCount { parts.append("\(read) of \(pageCount) \(unit)s read") }
        return parts.joined(separator: ", ")
    }
}

extension TagDump.Layout {
    /// The sizes, in bytes, of MIFARE Classic images as libnfc `utils/nfc-mfclassic.c` writes
    /// them: Mini (20 blocks), 1K (64), Plus 2K (128) and 4K (256).
    public static let mifareClassicImageSizes: Set<Int> = [320, 1024, 2048, 4096]

    /// Guesses how an image without other clues is divided.
    ///
    /// An image is taken for MIFARE Classic only when its size is one of
    /// ``mifareClassicImageSizes``, its first bytes are not a Type 2 UID (page 0 byte 3 is
    /// BCC0 = 0x88 ⊕ UID0 ⊕ UID1 ⊕ UID2 and page 2 byte 0 is BCC1 = UID3 ⊕ … ⊕ UID6;
    /// ISO/IEC 14443-3 6.5.4, NTAG213/215/216 datasheet 8.5.1) and at least one sector trailer
    /// among the first 16 sectors (of 4 blocks each) carries self-consistent access bits (each of C1, C2, C3
    /// stored once plain and once inverted in bytes 6-8; MF1S50yyX section 8.7).
    public static func guess(for memory: [UInt8]) -> Self {
        guard mifareClassicImageSizes.contains(memory.count) else { return .type2 }
        if hasType2UID(memory) { return .type2 }
        for sector in 0..<min(16, memory.count / 64) {
            let trailer = (sector * 4 + 3) * 16
            if accessBitsAreConsistent(memory[(trailer + 6)..<(trailer + 9)]) { return .mifareClassic }
        }
        return .type2
    }

    /// Whether pages 0-2 hold a 7-byte UID with both check bytes right.
    static func hasType2UID(_ memory: [UInt8]) -> Bool {
        guard memory.count >= 9 else { return false }
        let bcc0 = 0x88 ^ memory[0] ^ memory[1] ^ memory[2]
        let bcc1 = memory[4] ^ memory[5] ^ memory[6] ^ memory[7]
        return memory[3] == bcc0 && memory[8] == bcc1
    }

    /// Whether three access-condition bytes store every bit once inverted and once plain:
    /// byte 6 = ¬C2 ¬C1, byte 7 = C1 ¬C3, byte 8 = C3 C2 (high nibble first).
    static func accessBitsAreConsistent(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 3 else { return false }
        let b6 = bytes[bytes.startIndex]
        let b7 = bytes[bytes.startIndex + 1]
        let b8 = bytes[bytes.startIndex + 2]
        let c1 = b7 >> 4
        let c2 = b8 & 0x0F
        let c3 = b8 >> 4
        return (~b6 & 0x0F) == c1 && (~b6 >> 4) == c2 && (~b7 & 0x0F) == c3
    }
}
