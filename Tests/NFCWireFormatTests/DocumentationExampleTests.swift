import HexText
import NFCWireFormat
import Testing

/// The Swift example of the NFCWireFormat DocC catalog, as printed there, then checks of what it
/// printed.
@Suite struct NFCWireFormatDocumentationExampleTests {
    @Test("NFCWireFormat.md: SELECT by name, a status word, CRC_A")
    func overview() {
        // Example begin
        let select = CommandAPDU(
            cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00, data: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01],
            expectedLength: 256)
        print(Hex.bytes(select?.encoded ?? []))  // 00 A4 04 00 07 D2 76 00 00 85 01 01 00

        if let response = ResponseAPDU([0x6A, 0x82]) {
            print(response.statusWord)  // 6A82 file or application not found
        }
        print(Hex.bytes(CRCA.checksum([0x30, 0x00])))  // 02 A8
        // Example end
        #expect(Hex.bytes(select?.encoded ?? []) == "00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        #expect(ResponseAPDU([0x6A, 0x82]).map { "\($0.statusWord)" } == "6A82 file or application not found")
        #expect(Hex.bytes(CRCA.checksum([0x30, 0x00])) == "02 A8")
    }
}
