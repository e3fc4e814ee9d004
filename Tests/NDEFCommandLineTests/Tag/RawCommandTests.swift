import Foundation
import Testing

/// `ndeftool raw` against simulated tags: Type 2 frames (NTAG213/215/216 section 10) and Type 4
/// APDUs (NFC Forum Type 4 Tag 3.0, 5.4; ISO/IEC 7816-4).
@Suite(.timeLimit(.minutes(5))) struct RawCommandTests {
    /// GET_VERSION of an NTAG215 answers 00 04 04 02 01 00 11 03 (NTAG213/215/216 table 28); a
    /// READ past the last page (FFh) answers NAK 0h (9.3).
    @Test func type2FramesAndNAK() async throws {
        let tag = try SimulatedTagFile()
        let result = try await tag.run(["raw", "60", "30FF", "3A0000"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText.hasPrefix("> 60  GET_VERSION\n< 00 04 04 02 01 00 11 03\n"))
        #expect(result.outputText.contains("> 30 FF  READ\n< NAK 0h (invalid argument: page address or command)\n"))
        // The tag is selected again after the NAK: FAST_READ of page 0 answers the UID's first bytes.
        #expect(result.outputText.contains("> 3A 00 00  FAST_READ\n< 04 "))
    }

    @Test func pwdAuthIsRefusedBeforeAnyReader() async throws {
        // The reader does not exist: refusing before opening it shows nothing was sent.
        let result = try await BinaryRunner.run(
            ["raw", "60", "1BFFFFFFFF", "--reader", "pcsc:no such reader", "--wait", "0"],
            environment: ["NDEFTOOL_READER": ""])
        #expect(result.status == 64)
        #expect(result.error.contains("PWD_AUTH"))
        #expect(result.error.contains("'ndeftool password auth'"))
        #expect(!result.error.contains("FFFFFFFF"))
    }

    /// WRITE (A2h, NTAG213/215/216 10.4) needs --force; nothing is sent without it.
    @Test func writeNeedsForce() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "text", "Hi"]).status == 0)
        let before = tag.contents()
        let refused = try await tag.run(["raw", "300F", "A20F01020304"])
        #expect(refused.status == 64)
        #expect(refused.output.isEmpty)
        #expect(refused.error.contains("bypass the safety of 'ndeftool write'"))
        #expect(tag.contents() == before)
        let compatibility = try await tag.run(["raw", "A0030000000000000000000000000000000000"])
        #expect(compatibility.status == 64)
        #expect(compatibility.error.contains("page 3"))
        let forced = try await tag.run(["raw", "A20F01020304", "300F", "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.outputText.contains("> A2 0F 01 02 03 04  WRITE\n< ACK\n"))
        #expect(forced.outputText.contains("> 30 0F  READ\n< 01 02 03 04 "))
    }

    /// T4T 3.0, 5.4.2 and 5.4.3: SELECT of the NDEF Tag Application (D2760000850101) and of the CC
    /// file E103, then READ BINARY of its 15 bytes (CCLEN 000F, version 20h).
    @Test func type4APDUs() async throws {
        let tag = try SimulatedType4TagFile()
        let result = try await tag.run([
            "raw", "00A4040007D276000085010100", "00A4000C02E103", "00B000000F", "00B0010001",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.outputText.hasPrefix(
                "> 00 A4 04 00 07 D2 76 00 00 85 01 01 00  SELECT by name\n< 90 00  (9000 success)\n"))
        #expect(result.outputText.contains("< 00 0F 20 "))
        #expect(
            result.outputText.contains(
                "> 00 B0 01 00 01  READ BINARY\n< 6B 00  (6B00 wrong parameters P1-P2 (offset outside the file))\n"))
        let update = try await tag.run(["raw", "00D60000020000"])
        #expect(update.status == 64)
    }

    @Test func jsonAndBadHex() async throws {
        let tag = try SimulatedTagFile()
        let json = try SimulatedTagFile.object(try await tag.run(["raw", "--json", "60"]))
        #expect(json["tagType"] as? String == "type2")
        let exchange = try #require((json["exchanges"] as? [[String: Any]])?.first)
        #expect(exchange["command"] as? String == "60")
        #expect(exchange["response"] as? String == "0004040201001103")
        #expect(try await tag.run(["raw", "6"]).status == 64)
        #expect(try await tag.run(["raw", "zz"]).status == 64)
        #expect(try await tag.run(["raw"]).status == 64)
    }
}
