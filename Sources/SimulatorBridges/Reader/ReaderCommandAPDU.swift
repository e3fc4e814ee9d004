/// A command APDU as a contactless reader parses the pseudo-APDUs addressed to itself (class
/// `FF`): ISO/IEC 7816-4 5.1, cases 1 to 4 in the short form only (the reader's own commands
/// never need the extended form).
///
/// Le `00` stands for 256 bytes, "as many as available" (``asksForAll``).
struct ReaderCommandAPDU: Sendable, Hashable {
    let cla: UInt8
    let ins: UInt8
    let p1: UInt8
    let p2: UInt8
    /// The command data: empty without an Lc field.
    let data: [UInt8]
    /// Whether the APDU has an Lc field (cases 3 and 4).
    let hasData: Bool
    /// Ne, 1 to 256; nil without an Le field (cases 1 and 3).
    let expectedLength: Int?
    /// Whether Le is `00`.
    let asksForAll: Bool

    /// Splits `bytes`; nil when they are shorter than the header, use the extended form, or
    /// their Lc disagrees with their length.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        (cla, ins, p1, p2) = (bytes[0], bytes[1], bytes[2], bytes[3])
        let body = bytes.dropFirst(4)
        guard let first = body.first else {
            (data, hasData, expectedLength, asksForAll) = ([], false, nil, false)
            return
        }
        if body.count == 1 {
            (data, hasData) = ([], false)
            (expectedLength, asksForAll) = (first == 0 ? 256 : Int(first), first == 0)
            return
        }
        guard first != 0 else { return nil }
        let count = Int(first)
        let rest = body.dropFirst()
        switch rest.count {
        case count:
            (expectedLength, asksForAll) = (nil, false)
            data = Array(rest)
        case count + 1:
            let le = rest.last ?? 0
            (expectedLength, asksForAll) = (le == 0 ? 256 : Int(le), le == 0)
            data = Array(rest.dropLast())
        default:
            return nil
        }
        hasData = true
    }
}

/// The status words a contactless reader answers to its own commands (ISO/IEC 7816-4 5.6;
/// PC/SC Part 3 3.2.2.1; ACS ACR122U API 2.04).
enum ReaderStatus {
    /// 90 00: done.
    static let success: [UInt8] = [0x90, 0x00]
    /// 63 00: the operation failed (the ACR122U's answer to every failed card operation: a NAK,
    /// no answer, a CRC error).
    static let failed: [UInt8] = [0x63, 0x00]
    /// 62 82: end of data reached before Le bytes (GET DATA with Le above the data's length).
    static let endOfData: [UInt8] = [0x62, 0x82]
    /// 67 00: wrong length (Lc disagrees with the APDU's length).
    static let wrongLength: [UInt8] = [0x67, 0x00]
    /// 6A 81: function not supported (by this reader, or for the card in the field).
    static let functionNotSupported: [UInt8] = [0x6A, 0x81]
    /// 6D 00: instruction not supported.
    static let instructionNotSupported: [UInt8] = [0x6D, 0x00]

    /// 6C XX: wrong Le; XX is the exact length available.
    static func exactLength(_ count: Int) -> [UInt8] {
        [0x6C, UInt8(truncatingIfNeeded: count)]
    }
}
