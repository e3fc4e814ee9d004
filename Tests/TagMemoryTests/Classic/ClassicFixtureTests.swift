import NDEF
import TagMemory
import Testing

/// What a MIFARE Classic fixture must parse to.
struct ClassicExpectation: Sendable, CustomTestStringConvertible {
    /// The fixture file name.
    var name: String
    /// The application note or datasheet clause the expectation checks.
    var clause: String
    /// The expected NDEF status.
    var status: NFCNDEFStatus
    /// The expected capacity.
    var capacity: Int
    /// The expected message (nil: none).
    var message: NFCNDEFMessage?
    /// The expected problem code, if any.
    var problem: TagMemoryError.Code?
    /// The expected NFC sector numbers.
    var sectors: [Int]

    var testDescription: String { "\(name): \(clause)" }
}

@Suite("MIFARE Classic memory images")
struct ClassicFixtureTests {
    static let uri = exampleURIMessage
    static let all1K = Array(1...15)
    static let expectations: [ClassicExpectation] = [
        .init(
            name: "classic-1k-factory.hex", clause: "MF1S50yyX 8.6.3: GPB 69h, DA bit 0, no MAD (AN10787)",
            status: .notSupported, capacity: 0, problem: .notFormatted, sectors: []),
        .init(
            name: "classic-1k-ndef-empty.hex", clause: "AN1304: empty NDEF TLV 03 00 FE; 15 × 48 - 4 = 716",
            status: .readWrite, capacity: 716, sectors: all1K),
        .init(
            name: "classic-1k-ndef-uri.hex", clause: "AN1304: NDEF TLV with a one-byte length",
            status: .readWrite, capacity: 716, message: uri, sectors: all1K),
        .init(
            name: "classic-1k-ndef-multi-sector.hex",
            clause: "AN1304: three-byte length, data blocks of sectors 1-7, trailers skipped; 8 × 48 - 4 = 380",
            status: .readWrite, capacity: 380, message: textMessage(count: 300), sectors: Array(1...8)),
        .init(
            name: "classic-4k-mad2-long-message.hex",
            clause: "AN10787 MAD2, AN1304: across sector 16 into sector 32; 30 × 48 + 8 × 240 - 4 = 3356",
            status: .readWrite, capacity: 3356, message: textMessage(count: 1500),
            sectors: Array(1...15) + Array(17...39)),
        .init(
            name: "classic-1k-read-only-gpb.hex", clause: "AN1304: GPB write access 11b; NULL TLV first: 720 - 5 = 715",
            status: .readOnly, capacity: 715, message: uri, sectors: all1K),
        .init(
            name: "classic-1k-read-only-access-bits.hex",
            clause: "MF1S50yyX 8.7.3: 07 8F 0F, data blocks never written",
            status: .readOnly, capacity: 716, message: uri, sectors: all1K),
        .init(
            name: "classic-1k-read-only.hex", clause: "AN1305: GPB 43h and access bits 07 8F 0F",
            status: .readOnly, capacity: 716, message: uri, sectors: all1K),
        .init(
            name: "classic-1k-hostile-bad-mad-crc.hex", clause: "AN10787: CRC mismatch, strict policy",
            status: .notSupported, capacity: 0, problem: .notFormatted, sectors: []),
        .init(
            name: "classic-1k-hostile-length-past-end.hex", clause: "AN1304: the TLV must fit the data area",
            status: .readWrite, capacity: 716, problem: .malformedTLV, sectors: all1K),
        .init(
            name: "classic-1k-hostile-truncated.hex", clause: "Partial image: the TLV value runs past its end",
            status: .readWrite, capacity: 380, problem: .truncatedImage, sectors: Array(1...8)),
        .init(
            name: "classic-1k-hostile-blocked-sector.hex", clause: "MF1S50yyX 8.7.1: inconsistent access bits",
            status: .notSupported, capacity: 0, problem: .notFormatted, sectors: all1K),
        .init(
            name: "classic-1k-hostile-ndef-version-2.hex", clause: "AN1304: unknown major mapping version 2",
            status: .notSupported, capacity: 0, problem: .notFormatted, sectors: all1K),
        .init(
            name: "classic-1k-no-ndef-sector.hex", clause: "AN1304: no sector with AID E103h",
            status: .notSupported, capacity: 0, problem: .notFormatted, sectors: []),
        .init(
            name: "classic-1k-gap-in-ndef-sectors.hex", clause: "AN1304: NFC sectors contiguous; 2 × 48 - 2 = 94",
            status: .readWrite, capacity: 94, message: uri, sectors: [1, 2]),
        .init(
            name: "classic-4k-libfreefare-gap.hex",
            clause: "libfreefare's 4K layout: sectors 1 and 32, read across the gap; 48 + 240 - 4 = 284",
            status: .readWrite, capacity: 284, message: textMessage(count: 243), sectors: [1, 32]),
        .init(
            name: "classic-mini-ndef-uri.hex", clause: "AN1304: proprietary TLV first; 4 × 48 - 4 - 2 = 186",
            status: .readWrite, capacity: 186, message: uri, sectors: [1, 2, 3, 4]),
    ]

    @Test("Every fixture file has an expectation")
    func everyFixtureCovered() {
        #expect(Set(ClassicFixtures.names) == Set(Self.expectations.map(\.name)))
        #expect(ClassicFixtures.names.count == 17)
    }

    @Test("Status, capacity, message, problem and NFC sectors", arguments: expectations)
    func fixture(_ expected: ClassicExpectation) throws {
        let memory = try ClassicFixtures.memory(expected.name)
        #expect(memory.ndefStatus == NDEFTagStatus(status: expected.status, capacity: expected.capacity))
        #expect(memory.message == expected.message)
        #expect(memory.problem?.code == expected.problem)
        #expect(memory.ndefSectors.map(\.number) == expected.sectors)
        #expect((memory.ndefStatusReason == nil) == (expected.status == .readWrite))
        if let message = memory.message {
            #expect(memory.ndefMessageBytes == (try message.encoded()))
            #expect(message.length <= memory.ndefStatus.capacity)
        }
        // Every image holds a 4-byte UID with its BCC in block 0 (MF1S50yyX 8.6.1).
        #expect(memory.isFourByteUIDCheckValid == true)
        // No TLV byte lies in a trailer or in sector 16.
        for tlv in memory.tlvs {
            for run in tlv.valueRanges {
                #expect(memory.skippedBytes.reservedCount(in: run) == 0)
                #expect(!MifareClassicSector.isTrailer(block: run.lowerBound / 16))
            }
        }
    }

    @Test("The type follows a full image's size; the sectors and trailers are all read")
    func types() throws {
        let sizes = [
            ("classic-mini-ndef-uri.hex", MifareClassicType.mini), ("classic-1k-ndef-uri.hex", .classic1K),
            ("classic-4k-mad2-long-message.hex", .classic4K),
        ]
        for (name, type) in sizes {
            let memory = try ClassicFixtures.memory(name)
            #expect(memory.type == type)
            #expect(memory.sectors.count == type.sectorCount && memory.trailers.count == type.sectorCount)
        }
        #expect(try ClassicFixtures.memory("classic-1k-hostile-truncated.hex").type == nil)
    }

    @Test("The Android-formatted card: MAD sector 78 77 88 C1, NFC sectors 7F 07 88 40 (AN10787, AN1304)")
    func androidFormat() throws {
        let memory = try ClassicFixtures.memory("classic-1k-ndef-empty.hex")
        let mad = try #require(memory.directory)
        #expect(mad.mad1.storedCRC == 0x14 && mad.mad1.infoByte == 0x01 && mad.generalPurposeByte == .mad1)
        let first = try #require(MifareClassicSector(0))
        let sector0 = try #require(memory.trailer(of: first))
        #expect(sector0.accessBits == .directory && sector0.keyA == MifareClassicSectorTrailer.madKeyA)
        #expect(sector0.accessBits.dataBlockAccess.allSatisfy { $0.write == .keyB && $0.read == .either })
        for sector in memory.ndefSectors {
            let trailer = try #require(memory.trailer(of: sector))
            #expect(trailer.accessBits == .ndefReadWrite && trailer.generalPurposeByte == .ndefReadWrite)
            #expect(trailer.keyA == MifareClassicSectorTrailer.ndefKeyA)
            #expect(trailer.accessBits.trailerAccess?.keyBRead == .never)  // key B reads as zeros
            #expect(trailer.keyB == [0, 0, 0, 0, 0, 0])
        }
        #expect(memory.ndefMessageBytes == [] && memory.message == nil)
        #expect(memory.tlvScan?.terminatorAddress == 66)
        #expect(memory.dataArea == 64..<1008)
        #expect(memory.dataRanges.count == 15 && memory.dataRanges.allSatisfy { $0.count == 48 })
    }

    @Test("A 4K message skips every trailer and the whole MAD2 sector (AN1304, AN10787)")
    func fourKRuns() throws {
        let memory = try ClassicFixtures.memory("classic-4k-mad2-long-message.hex")
        let ndef = try #require(memory.ndefTLV)
        #expect(ndef.typeAddress == 64 && ndef.length == 1510)
        let sector16 = try #require(MifareClassicSector(16))
        #expect(ndef.valueRanges.allSatisfy { !$0.overlaps(sector16.bytes) })
        // 44 data bytes in sector 1, 48 in each of 2-15 and 17-31 (1436 in all), the last 74 in sector 32.
        #expect(ndef.valueRanges.first == 68..<112)
        #expect(ndef.valueRanges.last == 2048..<2122)
        #expect(ndef.valueRanges.count == 31)
    }

    @Test("A message past the contiguous NFC sectors goes on after the gap, as libfreefare reads it")
    func acrossTheGap() throws {
        let memory = try ClassicFixtures.memory("classic-4k-libfreefare-gap.hex")
        let directory = try #require(memory.directory)
        #expect(directory.ndefSectors().map(\.number) == [1])
        #expect(directory.ndefSectorsAcrossGaps().map(\.number) == [1, 32])
        let ndef = try #require(memory.ndefTLV)
        // 46 bytes after the 2-byte TLV header in sector 1, the other 204 in sector 32.
        #expect(ndef.valueRanges == [66..<112, 2048..<2252])
        // A message that fits the contiguous run stays there: the gap fixture reads sectors 1-2.
        let gap = try ClassicFixtures.memory("classic-1k-gap-in-ndef-sectors.hex")
        #expect(gap.ndefSectors.map(\.number) == [1, 2] && gap.directory?.ndefSectorsAcrossGaps().count == 3)
        // A length past every NFC sector is still malformed, with the contiguous run's area.
        var bytes = try ClassicFixtures.load("classic-4k-libfreefare-gap.hex")
        bytes[64 + 1] = 0xFF
        bytes.replaceSubrange(66..<68, with: [0x04, 0x00])
        let long = MifareClassicMemory(bytes: bytes)
        #expect(long.problem?.code == .malformedTLV && long.ndefSectors.map(\.number) == [1])
    }

    @Test("A bad MAD CRC reads under the tolerant policy, as neard and Android do (AN10787)")
    func tolerantCRC() throws {
        let memory = try ClassicFixtures.memory("classic-1k-hostile-bad-mad-crc.hex", crcPolicy: .tolerant)
        #expect(memory.directory?.isCRCValid == false)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 716))
        #expect(memory.message == Self.uri && memory.problem == nil)
        let strict = try ClassicFixtures.memory("classic-1k-hostile-bad-mad-crc.hex")
        #expect(strict.problem?.offset == 16 && strict.directory != nil && strict.tlvScan == nil)
    }

    @Test("Read-only reasons name the GPB or the access bits (AN1304, MF1S50yyX 8.7.3)")
    func readOnlyReasons() throws {
        let gpb = try ClassicFixtures.memory("classic-1k-read-only-gpb.hex")
        #expect(gpb.ndefStatusReason?.contains("GPB 43h") == true)
        let bits = try ClassicFixtures.memory("classic-1k-read-only-access-bits.hex")
        #expect(bits.ndefStatusReason?.contains("07 8F 0F") == true)
    }

    @Test("The nfc-mfclassic dump: sector 1 is the only NFC sector, MAD CRC C0h (AN10787, AN1304)")
    func libnfcDump() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("mifare-classic-1k-ndef-libnfc.mfd"), fileName: "x.mfd")
        #expect(dump.layout == .mifareClassic)
        let memory = MifareClassicMemory(dump: dump)
        #expect(memory.type == .classic1K && memory.directory?.mad1.storedCRC == 0xC0)
        #expect(memory.ndefSectors.map(\.number) == [1])
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 46))
        let uri = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("proxmark.com".utf8))
        #expect(memory.message == NFCNDEFMessage(records: [uri]))
        #expect(memory.isFourByteUIDCheckValid == true)
    }

    @Test("A Type 2 image finds no MAD and is not taken for NDEF")
    func type2Image() throws {
        let memory = MifareClassicMemory(bytes: try TagFixtures.load("ntag215-short-message.hex"))
        #expect(memory.ndefStatus.status == .notSupported)
        #expect(memory.problem != nil)
    }
}
