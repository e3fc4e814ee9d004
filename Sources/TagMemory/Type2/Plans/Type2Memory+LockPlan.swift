import HexText

extension Type2Memory {
    /// Plans making the tag read-only for good, as CoreNFC's `writeLock` does (NFC Forum Type 2
    /// Tag 1.1, 6.4.4, state change to READ-ONLY).
    ///
    /// Steps, each left out when the tag already holds its value:
    /// 1. the CC with write access Fh (byte 3 low nibble), first: readers see a read-only tag
    ///    from this write on. Page 3 is one-time programmable, so the step writes the current
    ///    CC with the nibble OR-ed in (T2T 1.1, 6.1; NTAG213/215/216 8.5.6);
    /// 2. the dynamic lock bits (from page 16 on): every page lock bit of the chip's layout
    ///    (``Type2Chip/dynamicLock``), or for a chip not in the catalogue the lock bits of the
    ///    Lock Control TLV (T2T 1.1, 2.3.2); byte 3 of an NTAG21x lock page keeps its 00h;
    /// 3. the static lock bits in page 2 (lock bits of the CC and pages 4-15), written as the
    ///    current bytes 0-1 (which a WRITE to page 2 does not change) and the new lock bytes;
    /// 4. with ``Type2LockOptions/locksConfiguration``, CFGLCK in CFG1.
    ///
    /// The block-lock bits are set with their lock bits unless the options say otherwise (see
    /// ``Type2LockOptions/setsBlockLockBits``). After step 1 the tag reports
    /// ``NFCNDEFStatus/readOnly``; the lock bits then make that true of the memory itself.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when ``ndefStatus`` is not supported;
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold the lock bytes;
    ///   ``TagMemoryError/Code/unsupportedChip`` for an unknown chip whose data area goes past
    ///   page 15 without a Lock Control TLV (where its dynamic lock bits are is unknown), or
    ///   CFGLCK asked of a chip without configuration pages;
    ///   ``TagMemoryError/Code/conflictingState`` when the CC page is locked with write access
    ///   other than Fh, or a block-lock bit already set holds a lock bit covering the data area
    ///   at 0 (the reason names the bit).
    public func lockPlan(options: Type2LockOptions = Type2LockOptions()) throws(TagMemoryError) -> TagWritePlan {
        guard ndefStatus.status != .notSupported, let cc = capabilityContainer, let area = dataArea else {
            throw TagMemoryError(
                .notFormatted, at: Type2Page.capabilityContainerBytes.lowerBound,
                "the tag is not NDEF formatted: \(ndefStatusReason ?? "no NDEF Message TLV")")
        }
        let lastAreaPage = Type2Page.containing(byte: area.upperBound - 1)
        var builder = Type2PlanBuilder(memory: self)
        try lockCapabilityContainer(cc, builder: &builder)
        if let layout = chip?.dynamicLock {
            try lockDynamic(layout, lastAreaPage: lastAreaPage, options: options, builder: &builder)
        } else if lastAreaPage >= 16, chip == nil {
            try lockGeneric(builder: &builder)
        }
        try lockStatic(lastAreaPage: lastAreaPage, options: options, builder: &builder)
        if options.locksConfiguration {
            try lockConfiguration(builder: &builder)
        }
        return builder.plan
    }

    /// Step 1: CC write access Fh.
    private func lockCapabilityContainer(
        _ cc: Type2CapabilityContainer, builder: inout Type2PlanBuilder
    ) throws(TagMemoryError) {
        let current = cc.bytes
        let locked = current[3] | 0x0F
        guard locked >> 4 == 0 else {
            throw TagMemoryError(
                .conflictingState, at: 15,
                "CC byte 3 is \(Hex.byte(current[3])): with write access Fh it would still deny reading")
        }
        guard locked != current[3] else { return }
        if isPageLocked(3) {
            throw TagMemoryError(
                .conflictingState, at: 15,
                "the CC page is locked (L-CC) with access byte \(Hex.byte(current[3])): it cannot become 0F")
        }
        builder.write(
            page: 3, data: [current[0], current[1], current[2], locked],
            reason: "CC write access Fh first: readers see a read-only tag from here on (T2T 1.1, 6.4.4)")
    }

    /// Step 2 for a catalogue chip: every page lock bit (and block-lock bit) of its layout.
    private func lockDynamic(
        _ layout: Type2DynamicLockLayout, lastAreaPage: Int, options: Type2LockOptions,
        builder: inout Type2PlanBuilder
    ) throws(TagMemoryError) {
        guard let page = builder.content(of: layout.page) else {
            throw TagMemoryError(.truncatedImage, at: bytes.count, "the image ends before the dynamic lock page")
        }
        let current = Array(page.prefix(layout.byteCount))
        let frozen = layout.frozenBits(lockBytes: current)
        for bit in layout.pageLockBits where bit.pages.lowerBound <= lastAreaPage {
            let mask = UInt8(1) << UInt8(truncatingIfNeeded: bit.bit & 7)
            guard current.indices.contains(bit.byte), current[bit.byte] & mask == 0, frozen[bit.byte] & mask != 0
            else { continue }
            throw TagMemoryError(
                .conflictingState, at: Type2Page.firstByte(of: layout.page) + bit.byte,
                "dynamic lock bit \(bit.bit) of lock byte \(bit.byte) (pages \(bit.pages)) is 0 and frozen by a "
                    + "block-lock bit: pages \(bit.pages) of the data area cannot be locked")
        }
        var wanted = layout.allPageLockBits
        if options.setsBlockLockBits {
            for (index, byte) in layout.allBlockLockBits.enumerated() { wanted[index] |= byte }
        }
        let programmed = layout.programmed(lockBytes: current, data: wanted)
        var data = page
        for index in programmed.indices where data.indices.contains(index) { data[index] = programmed[index] }
        builder.write(
            page: layout.page, data: data,
            reason: "dynamic lock bits: pages 16-\(layout.pageLockBits.last?.pages.upperBound ?? 16) read-only"
                + (options.setsBlockLockBits ? ", lock bits frozen" : ""))
    }

    /// Step 2 for a chip not in the catalogue: the lock bits the Lock Control TLV names.
    private func lockGeneric(builder: inout Type2PlanBuilder) throws(TagMemoryError) {
        guard let generic = genericDynamicLock, tlvs.contains(where: { $0.lockControl != nil }) else {
            throw TagMemoryError(
                .unsupportedChip,
                "the data area goes past page 15 but the chip is unknown and no Lock Control TLV says where its "
                    + "dynamic lock bits are")
        }
        var target: [Int: UInt8] = [:]
        for bit in 0..<generic.lockBitCount {
            let address = generic.byteAddress + bit / 8
            target[address, default: bytes.indices.contains(address) ? bytes[address] : 0] |= 1 << UInt8(bit % 8)
        }
        guard let pages = Type2Page.pages(covering: generic.lockBytes) else { return }
        for page in pages {
            guard let data = builder.content(of: page, with: target) else {
                throw TagMemoryError(.truncatedImage, at: bytes.count, "the image ends before the dynamic lock bytes")
            }
            builder.write(
                page: page, data: data,
                reason: "dynamic lock bits of the Lock Control TLV (\(generic.lockBitCount) bits, T2T 1.1, 2.3.2)")
        }
    }

    /// Step 3: the static lock bits of the CC and pages 4-15.
    private func lockStatic(
        lastAreaPage: Int, options: Type2LockOptions, builder: inout Type2PlanBuilder
    ) throws(TagMemoryError) {
        guard let page = builder.content(of: 2), let current = staticLock else {
            throw TagMemoryError(.truncatedImage, at: bytes.count, "the image ends before the static lock bytes")
        }
        let frozen = current.frozenBits
        for locked in 4...15 where locked <= lastAreaPage {
            guard let bit = Type2StaticLock.lockBit(forPage: locked) else { continue }
            let isSet = current.lock0 & bit.lock0 != 0 || current.lock1 & bit.lock1 != 0
            let isFrozen = frozen.lock0 & bit.lock0 != 0 || frozen.lock1 & bit.lock1 != 0
            guard !isSet, isFrozen else { continue }
            throw TagMemoryError(
                .conflictingState, at: 10,
                "static lock bit L\(locked) is 0 and frozen by a block-lock bit: page \(locked) cannot be locked")
        }
        let wanted0: UInt8 = options.setsBlockLockBits ? 0xFF : 0xF8
        let programmed = current.programmed(lock0: wanted0, lock1: 0xFF)
        builder.write(
            page: 2, data: [page[0], page[1], programmed.lock0, programmed.lock1],
            reason: "static lock bits: CC and pages 4-15 read-only"
                + (options.setsBlockLockBits ? ", lock bits frozen" : "")
                + " (bytes 0-1 are not changed by WRITE)")
    }

    /// Step 4: CFGLCK.
    private func lockConfiguration(builder: inout Type2PlanBuilder) throws(TagMemoryError) {
        guard let chip, let pages = chip.configurationPages else {
            throw TagMemoryError(.unsupportedChip, "CFGLCK needs a chip with PWD_AUTH configuration pages")
        }
        guard let cfg1 = builder.content(of: pages.cfg1) else {
            throw TagMemoryError(.truncatedImage, at: bytes.count, "the image ends before CFG1")
        }
        builder.write(
            page: pages.cfg1, data: [cfg1[0] | 0x40] + cfg1.dropFirst(),
            reason: "CFGLCK: CFG0 and CFG1 locked for good (ACCESS bit 6)")
    }
}

/// What a Type 2 lock plan sets besides the CC and the lock bits of the data area.
///
/// See ``Type2Memory/lockPlan(options:)``.
public struct Type2LockOptions: Sendable, Hashable {
    /// Whether to set the block-lock bits too (static lock byte 0 bits 0-2, the dynamic
    /// block-lock bits). Default true.
    ///
    /// A block-lock bit freezes lock bits: once set, the lock bits it covers can no longer be
    /// changed (NTAG213/215/216 8.5.2 and 8.5.3). Lock bits can only go from 0 to 1, so once
    /// every lock bit is set the block-lock bits protect nothing more; setting them makes the
    /// lock configuration final, gives the static lock bytes `FF FF` that NFC Forum readers
    /// and Android's read-only procedure write, and costs no extra WRITE (they share the pages
    /// of the lock bits).
    public var setsBlockLockBits: Bool
    /// Whether to set CFGLCK (ACCESS bit 6) on chips with PWD_AUTH configuration pages, which
    /// freezes CFG0 and CFG1 (AUTH0, PROT, AUTHLIM, mirror) for good. Default false: a read-only
    /// tag may still want its password settings changed.
    public var locksConfiguration: Bool

    /// Creates options.
    public init(setsBlockLockBits: Bool = true, locksConfiguration: Bool = false) {
        self.setsBlockLockBits = setsBlockLockBits
        self.locksConfiguration = locksConfiguration
    }
}
