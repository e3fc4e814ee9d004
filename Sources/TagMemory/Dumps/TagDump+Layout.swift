extension TagDump.Layout {
    /// The sizes, in bytes, of MIFARE Classic images as libnfc `utils/nfc-mfclassic.c` writes
    /// them: Mini (20 blocks), 1K (64), Plus 2K (128) and 4K (256).
    public static let mifareClassicImageSizes: Set<Int> = [320, 1024, 2048, 4096]

    /// Guesses how an image without other clues is divided.
    ///
    /// An image is taken for MIFARE Classic only when its size is one of
    /// ``mifareClassicImageSizes``, its first bytes are not a Type 2 UID (page 0 byte 3 is
    /// BCC0 = 0x88 ⊕ UID0 ⊕ UID1 ⊕ UID2 and page 2 byte 0 is BCC1 = UID3 ⊕ … ⊕ UID6;
    /// ISO/IEC 14443-3 6.5.4, NTAG213/215/216 datasheet 8.5.1) and at least one sector trailer
    /// among the first 16 sectors (of 4 blocks each) carries self-consistent access bits (each of C1, C2, C3
    /// stored once plain and once inverted in bytes 6-8; MF1S50yyX section 8.7).
    public static func guess(for memory: [UInt8]) -> Self {
        guard mifareClassicImageSizes.contains(memory.count) else { return .type2 }
        if hasType2UID(memory) { return .type2 }
        for sector in 0..<min(16, memory.count / 64) {
            let trailer = (sector * 4 + 3) * 16
            if accessBitsAreConsistent(memory[(trailer + 6)..<(trailer + 9)]) { return .mifareClassic }
        }
        return .type2
    }

    /// Whether pages 0-2 hold a 7-byte UID with both check bytes right.
    static func hasType2UID(_ memory: [UInt8]) -> Bool {
        guard memory.count >= 9 else { return false }
        let bcc0 = 0x88 ^ memory[0] ^ memory[1] ^ memory[2]
        let bcc1 = memory[4] ^ memory[5] ^ memory[6] ^ memory[7]
        return memory[3] == bcc0 && memory[8] == bcc1
    }

    /// Whether three access-condition bytes store every bit once inverted and once plain:
    /// byte 6 = ¬C2 ¬C1, byte 7 = C1 ¬C3, byte 8 = C3 C2 (high nibble first).
    static func accessBitsAreConsistent(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 3 else { return false }
        let b6 = bytes[bytes.startIndex]
        let b7 = bytes[bytes.startIndex + 1]
        let b8 = bytes[bytes.startIndex + 2]
        let c1 = b7 >> 4
        let c2 = b8 & 0x0F
        let c3 = b8 >> 4
        return (~b6 & 0x0F) == c1 && (~b6 >> 4) == c2 && (~b7 & 0x0F) == c3
    }
}
