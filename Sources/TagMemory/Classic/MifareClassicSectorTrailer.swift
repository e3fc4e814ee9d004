/// The sector trailer: the last block of a sector.
///
/// NXP MF1S50yyX section 8.6.3: bytes 0-5 key A, bytes 6-8 the access bits, byte 9 the general
/// purpose byte, bytes 10-15 key B (or data when key B is not needed). Key A never reads back:
/// a card returns zeros for it, and for key B whenever the access conditions forbid reading it,
/// so in a dump the keys are zeros unless the dumping tool filled in the keys it used (libnfc
/// `nfc-mfclassic` does). The keys say nothing about the access a reader has here.
public struct MifareClassicSectorTrailer: Sendable, Hashable {
    /// The factory (transport) key, FFFFFFFFFFFF (MF1S50yyX 8.6.3).
    public static let transportKey: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    /// The public key A of MAD sectors, A0A1A2A3A4A5 (AN10787; libfreefare `mad_public_key_a`).
    public static let madKeyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    /// The public key A of NFC sectors, D3F7D3F7D3F7 (AN1304; libfreefare
    /// `mifare_classic_nfcforum_public_key_a`).
    public static let ndefKeyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]

    /// Bytes 0-5: key A as the image holds it (zeros as read from a card).
    public let keyA: [UInt8]
    /// Bytes 6-8.
    public let accessBits: MifareClassicAccessBits
    /// Byte 9.
    public let generalPurposeByte: MifareClassicGeneralPurposeByte
    /// Bytes 10-15: key B, or data, or zeros when it cannot be read.
    public let keyB: [UInt8]

    /// Reads a trailer from its 16 bytes.
    ///
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` unless `bytes` has exactly 16 bytes.
    public init(bytes: some Collection<UInt8>) throws(TagMemoryError) {
        let block = Array(bytes)
        guard block.count == MifareClassicSector.blockSize else {
            throw TagMemoryError(.truncatedImage, "a sector trailer has 16 bytes, not \(block.count)")
        }
        self.keyA = Array(block[0..<6])
        self.accessBits = MifareClassicAccessBits(byte6: block[6], byte7: block[7], byte8: block[8])
        self.generalPurposeByte = MifareClassicGeneralPurposeByte(rawValue: block[9])
        self.keyB = Array(block[10..<16])
    }

    /// A trailer with these fields.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` unless both keys have 6 bytes.
    public init(
        keyA: [UInt8],
        accessBits: MifareClassicAccessBits,
        generalPurposeByte: MifareClassicGeneralPurposeByte,
        keyB: [UInt8]
    ) throws(TagMemoryError) {
        guard keyA.count == 6, keyB.count == 6 else {
            throw TagMemoryError(.invalidArgument, "keys A and B have 6 bytes, not \(keyA.count) and \(keyB.count)")
        }
        self.keyA = keyA
        self.accessBits = accessBits
        self.generalPurposeByte = generalPurposeByte
        self.keyB = keyB
    }

    /// The 16 bytes.
    public var bytes: [UInt8] {
        keyA + accessBits.bytes + [generalPurposeByte.rawValue] + keyB
    }

    /// Whether the access bits are consistent; if not, the sector is blocked (MF1S50yyX 8.7.1).
    public var isBlocked: Bool { !accessBits.isConsistent }
}
