import NFCWireFormat
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// A simulated MIFARE Classic card behind the emulated readers: PC/SC Part 3 storage-card APDUs
/// (LOAD KEYS, GENERAL AUTHENTICATE, READ and UPDATE BINARY of 16 bytes) and the PN532's
/// InListPassiveTarget and InDataExchange MIFARE commands (UM0701 7.3.5, 7.3.8).
@Suite struct ClassicBridgeTests {
    /// A factory 1K card, UID C1 7A 55 0E.
    static func bench() -> ReaderBench {
        ReaderBench([.classic(SimulatedClassicTag(type: .classic1K))])
    }

    @Test(
        "PC/SC Part 3 3.1.3.2.3: a Classic card's ATR names it: 00 01 1K, 00 02 4K, 00 26 Mini",
        arguments: [
            (MifareClassicType.classic1K, "3B8F8001804F0CA000000306030001000000006A"),
            (.classic4K, "3B8F8001804F0CA0000003060300020000000069"),
            (.mini, "3B8F8001804F0CA000000306030026000000004D"),
        ])
    func answerToReset(type: MifareClassicType, atr: String) {
        let bench = ReaderBench([.classic(SimulatedClassicTag(type: type))])
        #expect(bench.emulator.answerToReset(bench.field).map { hexText($0) } == atr)
    }

    @Test("LOAD KEYS, GENERAL AUTHENTICATE, then READ BINARY and UPDATE BINARY of 16 bytes")
    func storageCommands() {
        var bench = Self.bench()
        #expect(bench.send("FF CA 00 00 00") == "C17A550E9000")
        #expect(bench.send("FF B0 00 04 10") == "6300")  // not authenticated: the card refuses
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF 82 00 00 06 FFFFFFFFFFFF") == "9000")
        #expect(bench.send("FF 86 00 00 05 01 00 04 60 00") == "9000")
        #expect(bench.send("FF D6 00 05 10 000102030405060708090A0B0C0D0E0F") == "9000")
        #expect(bench.send("FF B0 00 05 10") == "000102030405060708090A0B0C0D0E0F9000")
        #expect(bench.send("FF B0 00 07 10") == "000000000000FF078069FFFFFFFFFFFF9000")
        // UPDATE BINARY of 4 bytes is for Ultralight pages: refused for a Classic card.
        #expect(bench.send("FF D6 00 05 04 01020304") == "6300")
    }

    @Test("A wrong key fails GENERAL AUTHENTICATE (63 00); an empty slot or key type too; the obsolete FF 88 works")
    func authenticationFailures() {
        var bench = Self.bench()
        #expect(bench.send("FF 86 00 00 05 01 00 04 60 01") == "6300")  // slot 01 is empty
        #expect(bench.send("FF 82 00 01 06 A0A1A2A3A4A5") == "9000")
        #expect(bench.send("FF 86 00 00 05 01 00 04 60 01") == "6300")  // wrong key
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF 82 00 00 06 FFFFFFFFFFFF") == "9000")
        #expect(bench.send("FF 86 00 00 05 01 00 04 62 00") == "6300")  // no such key type
        #expect(bench.send("FF 82 00 02 06 FFFFFFFFFFFF") == "6300")  // the ACR122U has slots 00 and 01
        #expect(bench.send("FF 88 00 08 60 00") == "9000")
        #expect(bench.send("FF B0 00 08 10") == "000000000000000000000000000000009000")
    }

    @Test("PN532: InListPassiveTarget lists SENS_RES 00 04, SAK 08; InDataExchange authenticates, reads and writes")
    func pn532DataExchange() {
        var bench = PN532SerialChipTests.Bench([.classic(SimulatedClassicTag(type: .classic1K))])
        #expect(bench.answer("D44A0100") == "D54B0101000408" + "04C17A550E")
        #expect(bench.answer("D440016004FFFFFFFFFFFFC17A550E") == "D54100")
        #expect(bench.answer("D44001A005" + "0102030405060708090A0B0C0D0E0F10") == "D54100")
        #expect(bench.answer("D440013005") == "D54100" + "0102030405060708090A0B0C0D0E0F10")
        // A wrong key: the MIFARE authentication error 14h, and the card waits to be selected again.
        #expect(bench.answer("D440016008000000000000C17A550E") == "D54114")
        #expect(bench.answer("D440013005") == "D54101")
    }
}
