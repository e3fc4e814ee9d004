extension Type2Memory {
    /// What CoreNFC's `queryNDEFStatus` would answer for this tag, with these rules:
    ///
    /// - ``NFCNDEFStatus/notSupported`` (capacity 0) when the image ends before the CC, the CC
    ///   does not start with E1h or has a major version other than 1 (T2T 1.1, 6.1, 6.1.1), or no
    ///   NDEF Message TLV is found in the data area before a Terminator TLV, the end of the area,
    ///   a malformed TLV or the end of the image (6.4.1: a tag without an NDEF TLV is not in a
    ///   valid NDEF state); also when the read access nibble is not 0h (6.1: only 0h grants
    ///   reading), but then with the capacity the CC announces (a message that fills its data
    ///   area), since the CC tells it.
    /// - ``NFCNDEFStatus/readOnly`` when the write access nibble is not 0h (Fh: READ-ONLY state,
    ///   6.3.3; 1h-7h reserved and 8h-Eh proprietary give no standard write access), or when a
    ///   static or dynamic lock bit covers a page from the NDEF TLV to the end of the data area
    ///   (the bytes a write rewrites, 6.4.3; lock bits, 2.2.2).
    /// - ``NFCNDEFStatus/readWrite`` otherwise (READ/WRITE or INITIALIZED state, 6.3.1, 6.3.2).
    ///
    /// A malformed NDEF TLV length or message does not change the status: the tag is formatted
    /// and a write replaces the TLV. Password protection (AUTH0) does not either: a phone reports
    /// such a tag as writable and the write then fails; ``configuration`` tells.
    public var ndefStatus: NDEFTagStatus {
        guard let cc = capabilityContainer, cc.problem == nil, let area = dataArea else {
            return NDEFTagStatus(status: .notSupported, capacity: 0)
        }
        // Not readable, but the CC says how large the data area is: the capacity it announces.
        guard cc.readAccess == .granted else {
            return NDEFTagStatus(status: .notSupported, capacity: capacity(forTLVAt: area.lowerBound))
        }
        guard let address = ndefTLVAddress else { return NDEFTagStatus(status: .notSupported, capacity: 0) }
        let capacity = capacity(forTLVAt: address)
        if cc.writeAccess != .granted { return NDEFTagStatus(status: .readOnly, capacity: capacity) }
        if let pages = Type2Page.pages(covering: address..<max(address + 1, area.upperBound)),
            LockView(self).firstLocked(in: pages) != nil
        {
            return NDEFTagStatus(status: .readOnly, capacity: capacity)
        }
        return NDEFTagStatus(status: .readWrite, capacity: capacity)
    }

    /// Why ``ndefStatus`` is not ``NFCNDEFStatus/readWrite``, in words; nil when it is.
    public var ndefStatusReason: String? {
        guard let cc = capabilityContainer else { return "the image ends before the capability container" }
        if let problem = cc.problem { return problem.reason }
        if cc.readAccess != .granted { return "the capability container does not grant read access" }
        guard let address = ndefTLVAddress else { return problem?.reason ?? "no NDEF Message TLV" }
        if cc.writeAccess == .denied { return "the capability container says read-only (write access Fh)" }
        if cc.writeAccess != .granted { return "the capability container does not grant write access" }
        if let area = dataArea, let pages = Type2Page.pages(covering: address..<max(address + 1, area.upperBound)),
            let page = LockView(self).firstLocked(in: pages)
        {
            return "page \(page) of the NDEF area is locked"
        }
        return nil
    }

    /// The largest NDEF message that fits with the NDEF TLV's T byte at `address`.
    ///
    /// The bytes from `address` to the end of ``dataArea``, less the reserved bytes named by
    /// Lock/Memory Control TLVs before `address` (2.2.1), less the T byte and the length field:
    /// one byte for up to 254 bytes, three bytes (FFh and two) for 255 and more (2.3.4), so the
    /// three-byte form is used only when it leaves at least 255 bytes. No byte is kept for a
    /// Terminator TLV: it is written only if room is left (6.4.3), a message that fills the data
    /// area needs none. 0 when there is no data area or no room.
    public func capacity(forTLVAt address: Int) -> Int {
        guard let area = dataArea, address < area.upperBound else { return 0 }
        let free = reservedRanges(before: address).freeRanges(in: max(address, area.lowerBound)..<area.upperBound)
        let available = free.reduce(0) { $0 + $1.count } - 1
        let oneByteForm = min(available - 1, 0xFE)
        let threeByteForm = available - 3 >= 0xFF ? min(available - 3, 0xFFFE) : 0
        return max(0, oneByteForm, threeByteForm)
    }

    /// The reserved byte ranges known to a reader that has walked the TLVs before `address`.
    public func reservedRanges(before address: Int) -> ReservedByteRanges {
        var reserved = ReservedByteRanges()
        for tlv in tlvs where tlv.typeAddress < address {
            if let control = tlv.lockControl { reserved.insert(control.lockBytes) }
            if let control = tlv.memoryControl { reserved.insert(control.reservedBytes) }
        }
        return reserved
    }

    /// The byte ranges usable for TLV data from `address` to the end of the data area: the
    /// data area without the bytes reserved by the control TLVs before `address`.
    public func dataRanges(from address: Int) -> [Range<Int>] {
        guard let area = dataArea, address < area.upperBound else { return [] }
        return reservedRanges(before: address).freeRanges(in: max(address, area.lowerBound)..<area.upperBound)
    }

    /// Where a writer puts the NDEF Message TLV: the T byte of the existing one, else the
    /// first byte after the Lock Control, Memory Control and NULL TLVs that open the data area
    /// (they must precede the NDEF TLV, 2.3.2, 2.3.3); nil without a data area.
    public var ndefTLVWriteAddress: Int? {
        if let ndefTLVAddress { return ndefTLVAddress }
        guard let area = dataArea else { return nil }
        var address = area.lowerBound
        for tlv in tlvs {
            guard tlv.kind == .lockControl || tlv.kind == .memoryControl || tlv.kind == .null else { break }
            address = tlv.endAddress
        }
        return reservedRanges(before: address).nextFree(from: address)
    }
}
