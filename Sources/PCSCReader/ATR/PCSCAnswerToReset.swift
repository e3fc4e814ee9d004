import HexText
import NFCWireFormat

/// The ATR a PC/SC contactless reader builds for a card (PC/SC Workgroup specification part 3,
/// supplemental document for contactless ICCs, 3.1.3.2.3), decoded by ISO/IEC 7816-3 8.2 rules.
///
/// Storage cards (Type 2 tags, MIFARE Classic) get `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN
/// 00 00 00 00 TCK`: historical bytes with category 80h and an application identifier (tag 4Fh)
/// made of the PC/SC registered application provider identifier A0 00 00 03 06, the standard SS
/// (03h: ISO/IEC 14443 A part 3) and the card name NN NN (0001h MIFARE Classic 1K, 0002h
/// Classic 4K, 0003h MIFARE Ultralight, which NTAG21x and Ultralight C report too, 0026h MIFARE
/// Mini). ISO/IEC 14443-4 cards get `3B 8n 80 01` and the historical bytes of their ATS (type A)
/// or the application data of their ATQB (type B).
public struct PCSCAnswerToReset: Sendable, Hashable {
    /// What the ATR describes.
    public enum Card: Sendable, Hashable {
        /// A storage card with its standard byte SS and card name NN NN.
        case storage(standard: UInt8, cardName: UInt16)
        /// An ISO/IEC 14443-4 (ISO-DEP) card.
        case isoDEP
        /// Something else: a contact card, or an ATR this decoder does not recognise.
        case other
    }

    /// The ATR bytes as given.
    public let bytes: [UInt8]
    /// The historical bytes (ISO/IEC 7816-3 8.2.1: the K bytes after the interface bytes).
    public let historicalBytes: [UInt8]
    /// Whether the check byte TCK is present and correct (the XOR of T0 up to TCK is 0); nil when
    /// the ATR announces only T=0, which has no TCK.
    public let checkByteValid: Bool?
    /// The kind of card.
    public let card: Card

    /// The PC/SC workgroup's registered application provider identifier.
    static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Decodes `bytes`; nil when they are not an ATR (wrong TS, interface or historical bytes
    /// missing).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 2, bytes[0] == 0x3B || bytes[0] == 0x3F else { return nil }
        let format = bytes[1]
        let historicalCount = Int(format & 0x0F)
        var index = 2
        var indicator = format
        var protocols: Set<UInt8> = []
        var interfaceGroups = 0
        while true {
            interfaceGroups += 1
            for bit in [UInt8(0x10), 0x20, 0x40] where indicator & bit != 0 { index += 1 }
            guard indicator & 0x80 != 0 else { break }
            guard index < bytes.count else { return nil }
            indicator = bytes[index]
            protocols.insert(indicator & 0x0F)
            index += 1
            guard interfaceGroups < 16 else { return nil }
        }
        guard index + historicalCount <= bytes.count else { return nil }
        self.bytes = bytes
        historicalBytes = Array(bytes[index..<(index + historicalCount)])
        let needsCheck = protocols.contains { $0 != 0 }
        if needsCheck {
            let end = index + historicalCount
            checkByteValid = end < bytes.count && bytes[1...end].reduce(0, ^) == 0
        } else {
            checkByteValid = nil
        }
        card = Self.classify(bytes, historical: historicalBytes)
    }

    /// Storage card when the historical bytes hold the PC/SC application identifier, ISO-DEP for
    /// the `3B 8n 80 01` contactless pattern otherwise.
    private static func classify(_ bytes: [UInt8], historical: [UInt8]) -> Card {
        // Category 80h, then the compact TLV 4Fh (application identifier) of at least 8 bytes:
        // RID (5 bytes), SS, NN NN, then RFU bytes.
        if historical.count >= 11, historical[0] == 0x80, historical[1] == 0x4F, historical[2] >= 0x08,
            Array(historical[3..<8]) == pcscRID
        {
            return .storage(standard: historical[8], cardName: UInt16(historical[9]) << 8 | UInt16(historical[10]))
        }
        // 3B 8n 80 01: TD1 = 80h (T=0 announced, TD2 follows), TD2 = 01h (T=1).
        if bytes.count >= 4, bytes[0] == 0x3B, bytes[1] & 0xF0 == 0x80, bytes[2] == 0x80, bytes[3] == 0x01 {
            return .isoDEP
        }
        return .other
    }
}

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
            let hex = Hex.byte(UInt8(truncatingIfNeeded: name >> 8)) + Hex.byte(UInt8(truncatingIfNeeded: name))
            let label = standard == 0x03 ? known[name] : nil
            return "\(label ?? "storage card") (standard \(Hex.byte(standard))h, card name \(hex)h)"
        case .isoDEP:
            return "ISO/IEC 14443-4 card"
        case .other:
            return "card with ATR " + Hex.bytes(bytes)
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
