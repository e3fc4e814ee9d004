/// How a Type 4 READ BINARY or UPDATE BINARY addresses bytes in a file, and what that costs.
///
/// ISO/IEC 7816-4 (READ BINARY / UPDATE BINARY with an even INS): when bit 8 of P1 is 0,
/// P1-P2 is a 15-bit offset, so the plain commands `B0` / `D6` reach offsets up to 7FFF only.
/// NFC Forum Type 4 Tag 3.0 (sections 5.1 and 5.5.6 / 5.5.7) adds, for mapping version 3.0,
/// the odd-INS commands `B1` / `D7`, whose command data carries the offset in an offset data
/// object (tag 54, length 03, three offset bytes) and whose data travels in a discretionary
/// data object (tag 53 with a BER-TLV length). This type keeps that arithmetic in
/// one place for the planners and the command builder.
enum Type4Addressing {
    /// The first offset the plain commands cannot address.
    static let plainLimit = 0x8000
    /// The largest offset an offset data object can carry (three bytes).
    static let largestODOOffset = 0xFF_FFFF
    /// Offset data object (54 03 o o o) plus the discretionary data object's tag (53).
    static let updateODOOverhead = 6
    /// The discretionary data object's tag (53) in a READ BINARY `B1` response.
    static let readODOOverhead = 1

    /// Whether the bytes `offset..<offset+length` can use the plain `B0` / `D6` form.
    static func isPlain(offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset < plainLimit && length <= plainLimit - offset
    }

    /// The size of a BER-TLV length field for `length` (ISO/IEC 7816-4, BER-TLV length fields), or nil
    /// when it needs more than the three length bytes this mapping uses.
    static func berLengthSize(_ length: Int) -> Int? {
        switch length {
        case 0...0x7F: 1
        case 0x80...0xFF: 2
        case 0x100...0xFFFF: 3
        case 0x1_0000...0xFF_FFFF: 4
        default: nil
        }
    }

    /// The BER-TLV length field for `length` (`length` below 2²⁴).
    static func berLength(_ length: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: length)
        switch berLengthSize(length) {
        case 1: return [UInt8(truncatingIfNeeded: value)]
        case 2: return [0x81, UInt8(truncatingIfNeeded: value)]
        case 3: return [0x82, UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        default:
            return [
                0x83, UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                UInt8(truncatingIfNeeded: value),
            ]
        }
    }

    /// The most data bytes that fit in `budget` bytes after `overhead` fixed bytes and the
    /// BER-TLV length of the data itself; 0 when not even one byte fits.
    static func largestODOData(budget: Int, overhead: Int) -> Int {
        var best = 0
        for (size, range) in [(1, 1...0x7F), (2, 0x80...0xFF), (3, 0x100...0xFFFF)] {
            let room = budget - overhead - size
            guard room >= range.lowerBound else { continue }
            best = max(best, min(room, range.upperBound))
        }
        return best
    }

    /// The per-command byte budget to use for a limit advertised by the tag and a reader.
    ///
    /// A budget of exactly 256 is lowered to 255: a short Lc field cannot say 256, and a short
    /// Le of `00` (meaning 256) is refused by some tags in the field (Android's NFC stack makes
    /// the same choice). Budgets above 256 keep their value and need extended-length APDUs.
    static func budget(tag: Int, reader: Int?) -> Int {
        let limit = min(tag, reader ?? tag)
        return limit == 256 ? 255 : limit
    }
}
