import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// PC/SC Part 3 v2.02 storage-card commands (3.2.2.1) on a simulated NTAG215, answered as an
/// ACS ACR122U does (ACR122U API 2.04 sections 4 and 5).
@Suite struct StorageCommandTests {
    /// The factory NTAG215's pages 0-3: UID 04 51 7C, BCC0 = 88 ^ 04 ^ 51 ^ 7C = A1; UID
    /// A2 4B 35 80; BCC1 = A2 ^ 4B ^ 35 ^ 80 = 5C, internal 48, static lock 00 00; CC E1 10 3E 00
    /// (NTAG213/215/216 8.5.1 and 8.5.6).
    static let pages0to3 = "04517CA1A24B35805C480000E1103E00"

    @Test("PC/SC Part 3 3.1.3.2.3.1: the ATR of a MIFARE Ultralight-family storage card")
    func atrOfType2Tag() {
        let bench = ReaderBench.ntag215()
        #expect(
            bench.emulator.answerToReset(bench.field).map { hexText($0) } == "3B8F8001804F0CA0000003060300030000000068")
    }

    @Test("PC/SC Part 3 3.2.2.1.3: GET DATA P1 00 returns the UID; Le shorter 6C XX, longer 62 82")
    func getDataUID() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35809000")
        #expect(bench.send("FF CA 00 00 07") == "04517CA24B35809000")
        #expect(bench.send("FF CA 00 00 04") == "6C07")
        #expect(bench.send("FF CA 00 00 0A") == "04517CA24B35806282")
    }

    @Test("GET DATA of the ATS (P1 01) is not supported for a tag without ISO-DEP; other P1 neither")
    func getDataWithoutATS() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF CA 01 00 00") == "6A81")
        #expect(bench.send("FF CA 02 00 00") == "6A81")
    }

    @Test("READ BINARY reads one READ (4 pages) and returns the first Le bytes")
    func readBinary() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF B0 00 00 10") == Self.pages0to3 + "9000")
        #expect(bench.send("FF B0 00 04 04") == "0300FE009000")
        #expect(bench.send("FF B0 00 00 05") == "04517CA1A29000")
    }

    @Test("READ BINARY of more than 16 bytes, Le 00 or without Le fails as on an ACR122U (maximum 16)")
    func readBinaryLimits() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF B0 00 04 11") == "6300")
        #expect(bench.send("FF B0 00 04 00") == "6300")
        #expect(bench.send("FF B0 00 04") == "6300")
        #expect(bench.send("FF B0 01 04 10") == "6300")
        #expect(bench.send("FF B0 00 04 10").hasSuffix("9000"))
    }

    @Test("A READ past the last page is NAKed: 63 00, and the tag stays IDLE until the card is reset")
    func readPastTheEnd() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF B0 00 87 10") == "6300")
        #expect(bench.send("FF B0 00 04 10") == "6300")
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35809000")
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF B0 00 04 04") == "0300FE009000")
    }

    @Test("UPDATE BINARY writes 4 bytes to one page (WRITE A2h) and answers 90 00 on the ACK")
    func updateBinary() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF D6 00 04 04 DE AD BE EF") == "9000")
        #expect(bench.page(4) == "DEADBEEF")
        #expect(bench.send("FF B0 00 04 04") == "DEADBEEF9000")
    }

    @Test("UPDATE BINARY of other than 4 bytes, or to a page the tag NAKs (the UID page), fails with 63 00")
    func updateBinaryFailures() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF D6 00 04 10 00112233445566778899AABBCCDDEEFF") == "6300")
        #expect(bench.send("FF D6 00 04 02 0102") == "6300")
        #expect(bench.page(4) == "0300FE00")
        #expect(bench.send("FF D6 00 00 04 01020304") == "6300")
        #expect(bench.page(0) == "04517CA1")
    }

    @Test("LOAD KEYS is accepted for slots 00 and 01; GENERAL AUTHENTICATE fails (no MIFARE Classic)")
    func classicKeys() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF 82 00 00 06 FFFFFFFFFFFF") == "9000")
        #expect(bench.send("FF 82 00 02 06 FFFFFFFFFFFF") == "6300")
        #expect(bench.send("FF 86 00 00 05 01 00 04 60 00") == "6300")
        #expect(bench.send("FF 88 00 04 60 00") == "6300")
    }

    @Test("An APDU of another class goes nowhere on a Type 2 tag (63 00, as an ACR122U answers)")
    func isoAPDUToType2() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("00 A4 04 00 07 D2760000850101 00") == "6300")
    }

    @Test("Unknown instructions answer 6D 00; a pseudo-APDU whose Lc disagrees with its length 67 00")
    func malformed() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF 12 00 00 00") == "6D00")
        #expect(bench.send("FF CA 00 00 05 01 02") == "6700")
        #expect(bench.send("FF CA 00") == "6700")
    }

    @Test("After power off nothing is activated: card commands fail, the ATR stays (the card is present)")
    func poweredOff() {
        var bench = ReaderBench.ntag215()
        bench.emulator.powerOff(&bench.field)
        #expect(bench.send("FF CA 00 00 00") == "6300")
        #expect(bench.send("FF B0 00 04 04") == "6300")
        #expect(bench.emulator.answerToReset(bench.field) != nil)
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35809000")
    }

    @Test("With two tags in the field the reader shows the first one only (ACR122U: one target)")
    func twoTags() {
        var bench = ReaderBench.ntag215(faults: .init(secondTag: true))
        #expect(bench.field.tags.count == 2)
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35809000")
        #expect(bench.send("FF B0 00 00 04") == "04517CA19000")
    }

    @Test("An empty field has no ATR and activates nothing")
    func emptyField() {
        var bench = ReaderBench([])
        #expect(bench.emulator.answerToReset(bench.field) == nil)
        #expect(bench.emulator.powerOn(&bench.field) == nil)
        #expect(bench.send("FF CA 00 00 00") == "6300")
    }
}
