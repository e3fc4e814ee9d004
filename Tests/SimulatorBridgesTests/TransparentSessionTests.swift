import NFCWireFormat
import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// PC/SC Part 3 v2.02 Manage Session and Transparent Exchange (`FF C2`) on a simulated NTAG215,
/// with the data objects of the ACS ACR1252U / ACR1552U reference manuals.
@Suite struct TransparentSessionTests {
    static let done = "C00300" + "9000"
    static let start = "FF C2 00 00 02 81 00"

    /// `FF C2 00 01 Lc 95 L frame`.
    static func transceive(_ frame: String) -> String {
        let bytes = hex(frame)
        let object = [0x95, UInt8(bytes.count)] + bytes
        return "FFC20001" + hexText([UInt8(object.count)] + object)
    }

    @Test("Starting and ending a session, and the version data object")
    func manage() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.start) == Self.done + "9000")
        #expect(bench.send("FF C2 00 00 02 80 00") == Self.done + "800301" + "0000" + "9000")
        #expect(bench.send("FF C2 00 00 02 82 00") == Self.done + "9000")
    }

    @Test("Transceive GET_VERSION: 92 01 00, 96 02 00 00, 97 and the version")
    func getVersion() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.start)
        #expect(
            bench.send(Self.transceive("60")) == Self.done + "920100" + "96020000" + "9708" + "0004040201001103"
                + "9000")
    }

    @Test("Transceive before a session starts fails at data object 1 with 63 00")
    func withoutSession() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send(Self.transceive("60")) == "C003016300" + "9000")
        _ = bench.send(Self.start)
        _ = bench.send("FF C2 00 00 02 82 00")
        #expect(bench.send(Self.transceive("60")) == "C003016300" + "9000")
    }

    @Test("A WRITE's 4-bit ACK: 4 valid bits, flagged as CRC error while the CRC check is on")
    func writeAcknowledged() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.start)
        #expect(bench.send(Self.transceive("A2 04 01020304")) == Self.done + "920104" + "96020100" + "97010A" + "9000")
        #expect(bench.page(4) == "01020304")
    }

    @Test("Flags 90 02 00 03: the host adds CRC_A, the answer keeps it; the ACK is 0A with status 00")
    func crcByTheHost() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.start)
        #expect(bench.send("FF C2 00 01 04 90 02 00 03") == Self.done + "9000")
        let write = hexText(CRCA.appending(to: hex("A2 05 0A0B0C0D")))
        #expect(bench.send(Self.transceive(write)) == Self.done + "920104" + "96020000" + "97010A" + "9000")
        let read = hexText(CRCA.appending(to: hex("30 04")))
        let data = "0300FE00" + "0A0B0C0D" + String(repeating: "00", count: 8)
        let expected = Self.done + "920100" + "96020000" + "9712" + data + hexText(CRCA.checksum(hex(data))) + "9000"
        #expect(bench.send(Self.transceive(read)) == expected)
        #expect(bench.send(Self.transceive("30 04 00 00")) == "C003016401" + "9000")
    }

    @Test("No answer is 64 01 at the failing data object (here the second, after the timer)")
    func noAnswer() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.start)
        #expect(bench.send("FF C2 00 01 0B 5F46 04 50C30000 95 02 5000") == "C003026401" + "9000")
        #expect(bench.send(Self.transceive("30 04")) == "C003016401" + "9000")
    }

    @Test("RF off and on leave the tag IDLE; Switch Protocol to layer 3 activates it again (8F 01 SAK)")
    func rfAndSwitchProtocol() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF C2 00 00 02 83 00") == "C003016301" + "9000")
        _ = bench.send(Self.start)
        #expect(bench.send("FF C2 00 00 04 83 00 84 00") == Self.done + "9000")
        #expect(bench.send(Self.transceive("60")) == "C003016401" + "9000")
        #expect(bench.send("FF C2 00 02 04 8F 02 00 03") == Self.done + "8F0100" + "9000")
        #expect(bench.send(Self.transceive("60")).hasPrefix(Self.done + "920100"))
    }

    @Test("Switch Protocol to layer 4 answers the ATR in 5F 51; other standards 63 00")
    func switchToLayer4() {
        var bench = ReaderBench.ntag215()
        _ = bench.send(Self.start)
        let atr = "3B8F8001804F0CA0000003060300030000000068"
        #expect(bench.send("FF C2 00 02 04 8F 02 00 04") == Self.done + "5F5114" + atr + "9000")
        #expect(bench.send("FF C2 00 02 04 8F 02 03 04") == "C003016300" + "9000")
    }

    @Test("Unknown or malformed data objects: 6A 81 and 67 00 at their number; unknown P2 6A 81")
    func malformed() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF C2 00 00 02 99 00") == "C003016A81" + "9000")
        #expect(bench.send("FF C2 00 00 02 81 05") == "C003016700" + "9000")
        #expect(bench.send("FF C2 00 00 04 81 00 81 01") == "C003026700" + "9000")
        #expect(bench.send("FF C2 00 00 04 5F46 02 00") == "C003016700" + "9000")
        #expect(bench.send("FF C2 00 03 02 81 00") == "6A81")
        #expect(bench.send("FF C2 00 00") == "6700")
    }

    @Test("With an ISO-DEP tag the transceived data is an APDU, wrapped in I-blocks by the reader")
    func type4() throws {
        var bench = try ReaderBench.type4()
        _ = bench.send(Self.start)
        let select = Self.transceive("00A4040007D276000085010100")
        #expect(bench.send(select) == Self.done + "920100" + "96020000" + "97029000" + "9000")
    }

    @Test("BER-TLV: one- and two-byte tags, long lengths, truncations")
    func berTLV() {
        var reader = BERTLV.Reader(hex("5F46 04 01020304 97 81 02 AABB 95 82 0001 CC"))
        #expect(reader.next() == BERTLV.DataObject(tag: 0x5F46, value: hex("01020304")))
        #expect(reader.next() == BERTLV.DataObject(tag: 0x97, value: hex("AABB")))
        #expect(reader.next() == BERTLV.DataObject(tag: 0x95, value: hex("CC")))
        #expect(reader.isAtEnd)
        for truncated in ["5F", "95", "95 03 0102", "95 81", "95 83 000001 00"] {
            var broken = BERTLV.Reader(hex(truncated))
            #expect(broken.next() == nil, "\(truncated)")
        }
        #expect(BERTLV.encode(tag: 0x97, [UInt8](repeating: 0, count: 200)).prefix(3) == [0x97, 0x81, 0xC8])
        #expect(BERTLV.encode(tag: 0x5F51, [1]) == [0x5F, 0x51, 0x01, 0x01])
        #expect(BERTLV.length(300) == [0x82, 0x01, 0x2C])
    }
}
