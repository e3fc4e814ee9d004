import TagMemory

/// One region of the memory map (``Type2Memory/regions``), as `inspect` lists it.
package struct InspectRegionFacts: Encodable {
    /// The region.
    package var region: Type2MemoryRegion

    /// What a region holds, in words.
    package static func meaning(_ kind: Type2MemoryRegion.Kind) -> String {
        switch kind {
        case .uid: "UID0-2, BCC0, UID3-6 (locked at the factory)"
        case .staticLock: "BCC1, internal byte, static lock bytes"
        case .capabilityContainer: "capability container"
        case .dataArea: "NDEF data area"
        case .userMemory: "user memory, not in the NDEF data area"
        case .reservedByTLV: "reserved by a Lock or Memory Control TLV"
        case .dynamicLock: "dynamic lock bytes"
        case .configuration: "configuration: CFG0, CFG1, PWD, PACK"
        case .counter: "16-bit counter"
        case .authentication: "AUTH0, AUTH1"
        case .key: "3DES key (never readable, not shown)"
        case .beyondChip: "past the chip's last page"
        case .unknown: "unknown use (no chip or capability container tells)"
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, bytes, pages }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(region.kind, forKey: .kind)
        try container.encode(AddressSpan(region.bytes), forKey: .bytes)
        try container.encode(region.pages.map(AddressSpan.init), forKey: .pages)
    }

    /// `  pages 4-39             NDEF data area`.
    package var line: String {
        let label = InspectFormatting.location(region.bytes)
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "  "
        return "  " + padded + Self.meaning(region.kind)
    }
}
