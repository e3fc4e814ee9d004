import HexText
import TestSupport
import Testing

@testable import NDEF

/// The typed views check text with their own UTF-8 validator (table 3-7 of the Unicode
/// Standard, in one pass over the bytes); it must find the same first error as the standard
/// library's parser, on every input.
@Suite("UTF-8 validation: the first ill-formed sequence, as the standard library finds it")
struct UTF8ValidationTests {
    /// The offset the standard library's UTF-8 parser reports first, or nil: `firstInvalidUTF8`
    /// on a collection that is not contiguous in memory takes that path.
    static func parserVerdict(_ bytes: [UInt8]) -> Int? {
        RecordText.firstInvalidUTF8(bytes.lazy.map { $0 })
    }

    static func ownVerdict(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { RecordText.firstInvalidUTF8(in: $0) }
    }

    @Test("Edge cases of table 3-7")
    func edges() {
        let cases: [[UInt8]] = [
            [], [0x41], [0x7F], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80],
            [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xFF], [0xE2, 0x82], [0xE2, 0x82, 0x41], [0x41, 0xF0, 0x9F, 0x98], Array("こんにちは".utf8),
        ]
        for bytes in cases {
            #expect(Self.ownVerdict(bytes) == Self.parserVerdict(bytes), "\(Hex.encode(bytes))")
        }
    }

    @Test("Random byte strings, mostly near-valid", arguments: 0..<4)
    func random(seed: UInt64) {
        var random = SeededRandom(seed: 0x07F8_0000 + seed)
        let pieces: [[UInt8]] = [
            [0x41], [0xC3, 0xA9], [0xE3, 0x81, 0x93], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF], [0xC0], [0xE0], [0xED],
            [0xF4], [0xF5], [0xFF], [0xA0], [0x90],
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) {
                bytes += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            #expect(Self.ownVerdict(bytes) == Self.parserVerdict(bytes), "\(Hex.encode(bytes))")
        }
    }
}
