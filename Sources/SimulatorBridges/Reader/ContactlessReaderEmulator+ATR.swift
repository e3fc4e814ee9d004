import TagSimulator

extension ContactlessReaderEmulator {
    /// The historical bytes of a storage card's ATR up to the card name (PC/SC Part 3 v2.02,
    /// 3.1.3.2.3.1): category indicator 80, application identifier 4F 0C, RID A0 00 00 03 06
    /// (PC/SC workgroup), standard 03 (ISO/IEC 14443 A part 3).
    static let storageCardPrefix: [UInt8] = [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03]

    /// The card name of every Type 2 chip: 00 03, MIFARE Ultralight. Readers tell cards apart
    /// by SAK alone, and SAK 00 is the Ultralight family, NTAG21x and Ultralight C included.
    static let ultralightCardName: [UInt8] = [0x00, 0x03]

    /// The ATR a PC/SC reader builds for `tag` (PC/SC Part 3 v2.02, 3.1.3.2.3):
    /// - a Type 2 tag, a storage card: `3B 8F 80 01` + `80 4F 0C A0 00 00 03 06 03 00 03 00 00
    ///   00 00` + TCK, that is `3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68`;
    /// - an ISO-DEP tag: `3B 8n 80 01`, the n (at most 15) historical bytes of its ATS, TCK;
    ///   `3B 81 80 01 80 80` for an NTAG 424 DNA (ATS `06 77 77 71 02 80`).
    ///
    /// T0 8n announces TD1 and n historical bytes; TD1 80 announces TD2 with T=0; TD2 01 is
    /// T=1; TCK is the exclusive-or of every byte from T0 to the last (ISO/IEC 7816-3 8.2.5).
    public static func answerToReset(for tag: SimulatedTag) -> [UInt8] {
        let historical: [UInt8] =
            switch tag {
            case .type2: storageCardPrefix + ultralightCardName + [0x00, 0x00, 0x00, 0x00]
            case .type4(let tag): Array(historicalBytes(ofATS: tag.ats).prefix(15))
            }
        let body: [UInt8] = [0x80 | UInt8(truncatingIfNeeded: historical.count), 0x80, 0x01] + historical
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    /// The historical bytes T1...Tk of an ATS (ISO/IEC 14443-4 5.2): after TL, T0 and the
    /// interface bytes TA1, TB1, TC1 that T0 announces (bits 5, 6, 7), up to TL bytes.
    static func historicalBytes(ofATS ats: [UInt8]) -> [UInt8] {
        guard ats.count >= 2 else { return [] }
        let end = min(Int(ats[0]), ats.count)
        var start = 2
        for bit: UInt8 in [0x10, 0x20, 0x40] where ats[1] & bit != 0 { start += 1 }
        guard start < end else { return [] }
        return Array(ats[start..<end])
    }
}
