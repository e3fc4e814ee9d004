import HexText
import NDEF
import TagMemory

/// Lock bits: the static lock bytes of page 2 (NFC Forum Type 2 Tag 1.1, 2.1.2), the dynamic
/// lock bytes (2.2.2; where the chip's datasheet puts them, else a Lock Control TLV or the NFC
/// Forum default), CFGLCK, and the pages all of them lock.
package struct InspectLockFacts: Encodable {
    /// Where the dynamic lock bytes were found.
    package enum DynamicSource: String, Encodable {
        /// The chip's datasheet (``Type2Chip/dynamicLock``).
        case chip
        /// A Lock Control TLV, for a chip ndeftool does not know.
        case lockControlTLV
        /// The NFC Forum default location after the data area, for a chip ndeftool does not know.
        case nfcForumDefault
    }

    /// The static lock bytes, if the image holds page 2.
    package var staticLock: Type2StaticLock?
    /// The dynamic lock bytes' addresses and where that came from.
    package var dynamicAddresses: Range<Int>?
    package var dynamicSource: DynamicSource?
    /// The dynamic lock bytes the image holds.
    package var dynamicBytes: [UInt8]
    /// The pages the dynamic lock bits lock.
    package var dynamicLockedPages: [AddressSpan]
    /// Pages whose lock bits a block-lock bit froze.
    package var frozenPages: [AddressSpan]
    /// CFGLCK, for a chip with PWD_AUTH configuration pages in the image.
    package var configurationLocked: Bool?
    /// Every locked page, pages 0-1 (UID, factory) included.
    package var lockedPages: [AddressSpan]

    package init(memory: Type2Memory) {
        staticLock = memory.staticLock
        let chip = memory.chip
        if let layout = chip?.dynamicLock {
            dynamicAddresses = layout.byteRange
            dynamicSource = .chip
        } else if let generic = memory.genericDynamicLock {
            dynamicAddresses = generic.lockBytes
            dynamicSource = memory.tlvs.contains { $0.lockControl != nil } ? .lockControlTLV : .nfcForumDefault
        }
        dynamicBytes = dynamicAddresses.map { Array(memory.bytes[$0.clamped(to: 0..<memory.bytes.count)]) } ?? []
        let locked = memory.lockedPages
        let configuration = memory.configuration
        configurationLocked = configuration?.isConfigurationLocked
        dynamicLockedPages = AddressSpan.runs(
            locked.filter { $0 >= 16 && configuration?.isPageLocked($0) != true })
        let staticLock = memory.staticLock
        let dynamicBytes = self.dynamicBytes
        var frozen = (3...15).filter { staticLock?.isLockBitFrozen(forPage: $0) == true }
        if let layout = chip?.dynamicLock {
            let pages = layout.pageLockBits.flatMap { Array($0.pages) }
            frozen += pages.filter { layout.isLockBitFrozen(forPage: $0, lockBytes: dynamicBytes) }
        }
        frozenPages = AddressSpan.runs(frozen)
        lockedPages = AddressSpan.runs(locked)
    }

    private enum CodingKeys: String, CodingKey {
        case staticBytes, staticLockedPages, dynamicBytes, dynamicAddress, dynamicSource, dynamicLockedPages
        case frozenPages, configurationLocked, lockedPages
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(staticLock.map { Hex.encode($0.bytes) }, forKey: .staticBytes)
        try container.encode(AddressSpan.runs(staticLock?.lockedPages ?? []), forKey: .staticLockedPages)
        try container.encode(dynamicAddresses == nil ? nil : Hex.encode(dynamicBytes), forKey: .dynamicBytes)
        try container.encode(dynamicAddresses.flatMap(AddressSpan.init), forKey: .dynamicAddress)
        try container.encode(dynamicSource, forKey: .dynamicSource)
        try container.encode(dynamicLockedPages, forKey: .dynamicLockedPages)
        try container.encode(frozenPages, forKey: .frozenPages)
        try container.encode(configurationLocked, forKey: .configurationLocked)
        try container.encode(lockedPages, forKey: .lockedPages)
    }

    /// `pages 3-15 locked`, or `no page locked`.
    private static func locked(_ spans: [AddressSpan]) -> String {
        spans.isEmpty ? "no page locked" : "locked: pages " + AddressSpan.list(spans)
    }

    /// The lock bytes, what they lock and freeze, and every locked page.
    package var lines: [String] {
        var lines: [String] = []
        if let staticLock {
            lines.append(
                "static lock bytes: " + Hex.bytes(staticLock.bytes) + " (bytes 10-11): "
                    + Self.locked(AddressSpan.runs(staticLock.lockedPages)))
        } else {
            lines.append("static lock bytes: not in the image")
        }
        if let dynamicAddresses, let span = AddressSpan(dynamicAddresses) {
            let shown = dynamicBytes.isEmpty ? "not in the image" : Hex.bytes(dynamicBytes)
            var line = "dynamic lock bytes: \(shown) (\(span.text("byte"))"
            switch dynamicSource {
            case .lockControlTLV: line += ", named by the Lock Control TLV"
            case .nfcForumDefault: line += ", the NFC Forum default place"
            case .chip, nil: break
            }
            lines.append(line + "): " + Self.locked(dynamicLockedPages))
        } else {
            lines.append("dynamic lock bytes: none")
        }
        if !frozenPages.isEmpty {
            lines.append("  lock bits frozen by block-lock bits for pages " + AddressSpan.list(frozenPages))
        }
        var line = "locked pages: " + AddressSpan.list(lockedPages) + " (pages 0-1: the UID, locked at the factory"
        if configurationLocked == true { line += "; CFG0 and CFG1 by CFGLCK" }
        lines.append(line + ")")
        return lines
    }
}
