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
