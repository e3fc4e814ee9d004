import NFCWireFormat
import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// ACR122U Direct Transmit (ACR122U API 2.04, 7.1) to its PN532 (PN532 User Manual UM0701,
/// section 7), with a simulated NTAG215 in the field.
@Suite struct DirectTransmitTests {
    /// `FF 00 00 00 Lc` + `payload` (hex, `D4` first).
    static func direct(_ payload: String) -> String {
        let bytes = hex(payload)
        return "FF000000" + hexText([UInt8(bytes.count)] + bytes)
    }

    /// The payload with its CRC_A appended (for the registers that switch the PN532's off).
    static func withCRC(_ frame: String) -> String {
        hexText(CRCA.appending(to: hex(frame)))
    }

    @Test("GetFirmwareVersion: PN532 (IC 32) version 1.6, support 07")
    func firmware() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 02")) == "D503320106079000")
    }

    @Test("InCommunicateThru GET_VERSION: status 00 and the NTAG215's version (NTAG213/215/216 10.1)")
    func getVersion() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 42 60")) == "D54300" + "0004040201001103" + "9000")
    }

    @Test(
        "InCommunicateThru WRITE with the CRC check on: the 4-bit ACK fails the CRC check (status 02), the page is written"
    )
    func writeWithCRCCheck() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 42 A2 04 01020304")) == "D543029000")
        #expect(bench.page(4) == "01020304")
    }

    @Test("With CRC off (CIU_TxMode, CIU_RxMode bit 7) the host adds CRC_A and the ACK arrives as 0A, 4 valid bits")
    func writeWithCRCOff() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 08 6302 00 6303 00")) == "D5099000")
        #expect(bench.send(Self.direct("D4 42" + Self.withCRC("A2 05 0A0B0C0D"))) == "D543000A9000")
        #expect(bench.page(5) == "0A0B0C0D")
        #expect(bench.send(Self.direct("D4 06 633C 6302 6303")) == "D50714" + "0000" + "9000")
    }

    @Test("With CRC off a READ answer comes with its CRC_A; a frame with a wrong CRC_A gets no answer (status 01)")
    func readWithCRCOff() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.direct("D4 08 6302 00 6303 00"))
        let data = "0300FE00000000000000000000000000"
        #expect(bench.send(Self.direct("D4 42" + Self.withCRC("30 04"))) == "D54300" + data + "C184" + "9000")
        #expect(bench.send(Self.direct("D4 42 30 04 00 00")) == "D543019000")
        #expect(bench.send(Self.direct("D4 42 30")) == "D543019000")
    }

    @Test("A NAK with the CRC check off is its code: writing the UID page answers 0")
    func nakWithCRCOff() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.direct("D4 08 6302 00 6303 00"))
        #expect(bench.send(Self.direct("D4 42" + Self.withCRC("A2 00 01020304"))) == "D54300009000")
    }

    @Test("HLTA halts the tag (no answer); REQA in InListPassiveTarget then finds none until the field cycles")
    func haltAndList() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 42 50 00")) == "D543019000")
        #expect(bench.send(Self.direct("D4 42 30 04")) == "D543019000")
        #expect(bench.send(Self.direct("D4 4A 01 00")) == "D54B009000")
        #expect(bench.send(Self.direct("D4 32 01 00")) == "D5339000")
        #expect(bench.send(Self.direct("D4 32 01 01")) == "D5339000")
        #expect(
            bench.send(Self.direct("D4 4A 01 00")) == "D54B01" + "01" + "0044" + "00" + "07" + "04517CA24B3580" + "9000"
        )
        #expect(bench.send(Self.direct("D4 42 30 04")).hasPrefix("D543000300FE00"))
    }

    @Test("InListPassiveTarget for other modulations lists nothing; a bad MaxTg is refused (63 00)")
    func listOtherModulations() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 4A 01 01 00 FF FF 00 00")) == "D54B009000")
        #expect(bench.send(Self.direct("D4 4A 01 03 00")) == "D54B009000")
        #expect(bench.send(Self.direct("D4 4A 03 00")) == "6300")
    }

    @Test("InListPassiveTarget with MaxTg 2 reports both tags of the field; InSelect switches between them")
    func twoTargets() {
        var bench = ReaderBench.ntag215(faults: .init(secondTag: true))
        bench.emulator.powerOn(&bench.field)
        let first = "01" + "0044" + "00" + "07" + "04517CA24B3580"
        let second = "02" + "0044" + "00" + "07" + "04517CA24B3581"
        #expect(bench.send(Self.direct("D4 4A 02 00")) == "D54B02" + first + second + "9000")
        #expect(bench.send(Self.direct("D4 54 02")) == "D555009000")
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35819000")
        #expect(bench.send(Self.direct("D4 54 03")) == "D555279000")
    }

    @Test("InDataExchange: READ data with status 00, the WRITE ACK taken by the PN532, a NAK as error 14")
    func dataExchange() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 40 01 30 04")) == "D54100" + "0300FE00000000000000000000000000" + "9000")
        #expect(bench.send(Self.direct("D4 40 01 A2 06 11223344")) == "D541009000")
        #expect(bench.page(6) == "11223344")
        #expect(bench.send(Self.direct("D4 40 01 A2 00 11223344")) == "D541149000")
        #expect(bench.send(Self.direct("D4 40 01 30 04")) == "D541019000")
        #expect(bench.send(Self.direct("D4 40 02 30 04")) == "D541279000")
    }

    @Test("GetGeneralStatus reports the activated target; ReadRegister of unknown registers reads 00")
    func status() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 04")) == "D505" + "0000" + "01" + "01000000" + "80" + "9000")
        #expect(bench.send(Self.direct("D4 06 6305")) == "D507009000")
        #expect(bench.send(Self.direct("D4 08 6305 92")) == "D5099000")
        #expect(bench.send(Self.direct("D4 06 6305")) == "D507929000")
    }

    @Test("Frames with fewer than 8 bits in the last byte (the magic-card backdoor 40) get no answer")
    func shortFrames() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.direct("D4 08 633D 07"))
        #expect(bench.send(Self.direct("D4 42 40")) == "D543019000")
    }

    @Test("Payloads the PN532 does not take answer 63 00: unknown commands, no D4, malformed arguments")
    func unsupported() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.direct("D4 8C 00")) == "6300")
        #expect(bench.send(Self.direct("D4 60 00 01 10")) == "6300")
        #expect(bench.send(Self.direct("D5 02")) == "6300")
        #expect(bench.send(Self.direct("D4")) == "6300")
        #expect(bench.send(Self.direct("D4 06 63")) == "6300")
        #expect(bench.send(Self.direct("D4 08 6302")) == "6300")
        #expect(bench.send("FF 00 00 00") == "6300")
    }

    @Test("An ISO-DEP tag takes APDUs through InDataExchange and lists its ATS")
    func type4() throws {
        var bench = try ReaderBench.type4()
        #expect(bench.send(Self.direct("D4 40 01 00A4040007D276000085010100")) == "D54100" + "9000" + "9000")
        let uid = "043C6A922F6180"
        #expect(
            bench.send(Self.direct("D4 4A 01 00")) == "D54B0101" + "0344" + "20" + "07" + uid + "067777710280" + "9000")
    }
}
