import TagMemory
import TestSupport
import Testing

@Suite("MIFARE Classic access bits")
struct ClassicAccessBitsTests {
    @Test(
        "Known trailers decode to their conditions (MF1S50yyX 8.7.1, Figure 10)",
        arguments: [
            // bytes 6-8, data groups 0-2, trailer: transport, NFC sector, MAD sector, read-only.
            ([0xFF, 0x07, 0x80], [0b000, 0b000, 0b000], 0b001),
            ([0x7F, 0x07, 0x88], [0b000, 0b000, 0b000], 0b011),
            ([0x78, 0x77, 0x88], [0b100, 0b100, 0b100], 0b011),
            ([0x07, 0x8F, 0x0F], [0b010, 0b010, 0b010], 0b110),
            ([0x08, 0x77, 0x8F], [0b110, 0b110, 0b110], 0b011),
        ] as [([UInt8], [UInt8], UInt8)])
    func knownTrailers(bytes: [UInt8], data: [UInt8], trailer: UInt8) {
        let bits = MifareClassicAccessBits(byte6: bytes[0], byte7: bytes[1], byte8: bytes[2])
        #expect(bits.isConsistent)
        #expect((0..<3).compactMap { bits.condition(ofGroup: $0) } == data)
        #expect(bits.condition(ofGroup: 3) == trailer)
        #expect(bits.trailerAccess?.condition == trailer)
        #expect(MifareClassicAccessBits(conditions: data + [trailer]) == bits)
    }

    @Test("Every combination of conditions encodes to consistent bytes and decodes back (8.7.1)")
    func roundTrip() {
        for packed in 0..<4096 {
            let conditions = (0..<4).map { UInt8(truncatingIfNeeded: packed >> ($0 * 3) & 0b111) }
            let bits = MifareClassicAccessBits(conditions: conditions)
            #expect(bits.isConsistent)
            #expect((0...3).compactMap { bits.condition(ofGroup: $0) } == conditions)
        }
    }

    @Test("Any single flipped bit breaks the inverted copies: the sector reads as blocked (8.7.1)")
    func inversionCheck() {
        // Flipping any single bit of a consistent triple breaks it.
        for base in [MifareClassicAccessBits.transport, .ndefReadWrite, .directory, .ndefReadOnly] {
            for bit in 0..<24 {
                var bytes = base.bytes
                bytes[bit / 8] ^= 1 << UInt8(bit % 8)
                let flipped = MifareClassicAccessBits(byte6: bytes[0], byte7: bytes[1], byte8: bytes[2])
                #expect(!flipped.isConsistent)
                #expect(flipped.trailerAccess == nil && flipped.dataBlockAccess.isEmpty)
            }
        }
        #expect(!MifareClassicAccessBits(byte6: 0, byte7: 0, byte8: 0).isConsistent)
        #expect(!MifareClassicAccessBits(byte6: 0xFF, byte7: 0xFF, byte8: 0xFF).isConsistent)
        #expect(MifareClassicAccessBits(byte6: 0xFF, byte7: 0xFF, byte8: 0xFF).description.hasSuffix("blocked)"))
    }

    /// libfreefare's `mifare_data_access_permissions`, indexed by C3 C2 C1 (bit 0 = C1): key A
    /// read, write, decrement, increment in the high nibble, key B in the low one.
    static let libfreefareData: [UInt8] = [0xFF, 0x8C, 0x88, 0xAF, 0xAA, 0x08, 0x0C, 0x00]
    /// libfreefare's `mifare_trailer_access_permissions`: per field (key A, access bits, key B)
    /// read A, read B, write A, write B.
    static let libfreefareTrailer: [UInt16] = [0x28A, 0x1C1, 0x088, 0x0C0, 0x2AA, 0x0D0, 0x1D1, 0x0C0]

    /// The four bits `read A, read B, write A, write B` of a (read, write) pair.
    static func nibble(read: MifareClassicKeys, write: MifareClassicKeys) -> UInt16 {
        var value: UInt16 = 0
        if read.contains(.keyA) { value |= 8 }
        if read.contains(.keyB) { value |= 4 }
        if write.contains(.keyA) { value |= 2 }
        if write.contains(.keyB) { value |= 1 }
        return value
    }

    @Test("Data block table agrees with libfreefare's independent encoding (MF1S50yyX 8.7.3, Table 8)")
    func dataTable() {
        for index in 0..<8 {
            let c1 = UInt8(index & 1)
            let c2 = UInt8(index >> 1 & 1)
            let c3 = UInt8(index >> 2 & 1)
            let access = MifareClassicDataBlockAccess(c1: c1, c2: c2, c3: c3)
            func bits(_ key: MifareClassicKeys) -> UInt8 {
                var value: UInt8 = 0
                if access.read.contains(key) { value |= 8 }
                if access.write.contains(key) { value |= 4 }
                if access.decrementTransferRestore.contains(key) { value |= 2 }
                if access.increment.contains(key) { value |= 1 }
                return value
            }
            #expect(bits(.keyA) << 4 | bits(.keyB) == Self.libfreefareData[index], "C1C2C3 = \(c1)\(c2)\(c3)")
        }
        #expect(MifareClassicDataBlockAccess(condition: 0b110).isValueBlock)
        #expect(MifareClassicDataBlockAccess(condition: 0b001).isValueBlock)
        #expect(!MifareClassicDataBlockAccess(condition: 0b100).isValueBlock)
        #expect(MifareClassicDataBlockAccess(condition: 0).isTransportConfiguration)
    }

    @Test("Sector trailer table agrees with libfreefare's independent encoding (MF1S50yyX 8.7.2, Table 7)")
    func trailerTable() {
        for index in 0..<8 {
            let c1 = UInt8(index & 1)
            let c2 = UInt8(index >> 1 & 1)
            let c3 = UInt8(index >> 2 & 1)
            let condition: UInt8 = c1 << 2 | c2 << 1 | c3
            let access = MifareClassicTrailerAccess(condition: condition)
            let keyA: UInt16 = Self.nibble(read: access.keyARead, write: access.keyAWrite)
            let bits: UInt16 = Self.nibble(read: access.accessBitsRead, write: access.accessBitsWrite)
            let keyB: UInt16 = Self.nibble(read: access.keyBRead, write: access.keyBWrite)
            let value: UInt16 = keyA << 8 | bits << 4 | keyB
            #expect(value == Self.libfreefareTrailer[index], "C1C2C3 = \(String(condition, radix: 2))")
        }
        #expect(MifareClassicTrailerAccess(condition: 0b001).isTransportConfiguration)
        #expect(MifareClassicTrailerAccess(condition: 0b001).isKeyBReadable)
        #expect(!MifareClassicTrailerAccess(condition: 0b011).isKeyBReadable)
        #expect(MifareClassicTrailerAccess(condition: 0b110).isFrozen)
        #expect(!MifareClassicTrailerAccess(condition: 0b011).isFrozen)
    }

    @Test("Key B readable takes key B away from the data blocks (Table 8, note [1])")
    func keyBReadable() {
        let access = MifareClassicDataBlockAccess(condition: 0b100)
        #expect(access.write == .keyB)
        #expect(access.effective(keyBReadable: true).write == .never)
        #expect(access.effective(keyBReadable: false).write == .keyB)
        #expect(access.effective(keyBReadable: true).read == .keyA)
    }

    @Test("Sector trailer fields: key A, access bits, GPB, key B (MF1S50yyX 8.6.3)")
    func trailerFields() throws {
        let trailer = try MifareClassicSectorTrailer(bytes: hex("d3f7d3f7d3f7 7f0788 40 ffffffffffff"))
        #expect(trailer.keyA == MifareClassicSectorTrailer.ndefKeyA)
        #expect(trailer.accessBits == .ndefReadWrite)
        #expect(trailer.generalPurposeByte == .ndefReadWrite)
        #expect(trailer.keyB == MifareClassicSectorTrailer.transportKey)
        #expect(trailer.bytes == hex("d3f7d3f7d3f7 7f0788 40 ffffffffffff"))
        #expect(!trailer.isBlocked)
        let built = try MifareClassicSectorTrailer(
            keyA: MifareClassicSectorTrailer.ndefKeyA, accessBits: .ndefReadWrite, generalPurposeByte: .ndefReadWrite,
            keyB: MifareClassicSectorTrailer.transportKey)
        #expect(built == trailer)
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try MifareClassicSectorTrailer(
                keyA: [1], accessBits: .transport, generalPurposeByte: .ndefReadWrite, keyB: [])
        }
        #expect(throws: TagMemoryError(.truncatedImage, "")) { try MifareClassicSectorTrailer(bytes: [0, 1]) }
    }
}
