/// A command APDU (ISO/IEC 7816-4, section 5.1: cases 1 to 4, each in the short and the
/// extended length form), split into its fields as a card or reader reads it, or built and
/// encoded as a host sends it.
///
/// Short form: Lc and Le are one byte, Le `00` meaning 256. Extended form: a `00` byte, then
/// two length bytes (Le `0000` meaning 65 536); when both Lc and Le are present, Le is two
/// bytes without the leading `00`. Bytes that fit none of the cases make no APDU.
public struct CommandAPDU: Sendable, Hashable {
    public let cla: UInt8
    public let ins: UInt8
    public let p1: UInt8
    public let p2: UInt8
    /// The command data (empty without an Lc field).
    public let data: ArraySlice<UInt8>
    /// Whether the APDU has an Lc field and command data (cases 3 and 4).
    public let hasCommandData: Bool
    /// Ne, the number of response bytes expected; nil without an Le field (cases 1 and 3).
    public let expectedLength: Int?
    /// Whether the Le field is all zeros: "as many bytes as available, up to 256 (or 65 536)".
    public let asksForAllAvailable: Bool
    /// Whether Lc or Le uses the extended form.
    public let isExtended: Bool

    /// Splits `bytes`; nil when they are shorter than the header or their lengths disagree.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        cla = bytes[0]
        ins = bytes[1]
        p1 = bytes[2]
        p2 = bytes[3]
        let body = bytes[4...]
        guard let first = body.first else {
            (data, hasCommandData, expectedLength, asksForAllAvailable, isExtended) = (body, false, nil, false, false)
            return
        }
        if body.count == 1 {
            (data, hasCommandData, isExtended) = (body.dropFirst(), false, false)
            (expectedLength, asksForAllAvailable) = (first == 0 ? 256 : Int(first), first == 0)
            return
        }
        if first != 0 {
            let count = Int(first)
            let rest = body.dropFirst()
            switch rest.count {
            case count:
                (data, expectedLength, asksForAllAvailable) = (rest, nil, false)
            case count + 1:
                let le = rest.last ?? 0
                (data, expectedLength, asksForAllAvailable) = (rest.dropLast(), le == 0 ? 256 : Int(le), le == 0)
            default:
                return nil
            }
            (hasCommandData, isExtended) = (true, false)
            return
        }
        guard body.count >= 3 else { return nil }
        let rest = body.dropFirst(3)
        let value = Int(body[body.startIndex + 1]) << 8 | Int(body[body.startIndex + 2])
        isExtended = true
        if rest.isEmpty {
            (data, hasCommandData) = (rest, false)
            (expectedLength, asksForAllAvailable) = (value == 0 ? 65536 : value, value == 0)
            return
        }
        guard value > 0 else { return nil }
        switch rest.count {
        case value:
            (data, expectedLength, asksForAllAvailable) = (rest, nil, false)
        case value + 2:
            let le = Int(rest[rest.endIndex - 2]) << 8 | Int(rest[rest.endIndex - 1])
            (data, expectedLength, asksForAllAvailable) = (rest.dropLast(2), le == 0 ? 65536 : le, le == 0)
        default:
            return nil
        }
        hasCommandData = true
    }

    /// A command to send: `data` (empty: no Lc field) and `expectedLength`, Ne (nil: no Le
    /// field). The short form is used when every length fits it (data up to 255 bytes, Ne up
    /// to 256, which encodes as Le `00`), the extended form otherwise (Ne 65 536 encodes as
    /// `0000`). Nil for lengths beyond the extended form (data over 65 535 bytes, Ne outside
    /// 1 to 65 536).
    public init?(
        cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: some Collection<UInt8> = [UInt8](),
        expectedLength: Int? = nil
    ) {
        guard data.count <= 65_535 else { return nil }
        if let expectedLength, !(1...65_536).contains(expectedLength) { return nil }
        (self.cla, self.ins, self.p1, self.p2) = (cla, ins, p1, p2)
        self.data = ArraySlice(data)
        hasCommandData = !data.isEmpty
        self.expectedLength = expectedLength
        isExtended = data.count > 255 || (expectedLength ?? 0) > 256
        asksForAllAvailable = expectedLength == (isExtended ? 65_536 : 256)
    }

    /// The bytes on the wire: CLA INS P1 P2, then Lc and data, then Le, in the short form or
    /// (when ``isExtended``) the extended form (ISO/IEC 7816-4, 5.1).
    public var encoded: [UInt8] {
        var bytes: [UInt8] = [cla, ins, p1, p2]
        if hasCommandData {
            if isExtended {
                bytes += [0x00, UInt8(truncatingIfNeeded: data.count >> 8), UInt8(truncatingIfNeeded: data.count)]
            } else {
                bytes.append(UInt8(truncatingIfNeeded: data.count))
            }
            bytes += data
        }
        if let expectedLength {
            // 256 (short) and 65 536 (extended) truncate to zero: "all available".
            if isExtended {
                if !hasCommandData { bytes.append(0x00) }
                bytes += [UInt8(truncatingIfNeeded: expectedLength >> 8), UInt8(truncatingIfNeeded: expectedLength)]
            } else {
                bytes.append(UInt8(truncatingIfNeeded: expectedLength))
            }
        }
        return bytes
    }

    /// P1-P2 as an offset (bit 8 of P1 clear: a 15-bit offset in the current file; READ and
    /// UPDATE BINARY, ISO/IEC 7816-4 11.3.3).
    public var offset: Int { Int(p1) << 8 | Int(p2) }
}

/// The storage-card commands of a PC/SC contactless reader (PC/SC Workgroup specification
/// part 3, supplemental document for contactless ICCs, 3.2.2.1; class `FF`): GET DATA for the
/// UID and the historical bytes, READ BINARY and UPDATE BINARY on the pages of a Type 2 tag.
public enum StorageCardAPDU {
    /// The instruction of GET DATA (3.2.2.1.3).
    public static let getDataInstruction: UInt8 = 0xCA
    /// The instruction of READ BINARY (3.2.2.1.8).
    public static let readBinaryInstruction: UInt8 = 0xB0
    /// The instruction of UPDATE BINARY (3.2.2.1.9).
    public static let updateBinaryInstruction: UInt8 = 0xD6

    /// GET DATA with P1 00h: the UID (`FF CA 00 00 00`).
    public static let getUID: [UInt8] = [0xFF, getDataInstruction, 0x00, 0x00, 0x00]

    /// GET DATA with P1 01h: the historical bytes of the ATS of an ISO/IEC 14443-4 card
    /// (`FF CA 01 00 00`); many readers refuse it.
    public static let getHistoricalBytes: [UInt8] = [0xFF, getDataInstruction, 0x01, 0x00, 0x00]

    /// READ BINARY of 16 bytes from `page` (`FF B0 00 page 10`): four Type 2 pages, as READ 30h.
    public static func readBinary(page: UInt8) -> [UInt8] {
        [0xFF, readBinaryInstruction, 0x00, page, 0x10]
    }

    /// UPDATE BINARY of one 4-byte page (`FF D6 00 page 04 d0 d1 d2 d3`), as WRITE A2h.
    public static func updateBinary(page: UInt8, data: [UInt8]) -> [UInt8] {
        [0xFF, updateBinaryInstruction, 0x00, page, 0x04] + data
    }

    /// UPDATE BINARY of one 16-byte MIFARE Classic block (`FF D6 00 block 10 d0 ... d15`), as
    /// WRITE A0h.
    public static func updateBinary(block: UInt8, data: [UInt8]) -> [UInt8] {
        [0xFF, updateBinaryInstruction, 0x00, block, 0x10] + data
    }

    /// The instruction of LOAD KEYS (3.2.2.1.4).
    public static let loadKeysInstruction: UInt8 = 0x82
    /// The instruction of GENERAL AUTHENTICATE (3.2.2.1.6).
    public static let generalAuthenticateInstruction: UInt8 = 0x86

    /// LOAD KEYS of a 6-byte MIFARE Classic key into the reader's volatile `slot`
    /// (`FF 82 00 slot 06 key`; P1 00: card key, plain transmission, volatile memory).
    public static func loadKeys(slot: UInt8, key: [UInt8]) -> [UInt8] {
        [0xFF, loadKeysInstruction, 0x00, slot, 0x06] + key
    }

    /// GENERAL AUTHENTICATE of `block` with the key in `slot` (`FF 86 00 00 05 01 00 block
    /// type slot`): version 01, block number MSB 00 and LSB, key type 60h (key A) or 61h (key B).
    public static func generalAuthenticate(block: UInt8, keyB: Bool, slot: UInt8) -> [UInt8] {
        [0xFF, generalAuthenticateInstruction, 0x00, 0x00, 0x05, 0x01, 0x00, block, keyB ? 0x61 : 0x60, slot]
    }
}
