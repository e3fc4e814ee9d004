import HexText
import TagMemory

extension SimulatedType2Tag {
    /// The ASCII mirror of NTAG213/215/216 (datasheet 8.7): the text READ and FAST_READ show in
    /// place of memory from MIRROR_PAGE, byte MIRROR_BYTE on, and its first byte address; nil when
    /// the mirror is off. Memory keeps its own bytes; WRITE is not affected.
    ///
    /// - The UID is 14 upper-case hex characters (8.7.1), the NFC counter 6, most significant byte
    ///   first (8.7.2), both together the UID, `x` and the counter, 21 (8.7.3).
    /// - The mirror is off when MIRROR_CONF is 00b, MIRROR_PAGE is below 04h, or the text would
    ///   not end inside user memory ("the data will not be mirrored", 8.7).
    /// - The counter is mirrored only with NFC_CNT_EN set, and with NFC_CNT_PWD_PROT set only after
    ///   PWD_AUTH (8.7.2); without it the UID and counter mode mirrors the UID alone, as the Flipper
    ///   Zero's NTAG emulation does (the datasheet does not say).
    var asciiMirror: (start: Int, text: [UInt8])? {
        guard let configuration = rules.configuration,
            let range = configuration.mirroredBytes(authenticated: isAuthenticated)
        else { return nil }
        let uidText = Self.hexText(uid)
        let counterText = Self.hexText([
            UInt8(truncatingIfNeeded: nfcCounter >> 16), UInt8(truncatingIfNeeded: nfcCounter >> 8),
            UInt8(truncatingIfNeeded: nfcCounter),
        ])
        // TagMemory's rule gives the bytes shown: 14 for the UID, 6 for the counter, 21 for both,
        // 14 for both while the counter is hidden.
        let text: [UInt8] =
            switch range.count {
            case 6: counterText
            case 21: uidText + [UInt8(ascii: "x")] + counterText
            default: uidText
            }
        return (range.lowerBound, text)
    }

    /// The 4 bytes of `page` as READ and FAST_READ return them: ``readBack(page:)`` with the ASCII
    /// mirror's characters in place (`mirror`, from ``asciiMirror``, once per command).
    func readBack(page: Int, mirror: (start: Int, text: [UInt8])?) -> [UInt8] {
        var bytes = readBack(page: page)
        guard let mirror else { return bytes }
        for offset in 0..<4 {
            let address = page * 4 + offset - mirror.start
            if address >= 0 && address < mirror.text.count { bytes[offset] = mirror.text[address] }
        }
        return bytes
    }

    /// `bytes` as upper-case ASCII hex.
    static func hexText(_ bytes: [UInt8]) -> [UInt8] {
        Array(Hex.encode(bytes, uppercase: true).utf8)
    }
}
