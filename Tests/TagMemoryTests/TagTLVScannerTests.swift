import TagMemory
import TestSupport
import Testing

/// The page-independent TLV scanner (NFC Forum Type 2 Tag 1.1, section 2.3).
@Suite("TLV scanner")
struct TagTLVScannerTests {
    /// `bytes` placed at byte address 16 of a zeroed memory of `size` bytes.
    func memory(_ bytes: [UInt8], size: Int = 64) -> [UInt8] {
        var memory = [UInt8](repeating: 0, count: size)
        memory.replaceSubrange(16..<(16 + bytes.count), with: bytes)
        return memory
    }

    @Test("T2T 2.3.1, 2.3.4, 2.3.6: NULL, NDEF and Terminator with the address of each part")
    func basicBlocks() {
        let bytes = memory(hex("00 03 03 d0 00 00 fe"))
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<64)
        #expect(scan.error == nil)
        #expect(scan.tlvs.map(\.kind) == [.null, .ndefMessage, .terminator])
        let ndef = scan.tlvs[1]
        #expect(ndef.typeAddress == 17 && ndef.lengthAddresses == [18] && ndef.valueAddress == 19)
        #expect(ndef.length == 3 && ndef.valueRanges == [19..<22] && ndef.endAddress == 22)
        #expect(ndef.value(in: bytes[...]) == [0xD0, 0x00, 0x00])
        #expect(scan.terminatorAddress == 22)
        #expect(scan.firstNDEFMessage == ndef)
    }

    @Test("T2T 2.3.2: the factory NTAG213 Lock Control TLV names 2 lock bytes at 160 and reserves them")
    func lockControl() throws {
        let bytes = memory(hex("01 03 a0 0c 34 03 00 fe"), size: 180)
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<160)
        let control = try #require(scan.tlvs.first?.lockControl)
        #expect(control.pageAddress == 10 && control.byteOffset == 0 && control.bytesPerPage == 16)
        #expect(control.byteAddress == 160 && control.lockBitCount == 12 && control.bytesLockedPerBit == 8)
        #expect(control.lockBytes == 160..<162)
        #expect(scan.reserved.ranges == [160..<162])
        #expect(scan.tlvs.map(\.kind) == [.lockControl, .ndefMessage, .terminator])
    }

    @Test("T2T 2.3.2, 2.3.3: a size byte of 0 means 256 bits or bytes")
    func zeroSizeMeans256() throws {
        let lock = try LockControlTLV(value: hex("f0 00 00"))
        #expect(lock.lockBitCount == 256 && lock.lockByteCount == 32 && lock.byteAddress == 15)
        let memoryControl = try MemoryControlTLV(value: hex("12 00 02"))
        #expect(memoryControl.size == 256 && memoryControl.byteAddress == 6 && memoryControl.reservedBytes == 6..<262)
    }

    @Test("T2T 2.2.1, 2.3.3: an NDEF value flows around bytes a Memory Control TLV reserves")
    func flowAroundReserved() {
        // Memory Control 02 03 18 04 04: 4 bytes at 1 × 16 + 8 = 24; NDEF TLV at 21, value 23, 28-30.
        let bytes = memory(hex("02 03 18 04 04 03 04 a1 ee ee ee ee a2 a3 a4 fe"))
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<64)
        #expect(scan.reserved.ranges == [24..<28])
        let ndef = scan.tlvs[1]
        #expect(ndef.valueRanges == [23..<24, 28..<31])
        #expect(ndef.value(in: bytes[...]) == [0xA1, 0xA2, 0xA3, 0xA4])
        #expect(scan.terminatorAddress == 31)
    }

    @Test("T2T 2.2.1: T and L bytes skip reserved bytes too")
    func headerAroundReserved() {
        // Reserved 20-23 given from the start: T at 19, L at 24, value at 25.
        let bytes = memory(hex("00 00 00 03 ee ee ee ee 01 d0 fe"))
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<64, reserved: ReservedByteRanges([20..<24]))
        let ndef = scan.tlvs[3]
        #expect(ndef.typeAddress == 19 && ndef.lengthAddresses == [24] && ndef.valueRanges == [25..<26])
    }

    @Test("T2T 2.3.4: the three-byte length form FF hi lo for 255 bytes and more")
    func threeByteLength() {
        var bytes = memory(hex("03 ff 01 2c"), size: 400)
        bytes[320] = 0xFE
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<400)
        let ndef = scan.tlvs[0]
        #expect(ndef.lengthAddresses == [17, 18, 19] && ndef.length == 300 && ndef.valueRanges == [20..<320])
        #expect(scan.terminatorAddress == 320)
    }

    @Test("T2T 2.3: a three-byte length under 00FFh is read by that length with a warning; FFFFh is reserved")
    func strictLengths() {
        let short = memory(hex("fd ff 00 02 aa bb 03 ff 00 00 fe"))
        let scan = TagTLVScanner.scan(short[...], area: 16..<64)
        #expect(scan.error == nil)
        #expect(scan.tlvs.map(\.length) == [2, 0, 0] && scan.tlvs[1].typeAddress == 22)
        #expect(scan.warnings.map(\.offset) == [16, 22])
        let reserved = memory(hex("fd ff ff ff"), size: 70_000)
        #expect(TagTLVScanner.scan(reserved[...], area: 16..<70_000).error == TagMemoryError(.malformedTLV, ""))
        let exact = memory(hex("03 ff 00 ff"), size: 300)
        #expect(TagTLVScanner.scan(exact[...], area: 16..<300).tlvs.first?.length == 255)
    }

    @Test("T2T 2.3: reserved T values are skipped by their length")
    func unknownTypes() {
        let bytes = memory(hex("04 02 aa bb ff 01 cc 03 00 fe"))
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<64)
        #expect(scan.tlvs.map(\.kind) == [.unknown(0x04), .unknown(0xFF), .ndefMessage, .terminator])
        #expect(scan.tlvs[0].type == 0x04 && TagTLV.Kind(type: 0xFD) == .proprietary)
    }

    @Test("T2T 2.3.2, 2.3.3: a control TLV whose length is not 3 is skipped by its length, reserving nothing")
    func controlLength() {
        let bytes = memory(hex("01 02 a0 0c 02 04 f1 0f 00 00 03 00 fe"))
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<64)
        #expect(scan.error == nil)
        #expect(scan.tlvs.map(\.kind) == [.lockControl, .memoryControl, .ndefMessage, .terminator])
        #expect(scan.tlvs[0].lockControl == nil && scan.tlvs[1].memoryControl == nil)
        #expect(scan.reserved == ReservedByteRanges())
        #expect(scan.warnings.map(\.offset) == [16, 20])
        #expect(
            scan.warnings[1].reason.contains("Memory Control TLV at byte 20 has 4 value bytes where T2T 1.1, 2.3.3"))
        #expect(TagTLVScanner.scan(bytes[...], area: 16..<64, interpretsControlTLVs: false).warnings.isEmpty)
    }

    @Test("A length past the data area is malformed; past the image (inside the area) is truncation")
    func pastTheEnd() {
        let bytes = memory(hex("03 30 d1"))
        #expect(TagTLVScanner.scan(bytes[...], area: 16..<64).error?.code == .malformedTLV)
        #expect(TagTLVScanner.scan(bytes[..<40], area: 16..<100).error?.code == .truncatedImage)
        // A length byte on the last byte of the area.
        let edge = memory(hex("00 00 03"), size: 19)
        let scan = TagTLVScanner.scan(edge[...], area: 16..<19)
        #expect(scan.error?.code == .malformedTLV && scan.tlvs.count == 2 && scan.failedTypeAddress == 18)
    }

    @Test("The scan ends at the end of the area without a Terminator")
    func noTerminator() {
        let bytes = memory(hex("03 02 d0 00"), size: 20)
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<20)
        #expect(scan.error == nil && scan.tlvs.count == 1 && scan.terminatorAddress == nil)
    }

    @Test("Forward only: every block starts after the previous one ends, so no input can loop")
    func forwardOnly() {
        // 64 KiB of NULL TLVs: one block per byte, and the scan ends.
        let nulls = [UInt8](repeating: 0, count: 65_536)
        let scan = TagTLVScanner.scan(nulls[...], area: 0..<65_536)
        #expect(scan.tlvs.count == 65_536 && scan.error == nil)
        // A pseudo-random area: blocks strictly increase and never overlap.
        var state: UInt32 = 0x1234_5678
        var noise = [UInt8](repeating: 0, count: 4096)
        for index in noise.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            noise[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        for start in [0, 1, 7, 100] {
            let result = TagTLVScanner.scan(noise[...], area: start..<4096)
            var end = start
            for tlv in result.tlvs {
                #expect(tlv.typeAddress >= end)
                #expect(tlv.endAddress > tlv.typeAddress)
                end = tlv.endAddress
            }
            #expect(result.tlvs.count <= 4096 - start)
        }
    }

    @Test("Memory Control TLVs naming each other's bytes cannot move the scan backwards")
    func selfReferentialControl() {
        // A Memory Control TLV reserving the bytes it sits on (16-20), then one reserving 0-255.
        let bytes = memory(hex("02 03 10 05 04 02 03 00 00 00 03 00 fe"), size: 400)
        let scan = TagTLVScanner.scan(bytes[...], area: 16..<400)
        #expect(scan.error == nil)
        // Everything up to 256 is reserved after the second TLV, so the third block is at 256 (a NULL).
        #expect(scan.tlvs.count > 2 && scan.tlvs[2].typeAddress == 256)
    }

    @Test("T2T 2.3: encoding an NDEF TLV header")
    func header() throws {
        #expect(try TagTLV.header(type: 0x03, length: 0) == [0x03, 0x00])
        #expect(try TagTLV.header(type: 0x03, length: 254) == [0x03, 0xFE])
        #expect(try TagTLV.header(type: 0x03, length: 255) == [0x03, 0xFF, 0x00, 0xFF])
        #expect(try TagTLV.header(type: 0x03, length: 0x1F4) == [0x03, 0xFF, 0x01, 0xF4])
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try TagTLV.header(type: 0x03, length: 0xFFFF) }
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try TagTLV.header(type: 0xFE, length: 1) }
        #expect(TagTLV.headerSize(length: 254) == 2 && TagTLV.headerSize(length: 255) == 4)
    }

    @Test("T2T 2.3.2, 2.3.3: Lock and Memory Control TLVs count only before the NDEF Message TLV")
    func controlTLVsAfterTheMessageReserveNothing() {
        // An empty NDEF TLV, then bytes that look like a Lock Control TLV: what a tag holds while
        // a new message is being written behind a zero length. Found by the type2 fuzz target:
        // the look-alike made pages seem locked halfway through a write plan.
        let memory: [UInt8] = [0x03, 0x00, 0x01, 0x03, 0x02, 0x0C, 0x34, 0xFE] + Array(repeating: 0, count: 24)
        let scan = TagTLVScanner.scan(memory[...], area: 0..<memory.count)
        #expect(scan.error == nil)
        #expect(scan.tlvs.map(\.kind) == [.ndefMessage, .lockControl, .terminator])
        #expect(scan.tlvs[1].lockControl == nil)
        #expect(scan.reserved.isEmpty)
        // Before the message it does reserve its lock bytes.
        let before: [UInt8] = [0x01, 0x03, 0x02, 0x0C, 0x34, 0x03, 0x00, 0xFE] + Array(repeating: 0, count: 24)
        let early = TagTLVScanner.scan(before[...], area: 0..<before.count)
        #expect(early.tlvs.first?.lockControl != nil)
        #expect(!early.reserved.isEmpty)
    }
}
