import NFCWireFormat

/// What an ATR says about the tag: the SAK a reader would have seen, and the ATS to pass on.
extension PCSCAnswerToReset {
    /// The SAK reported for cards whose SAK the ATR does not give: 04h, the cascade bit ("UID not
    /// complete", ISO/IEC 14443-3 6.5.3.4), which no selected card answers, so the target's kind
    /// is unknown.
    public static let unknownSAK: UInt8 = 0x04

    /// The SAK (SEL_RES) the card answered, derived from the ATR since PC/SC does not pass it on
    /// (values from NXP AN10833 MIFARE type identification, table 6):
    /// - storage card, standard 03h (ISO/IEC 14443 A part 3), card name 0003h (MIFARE
    ///   Ultralight, NTAG21x) and 003Ah, 003Dh (names some readers give Ultralight C and
    ///   Ultralight EV1): 00h, a Type 2 tag;
    /// - card name 0001h (MIFARE Classic 1K): 08h; 0002h (Classic 4K): 18h; 0026h (MIFARE
    ///   Mini): 09h;
    /// - an ISO/IEC 14443-4 card: 20h;
    /// - anything else: ``unknownSAK``.
    public var derivedSAK: UInt8 {
        switch card {
        case .storage(standard: 0x03, let name):
            switch name {
            case 0x0003, 0x003A, 0x003D: return 0x00
            case 0x0001: return 0x08
            case 0x0002: return 0x18
            case 0x0026: return 0x09
            default: return Self.unknownSAK
            }
        case .isoDEP:
            return 0x20
        default:
            return Self.unknownSAK
        }
    }

    /// The card name of a storage card for people: `MIFARE Ultralight (0003h)`.
    public var cardDescription: String {
        switch card {
        case .storage(let standard, let name):
            let known: [UInt16: String] = [
                0x0001: "MIFARE Classic 1K", 0x0002: "MIFARE Classic 4K", 0x0003: "MIFARE Ultralight or NTAG",
                0x0026: "MIFARE Mini", 0x003A: "MIFARE Ultralight C", 0x003D: "MIFARE Ultralight EV1",
            ]
            let hex = WireHex.byte(UInt8(truncatingIfNeeded: name >> 8)) + WireHex.byte(UInt8(truncatingIfNeeded: name))
            let label = standard == 0x03 ? known[name] : nil
            return "\(label ?? "storage card") (standard \(WireHex.byte(standard))h, card name \(hex)h)"
        case .isoDEP:
            return "ISO/IEC 14443-4 card"
        case .other:
            return "card with ATR " + WireHex.bytes(bytes)
        }
    }

    /// A minimal ATS carrying `historicalBytes` (ISO/IEC 14443-4 5.2): TL, then T0 = 00h announcing
    /// no interface bytes, then the historical bytes. PC/SC readers do not pass the card's own ATS;
    /// this one gives ``NFCSession/NFCISO7816Tag``'s `historicalBytes` the right bytes. Nil when
    /// the bytes do not fit an ATS (at most 253).
    static func syntheticATS(historicalBytes: [UInt8]) -> [UInt8]? {
        guard historicalBytes.count <= 253 else { return nil }
        return [UInt8(2 + historicalBytes.count), 0x00] + historicalBytes
    }
}

extension PCSCAnswerToReset {
    /// The ATS to report for an ISO/IEC 14443-4 card from the answer to GET DATA with P1 01h.
    ///
    /// PC/SC part 3 says that answer is the historical bytes; some readers (ACS) return the whole
    /// ATS. An answer whose first byte counts its own length (TL) is taken as a whole ATS,
    /// anything else as historical bytes (``syntheticATS(historicalBytes:)``). Without an
    /// answer, the ATR's historical bytes, which PC/SC part 3 fills from the ATS, are used.
    static func ats(fromGetData answer: [UInt8]?, atr: PCSCAnswerToReset) -> [UInt8]? {
        guard let answer else { return syntheticATS(historicalBytes: atr.historicalBytes) }
        if let length = answer.first, Int(length) == answer.count, answer.count >= 2 { return answer }
        return syntheticATS(historicalBytes: answer)
    }
}
