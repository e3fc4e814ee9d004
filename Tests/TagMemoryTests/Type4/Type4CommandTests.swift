import NFCWireFormat
import TagMemory
import TestSupport
import Testing

@Suite("Type 4 APDUs (T4T 3.0, 5.5; ISO/IEC 7816-4)")
struct Type4CommandTests {
    @Test("SELECT the NDEF Tag Application: D2760000850101 with Le, version 1.0 without (5.5.2)")
    func selectApplication() {
        #expect(Type4Command.selectNDEFApplication().bytes == hex("00A4040007D276000085010100"))
        #expect(Type4Command.selectNDEFApplication(majorVersion: 1).bytes == hex("00A4040007D2760000850100"))
    }

    @Test("SELECT by file identifier: P2 0C, or 00 for version 1.0 (5.5.3, 5.5.5)")
    func selectFile() {
        #expect(Type4Command.selectFile(0xE103).bytes == hex("00A4000C02E103"))
        #expect(Type4Command.selectFile(0xE104, majorVersion: 1).bytes == hex("00A4000002E104"))
    }

    @Test("READ BINARY B0 with short and extended Le (5.5.4, 5.5.6)")
    func readBinary() throws {
        #expect(try Type4Command.readBinary(offset: 0, length: 15).bytes == hex("00B000000F"))
        #expect(try Type4Command.readBinary(offset: 0x0102, length: 256).bytes == hex("00B0010200"))
        #expect(try Type4Command.readBinary(offset: 2, length: 1000).bytes == hex("00B00002 0003E8"))
        #expect(try Type4Command.readBinary(offset: 0x7FFF, length: 1).bytes == hex("00B07FFF01"))
    }

    @Test("READ BINARY B1 with an offset data object past 7FFF; Le counts the 53 wrapper (5.5.6)")
    func readBinaryODO() throws {
        let command = try Type4Command.readBinary(offset: 0x8000, length: 0x10)
        #expect(command.bytes == hex("00B10000 05 5403008000 12"))
        #expect(command.usesOffsetDataObject)
        // A range that starts below 8000 but ends past it needs B1 too.
        #expect(try Type4Command.readBinary(offset: 0x7FF0, length: 0x20).instruction == 0xB1)
        // 300 bytes: 53 82 01 2C + data = 304 > 256, so Lc and Le are extended.
        #expect(
            try Type4Command.readBinary(offset: 0x012345, length: 300).bytes
                == hex("00B10000 000005 5403012345 0130"))
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try Type4Command.readBinary(offset: 0x100_0000, length: 1)
        }
    }

    @Test("UPDATE BINARY D6 without Le, short and extended Lc (5.5.7)")
    func updateBinary() throws {
        #expect(try Type4Command.updateBinary(offset: 0, data: [0, 0]).bytes == hex("00D600000200 00"))
        let big = Array(repeating: UInt8(0xAB), count: 300)
        #expect(try Type4Command.updateBinary(offset: 2, data: big).bytes == hex("00D60002 00012C") + big)
        let step = PlanStep(file: 0xE103, address: 0x0E, data: [0xFF], reason: "lock")
        #expect(try Type4Command.updateBinary(step).bytes == hex("00D6000E01FF"))
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try Type4Command.updateBinary(offset: 0, data: []) }
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try Type4Command.updateBinary(offset: -1, data: [1]) }
    }

    @Test("UPDATE BINARY D7: offset data object then 53 with a BER-TLV length (5.5.7)")
    func updateBinaryODO() throws {
        #expect(
            try Type4Command.updateBinary(offset: 0x8000, data: [1, 2, 3]).bytes
                == hex("00D70000 0A 5403008000 5303 010203"))
        let data = Array(repeating: UInt8(7), count: 0x80)
        #expect(
            try Type4Command.updateBinary(offset: 0x9000, data: data).bytes
                == hex("00D70000 88 5403009000 538180") + data)
        let long = Array(repeating: UInt8(7), count: 0x100)
        #expect(
            try Type4Command.updateBinary(offset: 0x9000, data: long).bytes
                == hex("00D70000 000109 5403009000 53820100") + long)
    }

    @Test(
        "Status words read as ISO/IEC 7816-4 defines them",
        arguments: [
            (0x9000, "9000 success"), (0x6A82, "6A82 file or application not found"),
            (0x6982, "6982 security status not satisfied"), (0x6700, "6700 wrong length"),
            (0x6B00, "6B00 wrong parameters P1-P2 (offset outside the file)"),
            (0x6A84, "6A84 not enough memory in the file"), (0x6D00, "6D00 instruction not supported"),
            (0x6E00, "6E00 class not supported"), (0x6986, "6986 command not allowed"),
            (0x6282, "6282 end of file reached"), (0x6310, "6310 warning"), (0x6110, "6110 16 more bytes available"),
            (0x6C0F, "6C0F wrong Le, 15 bytes available"), (0x6100, "6100 256 more bytes available"),
            (0x9100, "9100 OPERATION_OK"), (0x6F00, "6F00 unknown status"),
        ])
    func statusWords(word: Int, text: String) {
        let status = StatusWord(sw1: UInt8(word >> 8), sw2: UInt8(word & 0xFF))
        #expect(Int(status.rawValue) == word)
        #expect(status.description == text)
        #expect(status.isSuccess == (word == 0x9000))
        #expect(status.isWarning == (word >> 8 == 0x62 || word >> 8 == 0x63))
        if word >> 8 == 0x61 { #expect(StatusWord.moreData(word & 0xFF) == status) }
        if word >> 8 == 0x6C { #expect(StatusWord.exactLength(word & 0xFF) == status) }
        // A client's switch over the named constants needs a default: names may be added.
        let named =
            switch status {
            case .success, .fileNotFound, .securityStatusNotSatisfied, .wrongLength, .wrongParameters: true
            case .notEnoughMemory, .instructionNotSupported, .classNotSupported, .commandNotAllowed, .endOfData: true
            default: false
            }
        #expect(named == !["warning", "more", "Le", "unknown", "OPERATION"].contains { text.contains($0) })
    }

    @Test("Responses split into data and status word; B1 data comes out of its 53 object (5.5.6)")
    func responses() throws {
        let plain = try Type4Response(parsing: hex("00119000"))
        #expect(plain.data == [0x00, 0x11])
        #expect(plain.isSuccess)
        #expect(plain.bytes == hex("00119000"))
        let read = try Type4Command.readBinary(offset: 0, length: 2)
        #expect(try plain.binaryData(for: read) == [0x00, 0x11])
        let odoRead = try Type4Command.readBinary(offset: 0x8000, length: 3)
        #expect(try Type4Response(parsing: hex("5303AABBCC9000")).binaryData(for: odoRead) == [0xAA, 0xBB, 0xCC])
        #expect(
            try Type4Response(parsing: hex("538103AABBCC9000")).binaryData(for: odoRead) == [0xAA, 0xBB, 0xCC])
        for bad in ["5304AABBCC9000", "5403AABBCC9000", "53809000", "9000", "5303AABBCCDD9000"] {
            #expect(throws: TagMemoryError(.malformedTLV, ""), "\(bad)") {
                try Type4Response(parsing: hex(bad)).binaryData(for: odoRead)
            }
        }
        let missing = try Type4Response(parsing: hex("6A82"))
        #expect(missing.status == .fileNotFound)
        #expect(missing.data.isEmpty)
        #expect(throws: TagMemoryError(.truncatedImage, "")) { try Type4Response(parsing: [0x90]) }
    }
}
