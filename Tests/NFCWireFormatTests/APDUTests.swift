import NFCWireFormat
import TestSupport
import Testing

/// ISO/IEC 7816-4 5.1 command APDUs (cases 1 to 4, short and extended form) and 5.6 status words.
@Suite struct APDUTests {
    @Test("The four short cases; Lc disagreeing with the length makes no APDU")
    func shortCases() throws {
        let case1 = try #require(CommandAPDU(hex("FF CA 00 00")))
        #expect(case1.expectedLength == nil && !case1.hasCommandData && !case1.isExtended)
        let case2 = try #require(CommandAPDU(hex("FF CA 00 00 00")))
        #expect(case2.expectedLength == 256 && case2.asksForAllAvailable)
        let case3 = try #require(CommandAPDU(hex("FF D6 00 04 04 01020304")))
        #expect(Array(case3.data) == hex("01020304") && case3.expectedLength == nil)
        let case4 = try #require(CommandAPDU(hex("FF C2 00 01 03 950160 00")))
        #expect(Array(case4.data) == hex("950160") && case4.expectedLength == 256)
        #expect(CommandAPDU(hex("FF CA 00")) == nil)
        #expect(CommandAPDU(hex("FF D6 00 04 05 01020304")) == nil)
    }

    @Test("The extended form: Lc 00 hi lo, Le of two bytes (three without data), 0000 meaning 65 536")
    func extendedCases() throws {
        let case2 = try #require(CommandAPDU(hex("00 B0 00 00 00 01 00")))
        #expect(case2.isExtended && case2.expectedLength == 256 && !case2.asksForAllAvailable)
        let all = try #require(CommandAPDU(hex("00 B0 00 00 00 00 00")))
        #expect(all.expectedLength == 65_536 && all.asksForAllAvailable)
        let case4 = try #require(CommandAPDU(hex("00 D6 00 00 00 0002 AABB 0000")))
        #expect(Array(case4.data) == hex("AABB") && case4.expectedLength == 65_536)
        #expect(CommandAPDU(hex("FF D6 00 04 00 0004 01020304")) != nil)
        #expect(CommandAPDU(hex("FF D6 00 04 00 0005 01020304")) == nil)
        #expect(CommandAPDU(hex("00 B0 00 00 00 01")) == nil)
    }

    @Test("Encoding picks the short form when the lengths fit, else the extended one; parsing reads it back")
    func encoding() throws {
        let select = try #require(
            CommandAPDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00, data: hex("D2760000850101"), expectedLength: 256))
        #expect(select.encoded == hex("00 A4 04 00 07 D2760000850101 00"))
        let read = try #require(CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 2, expectedLength: 0x0F))
        #expect(read.encoded == hex("00 B0 00 02 0F"))
        let long = try #require(CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, expectedLength: 1000))
        #expect(long.encoded == hex("00 B0 00 00 00 03 E8"))
        let bigWrite = try #require(
            CommandAPDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 7, count: 300)))
        #expect(bigWrite.encoded.prefix(7) == hex("00 D6 00 00 00 01 2C")[...])
        for apdu in [select, read, long, bigWrite] {
            #expect(CommandAPDU(apdu.encoded) == apdu)
        }
        #expect(CommandAPDU(cla: 0, ins: 0, p1: 0, p2: 0, expectedLength: 0) == nil)
        #expect(CommandAPDU(cla: 0, ins: 0, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65_536)) == nil)
    }

    @Test("Status words: named values, text, response splitting")
    func statusWords() throws {
        #expect(StatusWord(sw1: 0x90, sw2: 0x00) == .success)
        #expect(StatusWord.exactLength(7).bytes == hex("6C 07"))
        #expect("\(StatusWord.functionNotSupported)" == "6A81 function not supported")
        #expect(StatusWord.instructionNotSupported.isUnsupportedCommand && !StatusWord.failed.isUnsupportedCommand)
        let response = try #require(ResponseAPDU(hex("01 02 90 00")))
        #expect(response.data == [1, 2] && response.isSuccess)
        #expect(response.encoded == hex("01 02 90 00"))
        #expect(ResponseAPDU([0x90]) == nil)
        // A struct: a switch needs `default`, so more names break no client.
        func name(_ word: StatusWord) -> String {
            switch word {
            case .success: "ok"
            default: "other"
            }
        }
        #expect(name(.endOfData) == "other")
    }

    @Test("PC/SC part 3 storage-card APDUs")
    func storageCard() {
        #expect(StorageCardAPDU.getUID == hex("FF CA 00 00 00"))
        #expect(StorageCardAPDU.getHistoricalBytes == hex("FF CA 01 00 00"))
        #expect(StorageCardAPDU.readBinary(page: 4) == hex("FF B0 00 04 10"))
        #expect(StorageCardAPDU.updateBinary(page: 5, data: hex("01020304")) == hex("FF D6 00 05 04 01020304"))
    }

    @Test("NT4H2421Gx Table 23: the 91 xx status words of native commands are named")
    func nativeStatusWords() {
        #expect(StatusWord(rawValue: 0x91AE).meaning == "AUTHENTICATION_ERROR")
        #expect(StatusWord(rawValue: 0x91AF).meaning == "ADDITIONAL_FRAME: more frames")
        #expect(StatusWord(rawValue: 0x9100).meaning == "OPERATION_OK")
        #expect(StatusWord(rawValue: 0x9155).meaning == "unknown status")
    }
}
