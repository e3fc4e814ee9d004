import HexText
import TestSupport
import Testing

@testable import NDEF

@Suite("The plain-message path agrees with the full decoder")
struct PlainMessageTests {
    static let messages: [[UInt8]] =
        DecodingTests.validMessages + [
            hex("d7 00 02 abcd"),  // TNF 7: left to the full decoder
            hex("b5 00 01 aa 56 00 01 bb"),  // chunked: left to the full decoder
            hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff 00"),  // trailing byte
        ]

    @Test("On every message and every single-byte change of it", arguments: messages)
    func agrees(_ bytes: [UInt8]) {
        var inputs = [bytes]
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x10, 0x40, 0x80, 0xD1, 0xFF] {
                var changed = bytes
                changed[index] = value
                inputs.append(changed)
            }
        }
        for input in inputs {
            let isPlain = NDEFMessageDecoder.isPlain(input[...], maximumRecordCount: 16_384)
            guard let plain = NDEFMessageDecoder.decodePlain(input[...], maximumRecordCount: 16_384) else {
                #expect(!isPlain, "input \(Hex.encode(input))")
                continue
            }
            #expect(isPlain, "input \(Hex.encode(input))")
            var full = NDEFMessageDecoder(input[...], options: NDEFDecodingOptions(), lenient: false)
            #expect((try? full.decode()) == plain, "input \(Hex.encode(input))")
        }
    }

    @Test("Plain messages take the plain path; chunked ones and those over the limit do not")
    func coverage() {
        #expect(NDEFMessageDecoder.decodePlain(hex("d1 01 01 54 00")[...], maximumRecordCount: 10) != nil)
        #expect(NDEFMessageDecoder.decodePlain(hex("b5 00 01 aa 56 00 01 bb")[...], maximumRecordCount: 10) == nil)
        #expect(NDEFMessageDecoder.decodePlain(hex("d1 01 01 54 00")[...], maximumRecordCount: 0) == nil)
    }
}
