import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Arbitrary frames never trap the simulator and never change what must not change.
@Suite("Simulated Type 2 tag: arbitrary frames")
struct SimulatedType2RobustnessTests {
    @Test(
        "ISO/IEC 14443-3, T2T 1.1 2.1.1: random frames keep the image size and the UID pages, every frame is counted",
        arguments: Type2ChipCatalogue.all)
    func randomFrames(chip: Type2Chip) {
        var tag = SimulatedType2Tag.selected(chip)
        var generator = SeededRandom(seed: UInt64(chip.pageCount) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let commands: [UInt8] = [0x30, 0x3A, 0xA2, 0xA0, 0x60, 0x39, 0x1B, 0x3C, 0x00, 0xFF]
        let uidPages = Array(tag.bytes.prefix(8))
        for _ in 0..<3000 {
            let length = Int.random(in: 0...18, using: &generator)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !frame.isEmpty, Bool.random(using: &generator) {
                frame[0] = commands[Int.random(in: 0..<commands.count, using: &generator)]
            }
            if tag.transceive(frame) == .silent, Int.random(in: 0..<4, using: &generator) == 0 { tag.select() }
            if Int.random(in: 0..<200, using: &generator) == 0 { tag.fieldOff() }
        }
        #expect(tag.bytes.count == chip.pageCount * 4)
        #expect(Array(tag.bytes.prefix(8)) == uidPages)
        #expect(tag.totalCommandCount == 3000)
        #expect(tag.nfcCounter <= 0xFF_FFFF)
    }
}
