import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// ISO/IEC 14443-4 blocks to a Type 4 tag through the PN532's InCommunicateThru with its
/// automatic RATS off (SetParameters 00, as nfcpy does it): ``ISODEPBlockLink``.
@Suite struct ISODEPBlockTests {
    static let selectApplication = "00A4040007D276000085010100"
    static let selectNDEFFile = "00A4000C02E104"

    /// A chip with a factory Type 4 tag listed without RATS.
    static func bench() throws -> PN532SerialChipTests.Bench {
        var bench = PN532SerialChipTests.Bench([.type4(try SimulatedType4Tag(configuration: .init()))])
        #expect(bench.answer("D41200") == "D513")
        return bench
    }

    /// The block the tag answers to `block` (hex), as hex; "TIMEOUT" for status 01.
    static func thru(_ bench: inout PN532SerialChipTests.Bench, _ block: String) -> String {
        let answer = bench.answer("D442" + block)
        if answer == "D54301" { return "TIMEOUT" }
        return answer.hasPrefix("D54300") ? String(answer.dropFirst(6)) : "status \(answer)"
    }

    @Test("UM0701 7.2.9: with fAutomaticRATS off InListPassiveTarget reports no ATS; RATS brings it")
    func ratsByTheHost() throws {
        var bench = try Self.bench()
        let tag = try SimulatedType4Tag(configuration: .init())
        let listed = bench.answer("D44A0100")
        #expect(listed == "D54B01" + "01" + "0344" + "20" + "07" + hexText(tag.uid))
        #expect(Self.thru(&bench, "E080") == hexText(tag.ats))
    }

    @Test("ISO/IEC 14443-4 7.1.1: I-blocks carry APDUs; the card's block number follows the reader's")
    func iBlocks() throws {
        var bench = try Self.bench()
        _ = bench.answer("D44A0100")
        _ = Self.thru(&bench, "E080")
        #expect(Self.thru(&bench, "02" + Self.selectApplication) == "029000")
        #expect(Self.thru(&bench, "03" + Self.selectNDEFFile) == "039000")
        #expect(Self.thru(&bench, "02" + "00B0000002") == "0200009000")
        // CID: echoed.
        #expect(Self.thru(&bench, "0B01" + "00B0000002") == "0B0100009000")
    }

    @Test("ISO/IEC 14443-4 7.5.4.2 rules 11 and 12: R(NAK) with the card's number repeats, the other gets R(ACK)")
    func rBlocks() throws {
        var bench = try Self.bench()
        _ = bench.answer("D44A0100")
        _ = Self.thru(&bench, "E080")
        // libnfc's presence check for a PN532: R(NAK) with block number 0 right after activation.
        #expect(Self.thru(&bench, "B2") == "A3")
        #expect(Self.thru(&bench, "02" + Self.selectApplication) == "029000")
        #expect(Self.thru(&bench, "B2") == "029000")
        #expect(Self.thru(&bench, "B3") == "A2")
    }

    @Test("ISO/IEC 14443-4 7.5.2: a response longer than FSD comes chained, each part after R(ACK)")
    func chainedResponse() throws {
        var bench = try Self.bench()
        _ = bench.answer("D44A0100")
        // FSDI 5: FSD 64, so 61 bytes of INF per block.
        #expect(Self.thru(&bench, "E050").hasPrefix("06"))
        #expect(Self.thru(&bench, "02" + Self.selectApplication) == "029000")
        #expect(Self.thru(&bench, "03" + Self.selectNDEFFile) == "039000")
        var response = ""
        var block = Self.thru(&bench, "02" + "00B0000000")
        var acknowledgement: UInt8 = 0xA3
        var blocks = 0
        while block.hasPrefix("12") || block.hasPrefix("13") {
            #expect(block.count == 2 + 61 * 2)
            response += block.dropFirst(2)
            block = Self.thru(&bench, hexText([acknowledgement]))
            acknowledgement ^= 0x01
            blocks += 1
        }
        response += block.dropFirst(2)
        #expect(blocks == 4)
        #expect(response.count == 258 * 2)
        #expect(response.hasPrefix("0000"))
        #expect(response.hasSuffix("9000"))
    }

    @Test("ISO/IEC 14443-4 7.5.2: a chained command is acknowledged part by part, then answered")
    func chainedCommand() throws {
        var bench = try Self.bench()
        _ = bench.answer("D44A0100")
        _ = Self.thru(&bench, "E080")
        #expect(Self.thru(&bench, "12" + "00A4040007") == "A2")
        #expect(Self.thru(&bench, "03" + "D276000085010100") == "039000")
    }

    @Test("ISO/IEC 14443-4 8: S(DESELECT) is answered and halts the tag; frames for Type 2 get nothing")
    func deselect() throws {
        var bench = try Self.bench()
        _ = bench.answer("D44A0100")
        _ = Self.thru(&bench, "E080")
        #expect(Self.thru(&bench, "3004") == "TIMEOUT")
        #expect(Self.thru(&bench, "C2") == "C2")
        #expect(bench.answer("D44A0100") == "D54B00")
    }
}
