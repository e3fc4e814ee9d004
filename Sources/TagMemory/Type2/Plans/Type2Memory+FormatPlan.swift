import HexText

extension Type2Memory {
    /// Plans NDEF formatting (initialising) the tag: the chip's capability container and an
    /// empty NDEF Message TLV, so the tag reads as INITIALIZED (T2T 1.1, 6.3.1), read/write
    /// with an empty message and the catalogue capacity.
    ///
    /// The data area gets the chip's factory content (``Type2Chip/factoryData``: on NTAG212
    /// and NTAG213 the Lock Control TLV and `03 00 FE`), or `03 00 FE` from byte 16 on chips
    /// NXP ships unformatted (their dynamic lock bytes, where they have any, are where the
    /// NFC Forum default puts them: MF0UL21 page 24h = 16 + 128, MF0ICU2 page 28h = 16 + 144).
    /// The CC is ``Type2Chip/ndefCapabilityContainer``.
    ///
    /// Order: the data pages first, in address order, then the CC. On a blank tag (no NDEF
    /// CC) the CC write is the one that makes the tag NDEF: a write torn before it leaves a
    /// blank tag, never an NDEF CC over a data area without an NDEF TLV. On a tag that already
    /// has the CC, the data pages are written over whatever they hold (mostly a single page);
    /// to empty a formatted tag tearing-safely use ``writePlan(messageBytes:)`` with no bytes.
    ///
    /// Page 3 is one-time programmable (its bits can only be set; T2T 1.1, 2.1; NTAG213/215/216
    /// 8.5.6): writing the wanted CC ORs it in, which gives the wanted CC only if the current
    /// one has no bit the wanted one lacks. Writing the same CC again is left out; pages that
    /// already hold their content are left out.
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` when the chip is not known;
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold the pages;
    ///   ``TagMemoryError/Code/conflictingState`` when the current CC has bits set that the
    ///   wanted CC has clear (for example a read-only CC, write access Fh);
    ///   ``TagMemoryError/Code/notWritable`` when a page to write is locked.
    public func formatPlan() throws(TagMemoryError) -> TagWritePlan {
        guard let chip else {
            throw TagMemoryError(.unsupportedChip, "the chip must be known to format the tag (its CC and user memory)")
        }
        let content = chip.factoryData.isEmpty ? [0x03, 0x00, 0xFE] : chip.factoryData
        let dataEnd = Type2Page.dataAreaStart + content.count
        guard bytes.count >= Type2Page.firstByte(of: Type2Page.containing(byte: dataEnd - 1) + 1) else {
            throw TagMemoryError(.truncatedImage, at: bytes.count, "the image ends before the pages to format")
        }
        let wanted = chip.ndefCapabilityContainer
        let current = Array(bytes[Type2Page.capabilityContainerBytes])
        for index in 0..<4 where current[index] & ~wanted[index] != 0 {
            throw TagMemoryError(
                .conflictingState, at: Type2Page.capabilityContainerBytes.lowerBound + index,
                "the CC is \(Hex.bytes(current)): byte \(index) has bits the wanted CC "
                    + "\(Hex.bytes(wanted)) lacks, and page 3 bits cannot be cleared (one-time programmable)")
        }
        var target: [Int: UInt8] = [:]
        for (offset, value) in content.enumerated() { target[Type2Page.dataAreaStart + offset] = value }
        var builder = Type2PlanBuilder(memory: self)
        let pages = Type2Page.containing(byte: Type2Page.dataAreaStart)...Type2Page.containing(byte: dataEnd - 1)
        for page in pages {
            guard let data = builder.content(of: page, with: target), data != builder.content(of: page) else {
                continue
            }
            try checkUnlocked(page, for: "format")
            builder.write(
                page: page, data: data,
                reason: page == pages.lowerBound
                    ? "data area: \(Hex.bytes(content)) (empty NDEF TLV, T2T 1.1, 6.3.1)"
                    : "data area, continued")
        }
        if current != wanted {
            try checkUnlocked(3, for: "format")
            builder.write(
                page: 3, data: wanted,
                reason: "CC \(Hex.bytes(wanted)) last: NDEF version 1.0, \(chip.capabilityContainerDataAreaSize) "
                    + "byte data area, read/write (T2T 1.1, 6.1)")
        }
        return builder.plan
    }

    /// Throws ``TagMemoryError/Code/notWritable`` when `page` is locked.
    func checkUnlocked(_ page: Int, for purpose: String) throws(TagMemoryError) {
        guard isPageLocked(page) else { return }
        throw TagMemoryError(
            .notWritable, at: Type2Page.firstByte(of: page), "cannot \(purpose): page \(page) is locked")
    }
}
