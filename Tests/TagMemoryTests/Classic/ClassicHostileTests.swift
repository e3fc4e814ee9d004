import NDEF
import TagMemory
import TestSupport
import Testing

@Suite("MIFARE Classic hostile images")
struct ClassicHostileTests {
    /// A 1K with NFC sectors 1-15 (7F 07 88 40) and `area` written from block 4.
    static func ndefCard(_ area: [UInt8], trailer: (access: [UInt8], gpb: UInt8) = ([0x7F, 0x07, 0x88], 0x40))
        -> ClassicImage
    {
        var image = ClassicImage()
        image.setMAD1(aids: [MADApplicationIdentifier](repeating: .ndef, count: 15))
        image.setNDEFTrailers(Array(1...15), access: trailer.access, gpb: trailer.gpb)
        image.writeArea(Array(1...15), area)
        return image
    }

    static let uriTLV = hex("0310 d1010c5504") + Array("example.com".utf8) + [0xFE]

    @Test("TLV lengths: FFFFh reserved, three-byte form under FFh, past the area (AN1304 TLV rules)")
    func tlvLengths() {
        let cases: [([UInt8], TagMemoryError.Code)] = [
            // 03 FF 0010: the three-byte form under FFh is read by its length (T2T 1.1, 2.3), here 16
            // bytes that are no NDEF message.
            (hex("03 ff ffff"), .malformedTLV), (hex("03 ff 0010"), .malformedMessage),
            (hex("03 ff 02d0"), .malformedTLV),
            (hex("fd ff 0300 03 00"), .malformedTLV),
        ]
        for (area, code) in cases {
            let memory = MifareClassicMemory(bytes: Self.ndefCard(area).bytes)
            #expect(memory.problem?.code == code, "\(area)")
        }
        // 720 data bytes: a TLV 03 FF 02CC (716) fits exactly, with no room for a Terminator.
        let full = hex("03ff02cc c1 01 000002c5 54 02 656e") + [UInt8](repeating: 0x61, count: 0x2C5 - 3)
        let memory = MifareClassicMemory(bytes: Self.ndefCard(full).bytes)
        #expect(memory.problem == nil && memory.message?.length == 716)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 716))
        #expect(memory.tlvScan?.terminatorAddress == nil)
    }

    @Test("Invalid NDEF inside a well-formed TLV is a malformed message; the status stays (AN1304)")
    func malformedMessage() {
        let memory = MifareClassicMemory(bytes: Self.ndefCard(hex("0303 d10101 fe")).bytes)
        #expect(memory.problem?.code == .malformedMessage && memory.message == nil)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 716))
    }

    @Test("A Terminator or the end of the area before any NDEF TLV: not NDEF (AN1304)")
    func noNDEFTLV() {
        for area in [hex("fe 0310"), hex("00 00 fd 01 aa fe"), []] {
            let memory = MifareClassicMemory(bytes: Self.ndefCard(area).bytes)
            #expect(memory.ndefStatus.status == .notSupported, "\(area)")
            #expect(memory.ndefTLVAddress == nil)
        }
        // An all-zero area is NULL TLVs to its end.
        let zeros = MifareClassicMemory(bytes: Self.ndefCard([]).bytes)
        #expect(zeros.problem?.code == .notFormatted && zeros.tlvs.count == 720)
    }

    @Test("NFC sector trailers: read access, data blocks key A cannot read, an unread all-zero trailer")
    func unreadableSectors() {
        let cases: [([UInt8], UInt8)] = [
            ([0x7F, 0x07, 0x88], 0x4C),  // GPB read access 11b (AN1304)
            ([0x7F, 0x07, 0x88], 0x44),  // GPB read access 01b, reserved
            ([0x7F, 0x07, 0x88], 0x00),  // mapping version 0.0
            (MifareClassicAccessBits(conditions: [0b011, 0b011, 0b011, 0b011]).bytes, 0x40),  // read with key B only
            ([0x00, 0x00, 0x00], 0x00),  // a trailer the dumping tool could not read
        ]
        for (access, gpb) in cases {
            let memory = MifareClassicMemory(bytes: Self.ndefCard(Self.uriTLV, trailer: (access, gpb)).bytes)
            #expect(memory.ndefStatus.status == .notSupported, "\(access) \(gpb)")
            #expect(memory.problem?.code == .notFormatted && memory.tlvScan == nil)
            #expect(memory.ndefStatusReason != nil)
        }
    }

    @Test("Write restrictions: reserved GPB write bits, key B-only writes (AN1304, MF1S50yyX 8.7.3)")
    func writeRestrictions() {
        let cases: [([UInt8], UInt8, String)] = [
            ([0x7F, 0x07, 0x88], 0x41, "reserved"),
            ([0x78, 0x77, 0x88], 0x40, "78 77 88"),
            (MifareClassicAccessBits(conditions: [0b000, 0b000, 0b100, 0b011]).bytes, 0x40, "group 2"),
        ]
        for (access, gpb, reason) in cases {
            let memory = MifareClassicMemory(bytes: Self.ndefCard(Self.uriTLV, trailer: (access, gpb)).bytes)
            #expect(memory.ndefStatus == NDEFTagStatus(status: .readOnly, capacity: 716))
            #expect(memory.ndefStatusReason?.contains(reason) == true, "\(memory.ndefStatusReason ?? "")")
            #expect(memory.message == exampleURIMessage)
        }
        // A read-only sector after the message still makes the card read-only.
        var image = Self.ndefCard(Self.uriTLV)
        image.setNDEFTrailers([15], gpb: 0x43)
        #expect(MifareClassicMemory(bytes: image.bytes).ndefStatus.status == .readOnly)
    }

    @Test("The MAD names sectors past the card: the card type bounds them (AN10787 0005h)")
    func sectorsPastTheCard() throws {
        var bytes = try ClassicFixtures.load("classic-mini-ndef-uri.hex")
        // Claim sectors 5-15 as NFC sectors too, with a right CRC.
        var body = [UInt8](bytes[17..<48])
        for index in stride(from: 9, to: 31, by: 2) { (body[index], body[index + 1]) = (0x03, 0xE1) }
        bytes.replaceSubrange(16..<48, with: [MADCRC.compute(body)] + body)
        let mini = MifareClassicMemory(bytes: bytes)
        #expect(mini.type == .mini && mini.ndefSectors.map(\.number) == [1, 2, 3, 4])
        #expect(mini.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 186))
        // Told it is a 1K, the same image reaches sectors past its end: truncated, but readable.
        let cut = MifareClassicMemory(bytes: bytes, type: .classic1K)
        #expect(cut.ndefSectors.count == 15 && cut.message == exampleURIMessage)
    }

    @Test("GPB announcing MAD2 on a 1K is ignored when the type is given (AN10787: MAD2 needs sector 16)")
    func mad2OnA1K() throws {
        var bytes = try ClassicFixtures.load("classic-1k-ndef-uri.hex")
        bytes[MifareApplicationDirectory.generalPurposeByteAddress] = 0xC2
        let memory = MifareClassicMemory(bytes: bytes, type: .classic1K)
        #expect(memory.directory?.version == 2 && memory.directory?.mad2 == nil)
        #expect(memory.message == exampleURIMessage)
        #expect(MifareClassicMemory(bytes: bytes).problem?.code == .truncatedImage)
    }

    @Test("Seeded random corruption of every fixture never traps and keeps TLVs out of trailers")
    func randomCorruption() throws {
        var generator = SeededRandom(seed: 0x4D49_4641_5245)
        for name in ClassicFixtures.names {
            let original = try ClassicFixtures.load(name)
            for _ in 0..<40 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...24, using: &generator) {
                    guard !bytes.isEmpty else { break }
                    let index = Int.random(in: 0..<min(bytes.count, 1200), using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) {
                    bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                }
                for policy in MifareApplicationDirectory.CRCPolicy.allCases {
                    let memory = MifareClassicMemory(bytes: bytes, crcPolicy: policy)
                    for run in memory.tlvs.flatMap(\.valueRanges) {
                        #expect(memory.skippedBytes.reservedCount(in: run) == 0)
                    }
                    let status = memory.ndefStatus
                    #expect(status.capacity >= 0 && status.capacity <= 3356)
                    _ = memory.ndefStatusReason
                }
            }
        }
    }

    @Test("Odd sizes: empty, one byte, a partial block, 5000 bytes")
    func oddSizes() {
        for count in [0, 1, 17, 63, 65, 1000, 5000] {
            let memory = MifareClassicMemory(bytes: [UInt8](repeating: 0xFF, count: count))
            #expect(memory.ndefStatus.status == .notSupported)
            #expect(memory.block(count / 16) == nil)
            #expect(memory.problem != nil)
        }
    }
}
