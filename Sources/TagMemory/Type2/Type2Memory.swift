import NDEF

/// The memory image of an NFC Forum Type 2 tag, read as far as it goes.
///
/// Any image is accepted: too short, cut mid-page, or hostile. Each part is parsed if the
/// image holds it (NFC Forum Type 2 Tag 1.1, section 2 for the memory structure, 6 for NDEF):
/// - bytes 0-8: the 7-byte UID and its check bytes BCC0 = 88h ⊕ UID0 ⊕ UID1 ⊕ UID2 and
///   BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6 (ISO/IEC 14443-3 cascade level 2; 2.1.1);
/// - bytes 10-11: the static lock bytes (2.1.2);
/// - bytes 12-15: the capability container (6.1);
/// - from byte 16: the data area and its TLV blocks (2.3), up to the size the CC announces,
///   or up to the end of the chip's user memory when the CC announces more.
///
/// Nothing here throws: what could not be read is nil and ``problem`` says why. The NDEF status
/// (``ndefStatus``) and the addresses a writer needs (``ndefTLVAddress``, ``dataArea``,
/// ``dataRanges(from:)``) are derived from these parts.
public struct Type2Memory: Sendable, Hashable {
    /// The image, indexed by byte address (byte 0 = page 0 byte 0).
    public let bytes: [UInt8]
    /// The chip, when known (from GET_VERSION or the page count): lock bits, configuration.
    public let chip: Type2Chip?
    /// The capability container, if the image reaches byte 16.
    public let capabilityContainer: Type2CapabilityContainer?
    /// The TLV blocks of the data area, if the CC is an NDEF CC of a known version.
    public let tlvScan: TagTLVScan?
    /// The address of the first NDEF Message TLV's T byte, also when its length is malformed.
    public let ndefTLVAddress: Int?
    /// The bytes of the NDEF message (the NDEF TLV's value, around reserved bytes).
    public let ndefMessageBytes: [UInt8]?
    /// The NDEF message, strictly decoded; nil for an empty NDEF TLV (an INITIALIZED tag, 6.3.1).
    public let message: NFCNDEFMessage?
    /// The first problem that keeps the NDEF message from being read, if any.
    public let problem: TagMemoryError?

    /// Parses `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the memory image from page 0 on.
    ///   - chip: the chip, when known; it bounds the data area and gives the lock layout.
    ///   - options: limits for decoding the NDEF message.
    public init(bytes: [UInt8], chip: Type2Chip? = nil, options: NDEFDecodingOptions = NDEFDecodingOptions()) {
        self.bytes = bytes
        self.chip = chip
        let cc = try? Type2CapabilityContainer(bytes: bytes.dropFirst(12).prefix(4))
        self.capabilityContainer = cc
        guard let cc else {
            self.tlvScan = nil
            self.ndefTLVAddress = nil
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem = TagMemoryError(
                .truncatedImage, at: bytes.count, "the image ends before the capability container (bytes 12-15)")
            return
        }
        if let problem = cc.problem {
            self.tlvScan = nil
            self.ndefTLVAddress = nil
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem = problem
            return
        }
        let area = Self.dataArea(capabilityContainer: cc, chip: chip)
        let scan = TagTLVScanner.scan(bytes[...], area: area)
        self.tlvScan = scan
        let ndef = scan.firstNDEFMessage
        self.ndefTLVAddress = ndef?.typeAddress ?? (scan.failedType == 0x03 ? scan.failedTypeAddress : nil)
        guard let ndef else {
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem =
                scan.error
                ?? TagMemoryError(.notFormatted, at: area.lowerBound, "the data area holds no NDEF Message TLV")
            return
        }
        let value = ndef.value(in: bytes[...])
        self.ndefMessageBytes = value
        (message, problem) = ndef.decodedMessage(value, options: options)
    }

    /// The data area a reader uses: from byte 16, the size in the CC, cut to the chip's user
    /// memory when the chip is known (a CC may announce more than the chip has).
    public static func dataArea(capabilityContainer cc: Type2CapabilityContainer, chip: Type2Chip?) -> Range<Int> {
        var size = cc.dataAreaSize
        if let chip { size = min(size, chip.userBytes.upperBound - Type2Page.dataAreaStart) }
        return Type2Page.dataAreaStart..<(Type2Page.dataAreaStart + max(0, size))
    }

    /// The data area, when the CC is an NDEF CC of a known version.
    public var dataArea: Range<Int>? {
        guard let cc = capabilityContainer, cc.problem == nil else { return nil }
        return Self.dataArea(capabilityContainer: cc, chip: chip)
    }

    /// The 7-byte UID (bytes 0-2 and 4-7), if the image holds it.
    public var uid: [UInt8]? {
        guard bytes.count >= 8 else { return nil }
        return Array(bytes[0..<3] + bytes[4..<8])
    }

    /// Whether BCC0 (byte 3) equals 88h ⊕ UID0 ⊕ UID1 ⊕ UID2; nil if the image is shorter.
    public var isBCC0Valid: Bool? {
        guard bytes.count >= 4 else { return nil }
        return bytes[3] == 0x88 ^ bytes[0] ^ bytes[1] ^ bytes[2]
    }

    /// Whether BCC1 (byte 8) equals UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6; nil if the image is shorter.
    public var isBCC1Valid: Bool? {
        guard bytes.count >= 9 else { return nil }
        return bytes[8] == bytes[4] ^ bytes[5] ^ bytes[6] ^ bytes[7]
    }

    /// The static lock bytes (bytes 10-11), if the image holds them.
    public var staticLock: Type2StaticLock? {
        guard bytes.count >= 12 else { return nil }
        return Type2StaticLock(lock0: bytes[10], lock1: bytes[11])
    }

    /// The TLV blocks read from the data area (empty when none could be).
    public var tlvs: [TagTLV] { tlvScan?.tlvs ?? [] }

    /// The first NDEF Message TLV, if one was read whole.
    public var ndefTLV: TagTLV? { tlvScan?.firstNDEFMessage }

    /// The byte ranges Lock Control and Memory Control TLVs reserve (T2T 1.1, 2.2.1, 2.3.2, 2.3.3).
    public var reservedRanges: ReservedByteRanges { tlvScan?.reserved ?? ReservedByteRanges() }

    /// The 4 bytes of `page`, or nil if the image does not hold all of them.
    public func page(_ page: Int) -> [UInt8]? {
        guard page >= 0, page < bytes.count / Type2Page.size else { return nil }
        return Array(bytes[Type2Page.bytes(of: page)])
    }

    /// The password configuration, for a known chip with configuration pages the image holds.
    public var configuration: Type2Configuration? {
        guard let chip, chip.configurationPages != nil else { return nil }
        return try? Type2Configuration(chip: chip, memory: bytes)
    }
}

/// Page and byte address arithmetic for NFC Forum Type 2 tags.
///
/// A Type 2 tag's memory is addressed in pages of 4 bytes (T2T 1.1, section 2; READ returns
/// 4 pages from a page address, WRITE writes one page, 5.1 and 5.2). Byte addresses count from
/// byte 0 of page 0, so the capability container is bytes 12-15 and the data area starts at 16.
public enum Type2Page {
    /// The number of bytes in a page.
    public static let size = 4

    /// The page holding byte `address`.
    public static func containing(byte address: Int) -> Int {
        address >= 0 ? address / size : (address - size + 1) / size
    }

    /// The byte address of the first byte of `page`.
    public static func firstByte(of page: Int) -> Int { page * size }

    /// The byte addresses of `page`.
    public static func bytes(of page: Int) -> Range<Int> { (page * size)..<(page * size + size) }

    /// The 4 bytes of `page` in `image`; nil when the image does not hold them.
    public static func contents(of page: Int, in image: [UInt8]) -> [UInt8]? {
        let range = bytes(of: page)
        guard page >= 0, range.upperBound <= image.count else { return nil }
        return Array(image[range])
    }

    /// The pages a non-empty byte range touches, or nil for an empty range.
    public static func pages(covering range: Range<Int>) -> ClosedRange<Int>? {
        guard !range.isEmpty else { return nil }
        return containing(byte: range.lowerBound)...containing(byte: range.upperBound - 1)
    }

    /// The offset of byte `address` inside its page (0-3).
    public static func offset(ofByte address: Int) -> Int { address - containing(byte: address) * size }

    /// The first byte address of the data area (page 4, T2T 1.1, 2.1).
    public static let dataAreaStart = 16

    /// The byte addresses of the capability container (page 3, T2T 1.1, 6.1).
    public static let capabilityContainerBytes = 12..<16

    /// The byte addresses of the static lock bytes (page 2, bytes 2-3, T2T 1.1, 2.1.2).
    public static let staticLockBytes = 10..<12
}

/// One part of a Type 2 tag's memory map: what a byte range holds.
///
/// ``Type2Memory/regions`` lists them for an image. The parts come from NFC Forum Type 2 Tag
/// 1.1, section 2.1 (UID, static lock bytes, capability container, data area), 2.2.1 and 2.3
/// (bytes reserved by Lock Control and Memory Control TLVs) and from the chip's datasheet
/// (dynamic lock bytes, configuration pages, counters and keys; see ``Type2Chip``).
public struct Type2MemoryRegion: Sendable, Hashable {
    /// What a region holds.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Bytes 0-7: UID0-2, BCC0, UID3-6, written and locked at the factory (2.1.1).
        case uid
        /// Page 2: BCC1, an internal byte and the two static lock bytes (2.1.1, 2.1.2).
        case staticLock
        /// Page 3: the capability container (6.1).
        case capabilityContainer
        /// The NDEF data area the capability container announces, from byte 16 (2.1, 6.1).
        case dataArea
        /// User memory of the chip outside the data area: all of it when the capability
        /// container is not an NDEF one, else what lies past the announced size.
        case userMemory
        /// Bytes a Lock Control or Memory Control TLV reserves; TLVs flow around them (2.2.1).
        case reservedByTLV
        /// The chip's dynamic lock bytes, or for an unknown chip the ones a Lock Control TLV or
        /// the NFC Forum default (2.2.2) places.
        case dynamicLock
        /// The PWD_AUTH configuration pages: CFG0, CFG1, PWD, PACK (NTAG21x, Ultralight EV1).
        case configuration
        /// The 16-bit one-way counter page (MIFARE Ultralight C).
        case counter
        /// The AUTH0 and AUTH1 pages of 3DES authentication (MIFARE Ultralight C).
        case authentication
        /// The 3DES key pages, which READ never returns (MIFARE Ultralight C).
        case key
        /// Image bytes past the chip's last page.
        case beyondChip
        /// Bytes whose role is unknown: no chip and no NDEF capability container tell.
        case unknown
    }

    /// What the region holds.
    public var kind: Kind
    /// The byte addresses.
    public var bytes: Range<Int>

    /// Creates a region.
    public init(kind: Kind, bytes: Range<Int>) {
        self.kind = kind
        self.bytes = bytes
    }

    /// The pages the region touches (nil for an empty region).
    public var pages: ClosedRange<Int>? { Type2Page.pages(covering: bytes) }

    /// Whether the region covers whole pages.
    public var isWholePages: Bool {
        bytes.lowerBound % Type2Page.size == 0 && bytes.upperBound % Type2Page.size == 0
    }
}

extension Type2Memory {
    /// The memory map: every part of the chip's memory (or, for an unknown chip, of the image)
    /// with what it holds, ordered by address.
    ///
    /// The regions cover the chip's pages (``Type2Chip/pageCount``) when the chip is known,
    /// else the image; pages past the end of the image are still listed for a known chip, and
    /// image bytes past the chip are ``Type2MemoryRegion/Kind/beyondChip``. Bytes reserved by
    /// Lock Control and Memory Control TLVs (``reservedRanges``) are listed as well, inside the
    /// region they fall in, so regions of that kind overlap others; all other regions are
    /// disjoint.
    public var regions: [Type2MemoryRegion] {
        let imageEnd = bytes.count
        let end = max(imageEnd, chip.map { $0.pageCount * Type2Page.size } ?? 0)
        var regions: [Type2MemoryRegion] = []
        func add(_ kind: Type2MemoryRegion.Kind, _ range: Range<Int>) {
            let clamped = range.clamped(to: 0..<end)
            if !clamped.isEmpty { regions.append(Type2MemoryRegion(kind: kind, bytes: clamped)) }
        }
        // From `start` to `stop`, empty when `stop` comes first (never a trapping range).
        func add(_ kind: Type2MemoryRegion.Kind, from start: Int, to stop: Int) {
            add(kind, start..<max(start, stop))
        }
        add(.uid, 0..<8)
        add(.staticLock, 8..<12)
        add(.capabilityContainer, Type2Page.capabilityContainerBytes)
        var covered = Type2Page.dataAreaStart
        if let area = dataArea {
            add(.dataArea, area)
            covered = area.upperBound
        }
        if let chip {
            let user = chip.userBytes
            add(.userMemory, from: max(covered, user.lowerBound), to: user.upperBound)
            if let lock = chip.dynamicLock { add(.dynamicLock, Type2Page.bytes(of: lock.page)) }
            if let pages = chip.configurationPages {
                let first = Type2Page.firstByte(of: pages.cfg0)
                add(.configuration, from: first, to: Type2Page.firstByte(of: pages.passwordAcknowledge + 1))
            }
            if let pages = chip.tripleDESPages {
                add(.counter, Type2Page.bytes(of: pages.counter))
                add(
                    .authentication, from: Type2Page.firstByte(of: pages.auth0),
                    to: Type2Page.firstByte(of: pages.auth1 + 1))
                let key = Type2Page.firstByte(of: pages.key.lowerBound)
                add(.key, from: key, to: Type2Page.firstByte(of: pages.key.upperBound + 1))
            }
            add(.beyondChip, from: chip.pageCount * Type2Page.size, to: imageEnd)
        } else {
            if let generic = genericDynamicLock, generic.lockBytes.lowerBound >= covered {
                add(.unknown, from: covered, to: generic.lockBytes.lowerBound)
                add(.dynamicLock, generic.lockBytes)
                covered = max(covered, generic.lockBytes.upperBound)
            }
            add(.unknown, from: covered, to: imageEnd)
        }
        for range in reservedRanges.ranges { add(.reservedByTLV, range) }
        return regions.sorted { lhs, rhs in
            if lhs.bytes.lowerBound != rhs.bytes.lowerBound { return lhs.bytes.lowerBound < rhs.bytes.lowerBound }
            return lhs.kind != .reservedByTLV && rhs.kind == .reservedByTLV
        }
    }
}
