import HexText
import NDEF
import TagMemory

/// The capability container in page 3 (NFC Forum Type 2 Tag 1.1, 6.1): magic number, mapping
/// version, data area size and access conditions, with the data area a reader uses.
package struct InspectCapabilityFacts: Encodable {
    /// The capability container read.
    package var container: Type2CapabilityContainer
    /// The data area used: the announced size, cut to the chip's user memory.
    package var dataArea: Range<Int>?

    package init?(memory: Type2Memory) {
        guard let container = memory.capabilityContainer else { return nil }
        self.container = container
        dataArea = memory.dataArea
    }

    /// What an access nibble means (6.1): 0h granted, 1h-7h reserved, 8h-Eh proprietary, Fh none.
    package static func meaning(_ access: Type2CapabilityContainer.Access) -> String {
        switch access {
        case .granted: "granted"
        case .reserved: "reserved value, treated as no access"
        case .proprietary: "proprietary, no standard access"
        case .denied: "none"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case bytes, magic, ndefFormatted, version, versionSupported, dataAreaSize, dataArea, readAccess, writeAccess
    }

    package func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(Hex.encode(container.bytes), forKey: .bytes)
        try keyed.encode(Hex.encode([container.magicNumber]), forKey: .magic)
        try keyed.encode(container.isNDEFFormatted, forKey: .ndefFormatted)
        try keyed.encode("\(container.majorVersion).\(container.minorVersion)", forKey: .version)
        try keyed.encode(container.isVersionSupported, forKey: .versionSupported)
        try keyed.encode(container.dataAreaSize, forKey: .dataAreaSize)
        try keyed.encode(dataArea.flatMap(AddressSpan.init), forKey: .dataArea)
        try keyed.encode(Int(container.readAccess.nibble), forKey: .readAccess)
        try keyed.encode(Int(container.writeAccess.nibble), forKey: .writeAccess)
    }

    /// `capability container: E1 10 12 00 (page 3)` and its fields.
    package var lines: [String] {
        let cc = container
        var lines = ["capability container: " + Hex.bytes(cc.bytes) + " (page 3)"]
        let magic = Hex.byte(cc.magicNumber) + "h"
        if !cc.isNDEFFormatted {
            lines.append("  magic \(magic): not NDEF formatted (an NDEF tag has E1h)")
            return lines
        }
        let version = "mapping version \(cc.majorVersion).\(cc.minorVersion)"
        lines.append(
            "  magic \(magic): NDEF formatted; " + version
                + (cc.isVersionSupported ? "" : " (major version \(cc.majorVersion) is not supported)"))
        var size = "  data area: \(cc.dataAreaSize) bytes announced"
        if let dataArea {
            size += ", " + InspectFormatting.location(dataArea)
            if dataArea.count < cc.dataAreaSize { size += " used (the chip's user memory ends there)" }
        }
        lines.append(size)
        let read = Hex.number(cc.readAccess.nibble)
        let write = Hex.number(cc.writeAccess.nibble)
        lines.append(
            "  access: read \(read)h (\(Self.meaning(cc.readAccess))), write \(write)h "
                + "(\(Self.meaning(cc.writeAccess)))")
        return lines
    }
}
