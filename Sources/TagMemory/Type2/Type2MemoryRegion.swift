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
