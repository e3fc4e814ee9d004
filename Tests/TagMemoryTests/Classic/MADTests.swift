import TagMemory
import Testing

@Suite("MIFARE Application Directory")
struct MADTests {
    @Test("CRC-8/MIFARE-MAD: polynomial 1Dh, preset C7h, MSB first, check value 99h (AN10787)")
    func crcCheckValue() {
        #expect(MADCRC.compute(Array("123456789".utf8)) == 0x99)
        #expect(MADCRC.compute([]) == 0xC7)
        #expect(MADCRC.polynomial == 0x1D && MADCRC.preset == 0xC7)
    }

    @Test("CRC over info byte and AIDs reproduces the values Android's rw_mfc.cc writes (AN10787)")
    func crcVectors() {
        let ndef: [UInt8] = [0x03, 0xE1]
        // MAD1: info 01 + 15 × 03 E1 → 14h; MAD2: info 01 + 23 × 03 E1 → E8h.
        #expect(MADCRC.compute([0x01] + Array([[UInt8]](repeating: ndef, count: 15).joined())) == 0x14)
        #expect(MADCRC.compute([0x01] + Array([[UInt8]](repeating: ndef, count: 23).joined())) == 0xE8)
        // The nfc-mfclassic fixture: info 01, sector 1 NDEF, the rest free → C0h.
        #expect(MADCRC.compute([0x01, 0x03, 0xE1] + [UInt8](repeating: 0, count: 28)) == 0xC0)
        // The bit order matters: a reflected CRC with the same constants gives another value.
        #expect(MADCRC.compute([0x01] + Array([[UInt8]](repeating: ndef, count: 15).joined())) != 0x29)
    }

    @Test("AIDs are stored application code first: 03 E1 is E103h, NFC Forum NDEF (AN10787, AN1304)")
    func aidByteOrder() {
        let aid = MADApplicationIdentifier(storedBytes: 0x03, 0xE1)
        #expect(aid == .ndef)
        #expect(aid.rawValue == 0xE103 && aid.functionCluster == 0xE1 && aid.applicationCode == 0x03)
        #expect(aid.storedBytes == [0x03, 0xE1])
        #expect(aid.description == "E103h (NFC Forum NDEF)")
        #expect(MADApplicationIdentifier(storedBytes: 0xE1, 0x03) != .ndef)
        let admin: [(MADApplicationIdentifier, UInt16, String)] = [
            (.free, 0, "free"), (.defect, 1, "defect"), (.reserved, 2, "reserved"),
            (.additionalDirectoryInformation, 3, "additional directory information"),
            (.cardHolderInformation, 4, "card holder information"), (.notApplicable, 5, "not applicable"),
        ]
        for (aid, raw, name) in admin {
            #expect(aid.rawValue == raw && aid.isAdministrationCode && aid.name == name)
        }
        #expect(MADApplicationIdentifier(rawValue: 0x0006).name == "reserved administration code")
        #expect(MADApplicationIdentifier(rawValue: 0x4803).name == nil)
    }

    @Test("GPB in sector 0: DA bit 7, MA bit 6, ADV bits 1-0 (AN10787)")
    func madGPB() {
        let c1 = MifareClassicGeneralPurposeByte.mad1
        #expect(c1.isMADAvailable && c1.isMultiApplicationCard && c1.madVersion == 1)
        #expect(MifareClassicGeneralPurposeByte.mad2.madVersion == 2)
        let factory = MifareClassicGeneralPurposeByte(rawValue: 0x69)
        #expect(!factory.isMADAvailable && factory.madVersion == 1)
        #expect(MifareClassicGeneralPurposeByte(rawValue: 0x80).madVersion == nil)
        #expect(MifareClassicGeneralPurposeByte(rawValue: 0x83).madVersion == nil)
        #expect(!MifareClassicGeneralPurposeByte(rawValue: 0x81).isMultiApplicationCard)
    }

    @Test("GPB in an NFC sector: version in bits 7-4, read access 3-2, write access 1-0 (AN1304)")
    func ndefGPB() {
        let rw = MifareClassicGeneralPurposeByte.ndefReadWrite
        #expect(rw.ndefMajorVersion == 1 && rw.ndefMinorVersion == 0)
        #expect(rw.ndefReadAccess == .granted && rw.ndefWriteAccess == .granted)
        let ro = MifareClassicGeneralPurposeByte.ndefReadOnly
        #expect(ro.ndefReadAccess == .granted && ro.ndefWriteAccess == .denied)
        let odd = MifareClassicGeneralPurposeByte(rawValue: 0x5E)  // 01 01 11 10
        #expect(odd.ndefMajorVersion == 1 && odd.ndefMinorVersion == 1)
        #expect(odd.ndefReadAccess == .denied && odd.ndefWriteAccess == .reserved(0b10))
        #expect(MifareClassicGeneralPurposeByte.Access(bits: 0b01).bits == 0b01)
        #expect(MifareClassicGeneralPurposeByte(rawValue: 0x80).ndefMajorVersion == 2)
    }

    @Test("MAD1 directory: CRC, info byte, 15 AIDs for sectors 1-15 (AN10787)")
    func mad1() throws {
        var image = ClassicImage()
        image.setMAD1(info: 0x05, aids: [.ndef, .ndef, .free, .cardHolderInformation])
        let mad = try MifareApplicationDirectory(image: image.bytes)
        #expect(mad.version == 1 && mad.mad2 == nil && !mad.isMAD2Missing)
        #expect(mad.isCRCValid && mad.mad1.isCRCValid)
        #expect(mad.publisherSector == 5)
        #expect(mad.mad1.applicationIdentifiers.count == 15)
        #expect(mad.applicationIdentifier(forSector: 1) == .ndef)
        #expect(mad.applicationIdentifier(forSector: 4) == .cardHolderInformation)
        #expect(mad.applicationIdentifier(forSector: 0) == nil)
        #expect(mad.applicationIdentifier(forSector: 16) == nil)
        #expect(mad.applicationIdentifier(forSector: 17) == nil)
        #expect(mad.entries.count == 15)
        #expect(mad.sectors(for: .ndef).map(\.number) == [1, 2])
        #expect(mad.ndefSectors().map(\.number) == [1, 2])
    }

    @Test("A wrong CRC is reported, not thrown (AN10787)")
    func badCRC() throws {
        var image = ClassicImage()
        image.setMAD1(aids: [.ndef], crc: 0x00)
        let mad = try MifareApplicationDirectory(image: image.bytes)
        #expect(!mad.isCRCValid && mad.mad1.storedCRC == 0 && mad.mad1.computedCRC != 0)
        #expect(mad.applicationIdentifier(forSector: 1) == .ndef)
    }

    @Test("No MAD: DA bit 0, ADV 00b or 11b, or fewer than 64 bytes (AN10787)")
    func noMAD() {
        var image = ClassicImage()
        image.setMAD1(gpb: 0x41, aids: [.ndef])
        #expect(throws: TagMemoryError(.notFormatted, "")) { try MifareApplicationDirectory(image: image.bytes) }
        image.setMAD1(gpb: 0xC0, aids: [.ndef])
        #expect(throws: TagMemoryError(.notFormatted, "")) { try MifareApplicationDirectory(image: image.bytes) }
        image.setMAD1(gpb: 0xC3, aids: [.ndef])
        #expect(throws: TagMemoryError(.notFormatted, "")) { try MifareApplicationDirectory(image: image.bytes) }
        image.setMAD1(gpb: 0xC1, aids: [.ndef])
        #expect(throws: TagMemoryError(.truncatedImage, "")) {
            try MifareApplicationDirectory(image: image.bytes.prefix(63))
        }
        #expect((try? MifareApplicationDirectory(image: image.bytes.prefix(64))) != nil)
    }

    @Test("MAD2 is read from blocks 64-66 only with ADV 10b on a card with sector 16 (AN10787)")
    func mad2() throws {
        let bytes = try ClassicFixtures.load("classic-4k-mad2-long-message.hex")
        let mad = try MifareApplicationDirectory(image: bytes, sectorCount: 40)
        #expect(mad.version == 2 && mad.isCRCValid)
        let mad2 = try #require(mad.mad2)
        #expect(mad2.storedCRC == 0xE8 && mad2.infoByte == 0x01 && mad2.applicationIdentifiers.count == 23)
        #expect(mad.applicationIdentifier(forSector: 39) == .ndef)
        #expect(mad.entries.count == 38)
        #expect(mad.ndefSectors().count == 38)
        #expect(mad.ndefSectors(sectorCount: 32).count == 30)
        // Cut before block 66 ends: MAD2 is missing, MAD1 still reads.
        let cut = try MifareApplicationDirectory(image: bytes.prefix(1071))
        #expect(cut.isMAD2Missing && cut.mad2 == nil && cut.ndefSectors().count == 15)
        // A card with 16 sectors has no sector 16: the ADV bits cannot ask for MAD2.
        let small = try MifareApplicationDirectory(image: bytes, sectorCount: 16)
        #expect(small.mad2 == nil && !small.isMAD2Missing)
        // A wrong MAD2 CRC makes the whole directory fail the check.
        var broken = bytes
        broken[1024] ^= 0xFF
        #expect(!(try MifareApplicationDirectory(image: broken)).isCRCValid)
    }

    @Test("NFC sectors must be contiguous; sector 16 does not break the run (AN1304)")
    func contiguity() throws {
        var image = ClassicImage()
        image.setMAD1(aids: [.free, .ndef, .ndef, .free, .ndef])
        let mad = try MifareApplicationDirectory(image: image.bytes)
        #expect(mad.ndefSectors().map(\.number) == [2, 3])
        #expect(mad.sectors(for: .ndef).map(\.number) == [2, 3, 5])
        #expect(mad.ndefSectors(sectorCount: 3).map(\.number) == [2])
        // Across sector 16 on a 4K: 15 then 17.
        let bytes = try ClassicFixtures.load("classic-4k-mad2-long-message.hex")
        let run = try MifareApplicationDirectory(image: bytes).ndefSectors().map(\.number)
        #expect(run.contains(15) && run.contains(17) && !run.contains(16))
    }
}
