import HexText
import TagMemory

/// A tag found in the reader's field by polling, before it is selected.
///
/// The ISO/IEC 14443-3 Type A identification: UID, ATQA (SENS_RES) and SAK (SEL_RES); for
/// ISO-DEP tags the ATS (ISO/IEC 14443-4 5.2); for PC/SC readers the ATR the reader built
/// (PC/SC Part 3 3.1.3.2.3).
public struct NFCTargetInfo: Sendable, Hashable, CustomStringConvertible {
    /// The kind of tag the identification points to.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// NFC Forum Type 2 (SAK 00h: NTAG21x, MIFARE Ultralight family).
        case type2
        /// ISO-DEP, which NFC Forum Type 4 tags use (SAK bit 6 set, 20h).
        case type4
        /// MIFARE Classic (SAK 08h, 09h, 18h, 19h).
        case mifareClassic
        /// Anything else.
        case unknown
    }

    /// The reader's handle for this target (position in its poll list, or a backend id).
    public var index: Int
    /// The UID, 4, 7 or 10 bytes.
    public var uid: [UInt8]
    /// ATQA / SENS_RES, two bytes as received (least significant byte first).
    public var atqa: [UInt8]
    /// SAK / SEL_RES.
    public var sak: UInt8
    /// The answer to RATS of an ISO-DEP tag.
    public var ats: [UInt8]?
    /// The ATR a PC/SC reader reports for the card.
    public var atr: [UInt8]?

    /// Creates target information.
    public init(index: Int, uid: [UInt8], atqa: [UInt8], sak: UInt8, ats: [UInt8]? = nil, atr: [UInt8]? = nil) {
        self.index = index
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.atr = atr
    }

    /// `UID 04:A1:B2:C3:D4:E5:F6, ATQA 00 44, SAK 00` (with the ATS or ATR when known): the UID
    /// as people read it everywhere (``TagMemory/UIDText``), the ATQA most significant byte
    /// first as `ndeftool info`, `inspect` and nfc-list show it (``atqa`` holds it as received),
    /// the other bytes as received.
    public var description: String {
        var parts = [
            "UID " + UIDText.description(uid),
            "ATQA " + (atqa.isEmpty ? "not reported" : Hex.bytes(Array(atqa.reversed()))),
            "SAK " + Hex.bytes([sak]),
        ]
        if let ats { parts.append("ATS " + Hex.bytes(ats)) }
        if let atr { parts.append("ATR " + Hex.bytes(atr)) }
        return parts.joined(separator: ", ")
    }

    /// The kind of tag, from the SAK (NXP AN10833 MIFARE type identification, table 6).
    public var kind: Kind {
        if sak & 0x20 != 0 { return .type4 }
        switch sak {
        case 0x00: return .type2
        case 0x08, 0x09, 0x18, 0x19, 0x88: return .mifareClassic
        default: return .unknown
        }
    }

    /// The UID as upper-case hex pairs separated by colons, as printed on tag packaging.
    public var uidDescription: String {
        uid.map { byte in Hex.byte(byte).uppercased() }.joined(separator: ":")
    }
}
