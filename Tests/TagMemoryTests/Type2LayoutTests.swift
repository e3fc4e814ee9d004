import NDEF
import TagMemory
import TestSupport
import Testing

/// Address arithmetic and the values a write planner reads (T2T 1.1, sections 2 and 6).
@Suite("Type 2 layout for planning")
struct Type2LayoutTests {
    /// An image with a valid UID, `cc` and `data` from byte 16, zero-filled to `size` bytes.
    func image(cc: [UInt8], data: [UInt8], size: Int) -> [UInt8] {
        var bytes = hex("04 01 02 8f 03 04 05 06 04 48 00 00") + cc + data
        bytes += [UInt8](repeating: 0, count: max(0, size - bytes.count))
        return bytes
    }

    @Test("T2T 2, 5.1: 4-byte pages; CC at bytes 12-15, data area from 16, static lock bytes 10-11")
    func pageArithmetic() {
        #expect(Type2Page.containing(byte: 160) == 40 && Type2Page.containing(byte: 163) == 40)
        #expect(Type2Page.firstByte(of: 0x82) == 520 && Type2Page.bytes(of: 3) == 12..<16)
        #expect(Type2Page.pages(covering: 21..<39) == 5...9 && Type2Page.pages(covering: 5..<5) == nil)
        #expect(Type2Page.offset(ofByte: 22) == 2)
        #expect(Type2Page.capabilityContainerBytes == 12..<16 && Type2Page.staticLockBytes == 10..<12)
    }

    @Test("T2T 2.3.4: capacity switches to the three-byte length form only when it gains room")
    func lengthFormBoundary() {
        // Data area of N bytes, NDEF TLV at 16: one-byte form N - 2 (at most 254), three-byte form N - 4.
        for (sizeByte, capacity) in [(0x06, 46), (0x20, 254), (0x21, 260), (0xFF, 2036)] {
            let memory = Type2Memory(
                bytes: image(cc: [0xE1, 0x10, UInt8(sizeByte), 0x00], data: hex("0300fe"), size: 64))
            #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: capacity), "CC size \(sizeByte)")
        }
        // 264-byte area (16-279): 258 bytes after a T byte at 21 give 255 in the three-byte form,
        // 257 after one at 22 give 254 either way.
        let memory = Type2Memory(bytes: image(cc: hex("e1102100"), data: hex("00 00 00 00 00 0300fe"), size: 64))
        #expect(memory.ndefTLVAddress == 21 && memory.capacity(forTLVAt: 21) == 255)
        #expect(memory.capacity(forTLVAt: 22) == 254)
        #expect(memory.capacity(forTLVAt: 300) == 0)
    }

    @Test("Where a writer puts the NDEF TLV: after the Lock Control TLV of a factory NTAG213, else the area start")
    func writeAddress() throws {
        #expect(try TagFixtures.memory("ntag213-factory.hex").ndefTLVWriteAddress == 21)
        #expect(try TagFixtures.memory("ntag215-factory.hex").ndefTLVWriteAddress == 16)
        // A formatted area with only a Lock Control TLV and a Terminator: no NDEF TLV, write after the control TLV.
        let bare = Type2Memory(bytes: image(cc: hex("e1101200"), data: hex("0103a00c34fe"), size: 180), chip: .ntag213)
        #expect(bare.ndefTLVAddress == nil && bare.ndefTLVWriteAddress == 21)
        #expect(bare.ndefStatus.status == .notSupported && bare.problem?.code == .notFormatted)
        #expect(bare.dataRanges(from: 21) == [21..<160] && bare.capacity(forTLVAt: 21) == 137)
        // Not formatted: no data area, nothing to plan against.
        let blank = try TagFixtures.memory("ultralight-c-mf0icu2-factory.hex")
        #expect(blank.dataArea == nil && blank.ndefTLVWriteAddress == nil && blank.dataRanges(from: 16).isEmpty)
    }

    @Test("T2T 2.1.2: static lock bits and block-lock bits")
    func staticLock() {
        let lock = Type2StaticLock(lock0: 0x0A, lock1: 0x81)
        #expect(lock.lockedPages == [3, 8, 15])
        #expect(
            lock.isLockBitFrozen(forPage: 7) && !lock.isLockBitFrozen(forPage: 3) && !lock.isLockBitFrozen(forPage: 12))
        #expect(Type2StaticLock.allPagesLocked.lockedPages == Array(3...15))
        #expect(Type2StaticLock.allBitsFrozen.bytes == [0x07, 0x00])
    }

    @Test("ISO/IEC 14443-3: BCC0 = 88h ⊕ UID0-2, BCC1 = UID3-6; a wrong check byte is reported")
    func checkBytes() {
        var bytes = image(cc: hex("e1100600"), data: hex("0300fe"), size: 64)
        #expect(Type2Memory(bytes: bytes).uid == hex("04010203040506"))
        #expect(Type2Memory(bytes: bytes).isBCC0Valid == true && Type2Memory(bytes: bytes).isBCC1Valid == true)
        bytes[3] ^= 1
        bytes[8] ^= 1
        #expect(Type2Memory(bytes: bytes).isBCC0Valid == false && Type2Memory(bytes: bytes).isBCC1Valid == false)
        #expect(Type2Memory(bytes: Array(bytes.prefix(8))).isBCC1Valid == nil)
        #expect(Type2Memory(bytes: Array(bytes.prefix(7))).uid == nil)
        #expect(Type2Memory(bytes: bytes).page(3) == hex("e1100600") && Type2Memory(bytes: bytes).page(16) == nil)
        #expect(Type2Memory(bytes: bytes).page(-1) == nil && Type2Memory(bytes: bytes).page(Int.max) == nil)
    }

    @Test("T2T 6.1: read access other than 0h is not NDEF-readable; write access 8h is read-only")
    func accessConditions() {
        let proprietaryWrite = Type2Memory(bytes: image(cc: hex("e1100608"), data: hex("0300fe"), size: 64))
        #expect(proprietaryWrite.ndefStatus == NDEFTagStatus(status: .readOnly, capacity: 46))
        let proprietaryRead = Type2Memory(bytes: image(cc: hex("e1100688"), data: hex("0300fe"), size: 64))
        #expect(proprietaryRead.ndefStatus.status == .notSupported)
        #expect(proprietaryRead.ndefStatusReason == "the capability container does not grant read access")
    }

    @Test("CFGLCK locks CFG0 and CFG1 of the image's chip")
    func configurationLock() throws {
        var bytes = try TagFixtures.load("ntag213-factory.hex")
        bytes[0x2A * 4] = 0x40
        let memory = Type2Memory(bytes: bytes, chip: .ntag213)
        #expect(memory.isPageLocked(0x29) && memory.isPageLocked(0x2A) && !memory.isPageLocked(0x2B))
        #expect(memory.ndefStatus.status == .readWrite)
    }
}
