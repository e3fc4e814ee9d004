/// The password configuration of an NTAG21x or MIFARE Ultralight EV1: pages CFG0, CFG1, PWD
/// and PACK (see ``Type2Chip/configurationPages``).
///
/// Datasheet NTAG213/215/216 Rev. 3.2, 8.5.7 (configuration pages), MF0ULX1 8.5 and NTAG210/212
/// 8.5 likewise:
/// - CFG0: MIRROR (NTAG213/215/216: bits 7-6 MIRROR_CONF, bits 5-4 MIRROR_BYTE, bit 2
///   STRG_MOD_EN; MOD on EV1, bit 2 STRG_MOD_EN), RFUI, MIRROR_PAGE, AUTH0.
/// - CFG1: ACCESS, RFUI (VCTID on EV1), RFUI, RFUI. ACCESS: bit 7 PROT (1: read and write need
///   the password, 0: write only), bit 6 CFGLCK (CFG0 and CFG1 locked for good), bit 5 RFUI,
///   bit 4 NFC_CNT_EN, bit 3 NFC_CNT_PWD_PROT, bits 2-0 AUTHLIM (0: unlimited attempts).
///   Bits 4 and 3 are as in the NTAG213/215/216 datasheet table for ACCESS; proxmark3 and the
///   Flipper Zero firmware read them the same way (libfreefare swaps them). They exist only on
///   chips with an NFC counter (``Type2Chip/Features/nfcCounter``).
/// - PWD (4 bytes) and PACK (2 bytes): write-only, READ returns 00h for them.
///
/// Pages from AUTH0 on need PWD_AUTH for writing, and for reading too when PROT is set.
/// Values are kept as raw page bytes so that RFUI bytes survive a rewrite; the properties
/// decode and change them in place.
public struct Type2Configuration: Sendable, Hashable {
    /// What the ASCII mirror puts into user memory (MIRROR_CONF).
    public enum MirrorMode: UInt8, Sendable, Hashable, CaseIterable {
        /// No mirror.
        case none = 0
        /// The UID as 14 hex characters.
        case uid = 1
        /// The NFC counter as 6 hex characters.
        case nfcCounter = 2
        /// The UID, an "x", and the NFC counter (21 characters).
        case uidAndNFCCounter = 3
    }

    /// Where and what the ASCII mirror writes.
    public struct Mirror: Sendable, Hashable {
        /// What is mirrored.
        public var mode: MirrorMode
        /// The byte in ``page`` where the mirror starts (MIRROR_BYTE, 0-3).
        public var byte: Int
        /// The page where the mirror starts (MIRROR_PAGE; below 4 the mirror is off).
        public var page: Int

        /// Creates mirror settings.
        public init(mode: MirrorMode, byte: Int, page: Int) {
            self.mode = mode
            self.byte = byte
            self.page = page
        }
    }

    /// The chip the pages belong to.
    public var chip: Type2Chip
    /// CFG0: MIRROR or MOD, RFUI, MIRROR_PAGE, AUTH0.
    public private(set) var cfg0: [UInt8]
    /// CFG1: ACCESS, RFUI or VCTID, RFUI, RFUI.
    public private(set) var cfg1: [UInt8]
    /// The PWD page (reads back as 00 00 00 00 from a tag).
    public private(set) var passwordPage: [UInt8]
    /// The PACK page: PACK, then 2 RFUI bytes (reads back as zeros from a tag).
    public private(set) var passwordAcknowledgePage: [UInt8]

    /// Reads the configuration of `chip` from a memory image (indexed by byte address).
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` if the chip has no configuration pages,
    ///   ``TagMemoryError/Code/truncatedImage`` if the image ends before the PACK page.
    public init(chip: Type2Chip, memory: [UInt8]) throws(TagMemoryError) {
        guard let pages = chip.configurationPages else {
            throw TagMemoryError(.unsupportedChip, "\(chip.name) has no PWD_AUTH configuration pages")
        }
        let range = Type2Page.firstByte(of: pages.cfg0)..<Type2Page.firstByte(of: pages.passwordAcknowledge + 1)
        guard memory.count >= range.upperBound else {
            throw TagMemoryError(
                .truncatedImage, at: memory.count,
                "the image ends before the configuration pages of \(chip.name) (bytes \(range))")
        }
        try self.init(chip: chip, pages: memory[range])
    }

    /// Creates the configuration from the 16 bytes of CFG0, CFG1, PWD and PACK.
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` if the chip has no configuration pages,
    ///   ``TagMemoryError/Code/invalidArgument`` unless `pages` has 16 bytes.
    public init(chip: Type2Chip, pages: some Collection<UInt8>) throws(TagMemoryError) {
        guard chip.configurationPages != nil else {
            throw TagMemoryError(.unsupportedChip, "\(chip.name) has no PWD_AUTH configuration pages")
        }
        let bytes = Array(pages)
        guard bytes.count == 16 else {
            throw TagMemoryError(.invalidArgument, "the configuration pages are 16 bytes, not \(bytes.count)")
        }
        self.chip = chip
        self.cfg0 = Array(bytes[0..<4])
        self.cfg1 = Array(bytes[4..<8])
        self.passwordPage = Array(bytes[8..<12])
        self.passwordAcknowledgePage = Array(bytes[12..<16])
    }

    /// AUTH0: the first page that needs the password (FFh at the factory: none).
    public var auth0: UInt8 {
        get { cfg0[3] }
        set { cfg0[3] = newValue }
    }

    /// The ACCESS byte, raw.
    public var access: UInt8 {
        get { cfg1[0] }
        set { cfg1[0] = newValue }
    }

    /// PROT: whether reading protected pages needs the password too.
    public var isReadProtected: Bool {
        get { access & 0x80 != 0 }
        set { setAccess(0x80, newValue) }
    }

    /// CFGLCK: whether CFG0 and CFG1 are locked for good (PWD and PACK stay writable).
    public var isConfigurationLocked: Bool {
        get { access & 0x40 != 0 }
        set { setAccess(0x40, newValue) }
    }

    /// NFC_CNT_EN (bit 4): whether the NFC counter counts (chips with an NFC counter only).
    public var isNFCCounterEnabled: Bool {
        get { chip.features.contains(.nfcCounter) && access & 0x10 != 0 }
        set { setAccess(0x10, newValue) }
    }

    /// NFC_CNT_PWD_PROT (bit 3): whether READ_CNT needs the password (chips with an NFC counter).
    public var isNFCCounterPasswordProtected: Bool {
        get { chip.features.contains(.nfcCounter) && access & 0x08 != 0 }
        set { setAccess(0x08, newValue) }
    }

    /// AUTHLIM: failed PWD_AUTH attempts allowed before protected pages are lost for good
    /// (0: unlimited). Values are clamped to 0-7.
    public var authenticationLimit: Int {
        get { Int(access & 0x07) }
        set { access = access & 0xF8 | UInt8(clamping: max(0, min(newValue, 7))) }
    }

    /// STRG_MOD_EN (bit 2 of CFG0 byte 0): strong modulation.
    public var isStrongModulationEnabled: Bool {
        get { cfg0[0] & 0x04 != 0 }
        set { cfg0[0] = newValue ? cfg0[0] | 0x04 : cfg0[0] & ~0x04 }
    }

    /// The ASCII mirror settings, on chips that have the mirror (NTAG213/215/216); nil otherwise.
    /// Setting nil on such a chip turns the mirror off.
    public var mirror: Mirror? {
        get {
            guard chip.features.contains(.asciiMirror) else { return nil }
            let mode = MirrorMode(rawValue: cfg0[0] >> 6) ?? .none
            return Mirror(mode: mode, byte: Int(cfg0[0] >> 4 & 0x03), page: Int(cfg0[2]))
        }
        set {
            guard chip.features.contains(.asciiMirror) else { return }
            let mirror = newValue ?? Mirror(mode: .none, byte: 0, page: 0)
            let byte = UInt8(clamping: max(0, min(mirror.byte, 3)))
            cfg0[0] = mirror.mode.rawValue << 6 | byte << 4 | cfg0[0] & 0x0F
            cfg0[2] = UInt8(clamping: max(0, min(mirror.page, 255)))
        }
    }

    /// The 4 password bytes as stored (zeros when read from a tag).
    public var password: [UInt8] {
        get { passwordPage }
        set { passwordPage = Self.fit(newValue, count: 4) }
    }

    /// The 2 PACK bytes as stored (zeros when read from a tag).
    public var passwordAcknowledge: [UInt8] {
        get { Array(passwordAcknowledgePage[0..<2]) }
        set { passwordAcknowledgePage[0..<2] = Self.fit(newValue, count: 2)[...] }
    }

    /// The first password-protected page, or nil when AUTH0 is past the last page.
    public var firstProtectedPage: Int? { Int(auth0) < chip.pageCount ? Int(auth0) : nil }

    /// Whether writing `page` needs PWD_AUTH (page ≥ AUTH0).
    public func isPageWriteProtected(_ page: Int) -> Bool {
        firstProtectedPage.map { page >= $0 } ?? false
    }

    /// Whether reading `page` needs PWD_AUTH (PROT set and page ≥ AUTH0).
    public func isPageReadProtected(_ page: Int) -> Bool { isReadProtected && isPageWriteProtected(page) }

    /// Whether `page` is locked by CFGLCK (CFG0 and CFG1 only).
    public func isPageLocked(_ page: Int) -> Bool {
        guard isConfigurationLocked, let pages = chip.configurationPages else { return false }
        return page == pages.cfg0 || page == pages.cfg1
    }

    /// The page numbers and bytes of the four configuration pages, in address order.
    public var pageContents: [(page: Int, bytes: [UInt8])] {
        guard let pages = chip.configurationPages else { return [] }
        return [
            (pages.cfg0, cfg0), (pages.cfg1, cfg1), (pages.password, passwordPage),
            (pages.passwordAcknowledge, passwordAcknowledgePage),
        ]
    }

    private mutating func setAccess(_ mask: UInt8, _ on: Bool) {
        access = on ? access | mask : access & ~mask
    }

    private static func fit(_ bytes: [UInt8], count: Int) -> [UInt8] {
        Array((bytes + [UInt8](repeating: 0, count: count)).prefix(count))
    }
}
