import NFCWireFormat
import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// The field's faults (TagSimulator ``SimulatedField/Faults``) as a PC/SC client sees them
/// through the reader.
@Suite struct ReaderFaultTests {
    @Test("remove-after: the N-th command finds the tags gone (.tagLeft), whatever path it takes")
    func removal() {
        for second in ["FF B0 00 04 04", "FF D6 00 04 04 01020304", "FF000000 03 D44260", "FF000000 04 D4400160"] {
            var bench = ReaderBench.ntag215(faults: .init(removeAfterCommands: 2))
            #expect(bench.send("FF B0 00 00 04") == "04517CA19000")
            #expect(bench.send(second) == "LEFT", "\(second)")
            #expect(bench.field.tagsHaveLeft)
        }
    }

    @Test("Commands that do not reach the tag (GET DATA, vendor commands) do not count towards remove-after")
    func readerOnlyCommands() {
        var bench = ReaderBench.ntag215(faults: .init(removeAfterCommands: 1))
        #expect(bench.send("FF CA 00 00 00") == "04517CA24B35809000")
        #expect(bench.send("FF 00 48 00 00") == hexText(Array("ACR122U207".utf8)))
        #expect(bench.send("FF B0 00 04 04") == "LEFT")
    }

    @Test("in-flight complete: the UPDATE BINARY in flight is written though the client gets no answer")
    func inFlightCompletes() {
        var bench = ReaderBench.ntag215(faults: .init(removeAfterCommands: 1, inFlight: .completes))
        #expect(bench.send("FF D6 00 04 04 01020304") == "LEFT")
        bench.field.putBack()
        #expect(bench.page(4) == "01020304")
    }

    @Test("in-flight tear: the page in flight is half written (bytes 0-1 new, 2-3 old)")
    func inFlightTears() {
        var bench = ReaderBench.ntag215(faults: .init(removeAfterCommands: 1, inFlight: .tearsPage))
        #expect(bench.send("FF D6 00 04 04 01020304") == "LEFT")
        bench.field.putBack()
        #expect(bench.page(4) == "0102FE00")
    }

    @Test("A transparent-session transceive and an ISO-DEP APDU in flight end the card too")
    func removalOtherPaths() throws {
        var bench = ReaderBench.ntag215(faults: .init(removeAfterCommands: 1))
        #expect(bench.send("FF C2 00 00 02 81 00") == "C00300900090" + "00")
        #expect(bench.send("FF C2 00 01 03 95 01 60") == "LEFT")
        var card = ReaderBench(
            [.type4(try SimulatedType4Tag(configuration: .init()))], faults: .init(removeAfterCommands: 1))
        #expect(card.send("00 A4 04 00 07 D2760000850101 00") == "LEFT")
    }

    @Test("corrupt-every: a Type 2 answer with a CRC error is 63 00, D5 43 02 or flagged 96 02 01 00")
    func corruptedType2Answers() {
        var bench = ReaderBench.ntag215(faults: .init(corruptEveryNthResponse: 1))
        #expect(bench.send("FF B0 00 04 04") == "6300")
        bench.emulator.powerOn(&bench.field)
        #expect(bench.send("FF000000 04 D4423004") == "D543029000")
        #expect(bench.send("FF000000 05 D440013004") == "D541029000")
        #expect(bench.send("FF C2 00 00 02 81 00") == "C00300900090" + "00")
        let flagged = bench.send("FF C2 00 01 04 95 02 30 04")
        #expect(flagged.hasPrefix("C0030090009201009602010097"))
    }

    @Test("corrupt-every with the CRC check off: the host gets the damaged bytes with the original CRC_A, which fails")
    func corruptedWithHostCRC() {
        var bench = ReaderBench.ntag215(faults: .init(corruptEveryNthResponse: 1))
        _ = bench.send("FF000000 08 D408630200630300")
        let response = hex(bench.send("FF000000 06 D442" + hexText(CRCA.appending(to: [0x30, 0x04]))))
        #expect(response.prefix(3) == [0xD5, 0x43, 0x00])
        let frame = Array(response.dropFirst(3).dropLast(2))
        #expect(frame.count == 18)
        #expect(CRCA.stripping(frame) == nil)
        #expect(frame.first.map(Int.init) == 0xFC, "the first byte (03) arrives inverted")
    }
}
