extension MifareClassicMemory {
    /// What CoreNFC's `queryNDEFStatus` would answer for this card (CoreNFC itself does not
    /// read MIFARE Classic; the answer follows the NXP mapping), with these rules:
    ///
    /// - ``NFCNDEFStatus/notSupported`` (capacity 0) when the image ends before the end of
    ///   sector 0; sector 0's GPB has no DA bit or no MAD version (AN10787); the GPB announces
    ///   MAD2 and the image ends before it; a MAD CRC does not match under the
    ///   ``MifareApplicationDirectory/CRCPolicy/strict`` policy; the MAD names no NFC sector
    ///   (AN1304); an NFC sector the image holds is unreadable (``readProblem(sector:trailer:)``);
    ///   or no NDEF Message TLV is found before a Terminator TLV, the end of the area, a
    ///   malformed TLV or the end of the image.
    /// - ``NFCNDEFStatus/readOnly`` when an NFC sector the image holds cannot be written by a
    ///   reader using the public key A (``writeRestriction(sector:trailer:)``).
    /// - ``NFCNDEFStatus/readWrite`` otherwise.
    ///
    /// Only the trailers the image holds are checked: one past its end restricts nothing. A
    /// malformed NDEF TLV length or message does not change the status (a write replaces it).
    public var ndefStatus: NDEFTagStatus {
        guard tlvScan != nil, let address = ndefTLVAddress else {
            return NDEFTagStatus(status: .notSupported, capacity: 0)
        }
        let capacity = capacity(forTLVAt: address)
        if firstWriteRestriction != nil { return NDEFTagStatus(status: .readOnly, capacity: capacity) }
        return NDEFTagStatus(status: .readWrite, capacity: capacity)
    }

    /// Why ``ndefStatus`` is not ``NFCNDEFStatus/readWrite``, in words; nil when it is.
    public var ndefStatusReason: String? {
        if tlvScan == nil || ndefTLVAddress == nil { return problem?.reason ?? "no NDEF Message TLV" }
        return firstWriteRestriction
    }

    /// The first NFC sector, among those the image holds, that the public key A cannot write.
    private var firstWriteRestriction: String? {
        for sector in ndefSectors {
            guard let trailer = trailer(of: sector) else { continue }
            if let restriction = Self.writeRestriction(sector: sector, trailer: trailer) { return restriction }
        }
        return nil
    }

    /// Why an NFC sector cannot be read with the public key A, or nil when it can.
    ///
    /// - The access bits are inconsistent: the card blocks the sector (MF1S50yyX 8.7.1).
    /// - The GPB's major mapping version is not 1 (AN1304; NXP's reader accepts major 1 with
    ///   any minor version, phFriNfc_MapTool_ChkSpcVer).
    /// - The GPB's read access bits are not 00b (AN1304; NXP's reader then reports the card
    ///   INVALID).
    /// - A data block group is not readable with key A (MF1S50yyX 8.7.3, conditions 011, 101
    ///   and 111): a reader holding only the public key D3F7D3F7D3F7 cannot read it.
    public static func readProblem(sector: MifareClassicSector, trailer: MifareClassicSectorTrailer)
        -> TagMemoryError?
    {
        let address = sector.trailerBytes.lowerBound
        let bits = trailer.accessBits
        guard bits.isConsistent else {
            return TagMemoryError(
                .notFormatted, at: address + 6,
                "\(sector)'s access bits \(bits.hexText) do not match their inverted copies: "
                    + "the card blocks the sector (MF1S50yyX 8.7.1)")
        }
        let gpb = trailer.generalPurposeByte
        guard gpb.ndefMajorVersion == 1 else {
            return TagMemoryError(
                .notFormatted, at: address + 9,
                "\(sector)'s GPB \(gpb) has NDEF mapping version \(gpb.ndefMajorVersion).\(gpb.ndefMinorVersion); "
                    + "only major version 1 is known (AN1304)")
        }
        guard gpb.ndefReadAccess == .granted else {
            return TagMemoryError(
                .notFormatted, at: address + 9, "\(sector)'s GPB \(gpb) does not grant read access (AN1304)")
        }
        if let group = bits.dataBlockAccess.firstIndex(where: { !$0.read.contains(.keyA) }) {
            return TagMemoryError(
                .notFormatted, at: address + 6,
                "\(sector)'s access bits do not let key A read data group \(group) (MF1S50yyX 8.7.3)")
        }
        return nil
    }

    /// Why an NFC sector cannot be written with the public key A, or nil when it can.
    ///
    /// - The GPB's write access bits are not 00b (AN1304: 11b is read-only, 01b and 10b are
    ///   reserved; NXP's reader reports READ-ONLY for any value but 00b).
    /// - A data block group is not writable with key A: only condition 000 allows it
    ///   (MF1S50yyX 8.7.3). The read-only NFC sector of AN1305 has 07 8F 0F (condition 010,
    ///   never writable); a MAD-style 100 lets only the secret key B write. neard
    ///   (plugins/mifare.c) likewise reports a card read-only when key A may not write.
    public static func writeRestriction(sector: MifareClassicSector, trailer: MifareClassicSectorTrailer) -> String? {
        let gpb = trailer.generalPurposeByte
        if gpb.ndefWriteAccess != .granted {
            let state = gpb.ndefWriteAccess == .denied ? "read-only" : "reserved"
            return "\(sector)'s GPB \(gpb) has write access bits \(gpb.ndefWriteAccess.bits) (\(state), AN1304)"
        }
        let bits = trailer.accessBits
        if let group = bits.dataBlockAccess.firstIndex(where: { !$0.write.contains(.keyA) }) {
            return "\(sector)'s access bits \(bits.hexText) do not let key A "
                + "write data group \(group) (MF1S50yyX 8.7.3)"
        }
        return nil
    }

    /// The largest NDEF message that fits with the NDEF TLV's T byte at `address`.
    ///
    /// The data bytes of the NFC sectors from `address` to the end of the data area (trailers
    /// and sector 16 left out), less the T byte and the length field: one byte up to 254 bytes,
    /// three (FFh and two) from 255 on, the three-byte form used only when it leaves at least
    /// 255 bytes. No byte is kept for a Terminator TLV. 0 without a data area. A 1K card with
    /// NFC sectors 1-15 gives 15 × 48 - 4 = 716 bytes, a 4K card with sectors 1-15 and 17-39
    /// gives 3360 - 4 = 3356 (NXP's reader library uses the same two figures).
    public func capacity(forTLVAt address: Int) -> Int {
        guard let area = dataArea, address < area.upperBound else { return 0 }
        let free = skippedBytes.freeRanges(in: max(address, area.lowerBound)..<area.upperBound)
        let available = free.reduce(0) { $0 + $1.count } - 1
        let oneByteForm = min(available - 1, 0xFE)
        let threeByteForm = available - 3 >= 0xFF ? min(available - 3, 0xFFFE) : 0
        return max(0, oneByteForm, threeByteForm)
    }
}
