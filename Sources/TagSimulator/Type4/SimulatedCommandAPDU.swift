/// A command APDU split into its fields, as a card reads it (ISO/IEC 7816-4, section 5.1:
/// cases 1 to 4, each in the short and the extended length form).
///
/// Short form: Lc and Le are one byte, Le `00` meaning 256. Extended form: a `00` byte, then
/// two length bytes (Le `0000` meaning 65 536); when both Lc and Le are present, Le is two
/// bytes without the leading `00`. Bytes that fit none of the cases make no APDU.
struct SimulatedCommandAPDU {
    let cla: UInt8
    let ins: UInt8
    let p1: UInt8
    let p2: UInt8
    /// The command data (empty without an Lc field).
    let data: ArraySlice<UInt8>
    /// Whether the APDU has an Lc field and command data (cases 3 and 4).
    let hasCommandData: Bool
    /// Ne, the number of response bytes expected; nil without an Le field (cases 1 and 3).
    let expectedLength: Int?
    /// Whether the Le field is all zeros: "as many bytes as available, up to 256 (or 65 536)".
    let asksForAllAvailable: Bool
    /// Whether Lc or Le uses the extended form.
    let isExtended: Bool

    /// Splits `bytes`; nil when they are shorter than the header or their lengths disagree.
    init?(_ bytes: [UInt8]) {
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

    /// P1-P2 as an offset (bit 8 of P1 clear: a 15-bit offset in the current file).
    var offset: Int { Int(p1) << 8 | Int(p2) }
}
