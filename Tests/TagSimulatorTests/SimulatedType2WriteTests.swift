import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// WRITE and COMPATIBILITY_WRITE of a simulated tag, and the ISO/IEC 14443-3 states.
@Suite("Simulated Type 2 tag: writing and states")
struct SimulatedType2WriteTests {
    @Test("NTAG213/215/216 10.4 and 8.5.2: WRITE to a locked page answers NAK 0h and drops to IDLE")
    func writeLockedPage() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(2, "00 00 10 00") == .ack)  // L4
        #expect(tag.write(4, "DE AD BE EF") == .nak(0))
        #expect(tag.state == .idle)
        #expect(tag.read(4) == .silent)
        tag.select()
        #expect(tag.read(4).bytes.map { Array($0.prefix(4)) } == hex("01 03 A0 0C"))
        #expect(tag.write(5, "DE AD BE EF") == .ack)
    }

    @Test("NTAG213/215/216 8.5.6: the CC page is OTP: WRITE ORs it in, zeros clear nothing")
    func capabilityContainerOTP() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(3, "00 00 00 0F") == .ack)
        #expect(tag.read(3).bytes.map { Array($0.prefix(4)) } == hex("E1 10 12 0F"))
        #expect(tag.write(3, "00 00 00 00") == .ack)
        #expect(tag.read(3).bytes.map { Array($0.prefix(4)) } == hex("E1 10 12 0F"))
        // L-CC (lock 0 bit 3) locks page 3.
        #expect(tag.write(2, "00 00 08 00") == .ack)
        #expect(tag.write(3, "01 00 00 00") == .nak(0))
    }

    @Test("NTAG213/215/216 8.5.2: page 2 ORs the static lock bytes, keeps BCC1, and block-lock bits freeze")
    func staticLockBits() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(2, "FF FF 02 00") == .ack)  // BL 9-4
        #expect(tag.read(2).bytes.map { Array($0.prefix(4)) } == hex("5C 48 02 00"))
        // L6 (lock 0 bit 6) is frozen by BL 9-4; L10 (lock 1 bit 2) is not.
        #expect(tag.write(2, "00 00 40 04") == .ack)
        #expect(tag.read(2).bytes.map { Array($0.prefix(4)) } == hex("5C 48 02 04"))
        #expect(tag.write(6, "01 02 03 04") == .ack)
        #expect(tag.write(10, "01 02 03 04") == .nak(0))
    }

    @Test("NTAG213/215/216 8.5.3: dynamic lock bytes are OR-ed and lock 2 pages per bit on NTAG213")
    func dynamicLockBits() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(0x28, "01 00 00 BD") == .ack)
        #expect(tag.read(0x28).bytes.map { Array($0.prefix(4)) } == hex("01 00 00 00"))
        #expect(tag.write(0x28, "00 00 00 00") == .ack)
        #expect(tag.read(0x28).bytes.map { Array($0.prefix(4)) } == hex("01 00 00 00"))
        #expect(tag.write(17, "01 02 03 04") == .nak(0))
        tag.select()
        #expect(tag.write(18, "01 02 03 04") == .ack)
    }

    @Test("NTAG213/215/216 8.5.7: CFGLCK locks CFG0 and CFG1 for good, PWD and PACK stay writable")
    func configurationLock() {
        var tag = SimulatedType2Tag.selected(.ntag215)
        #expect(tag.write(0x84, "40 00 00 00") == .ack)
        #expect(tag.write(0x83, "04 00 00 04") == .nak(0))
        tag.select()
        #expect(tag.write(0x84, "00 00 00 00") == .nak(0))
        tag.select()
        #expect(tag.write(0x85, "01 02 03 04") == .ack)
        #expect(tag.write(0x86, "05 06 00 00") == .ack)
    }

    @Test("NTAG213/215/216 8.8: pages from AUTH0 need PWD_AUTH for WRITE")
    func writeProtection() {
        var tag = SimulatedType2Tag.selected(.ntag213)
        #expect(tag.write(0x29, "04 00 00 08") == .ack)
        #expect(tag.write(7, "01 02 03 04") == .ack)
        #expect(tag.write(8, "01 02 03 04") == .nak(0))
        tag.select()
        #expect(tag.read(8) == .data([UInt8](repeating: 0, count: 16)))  // PROT clear: readable
        #expect(tag.authenticate("FF FF FF FF") == .data([0, 0]))
        #expect(tag.write(8, "01 02 03 04") == .ack)
        tag.fieldOff()
        tag.select()
        #expect(tag.write(9, "01 02 03 04") == .nak(0))
    }

    @Test("NTAG213/215/216 10.5, MF0ICU1 9.5: COMPATIBILITY_WRITE ACKs, then writes the first 4 of 16 bytes")
    func compatibilityWrite() {
        var tag = SimulatedType2Tag.selected(.mifareUltralight)
        #expect(tag.transceive(hex("A0 05")) == .ack)
        #expect(tag.transceive(hex("30 31 32 33 34 35 36 37 38 39 3A 3B 3C 3D 3E 3F")) == .ack)
        #expect(tag.read(5).bytes.map { Array($0.prefix(8)) } == hex("30 31 32 33 00 00 00 00"))
        #expect(tag.count(of: .compatibilityWrite) == 1 && tag.count(of: .compatibilityWriteData) == 1)
        #expect(tag.transceive(hex("A0 10")) == .nak(0))
        tag.select()
        #expect(tag.transceive(hex("A0 06")) == .ack)
        #expect(tag.transceive(hex("01 02 03 04")) == .nak(0))
        #expect(tag.state == .idle)
    }

    @Test("ISO/IEC 14443-3, NTAG213/215/216 9.3: only an ACTIVE tag answers; a NAK sends it to IDLE (or HALT)")
    func states() {
        var tag = SimulatedType2Tag(chip: .ntag216)
        #expect(tag.state == .idle)
        #expect(tag.read(0) == .silent)
        tag.select()
        #expect(tag.read(0) != .silent)
        tag.halt()
        #expect(tag.state == .halt)
        #expect(tag.read(0) == .silent)
        // Woken from HALT, a NAK sends the tag back to HALT; a power cycle clears that.
        tag.select()
        #expect(tag.transceive(hex("55 00")) == .nak(0))
        #expect(tag.transceive([]) == .silent)
        #expect(tag.state == .halt)
        #expect(tag.count(of: .read) == 3 && tag.count(of: .unknown) == 2 && tag.totalCommandCount == 5)
        tag.fieldOff()
        tag.select()
        #expect(tag.read(0xFF) == .nak(0))
        #expect(tag.state == .idle)
        tag.resetCommandCounts()
        #expect(tag.totalCommandCount == 0)
    }
}
