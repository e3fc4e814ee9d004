import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Hostile APDUs from any PC/SC client: the emulated reader answers every one (a status word or
/// a lost tag), never traps. Seeded (``TestSupport/SeededRandom``), so a failure repeats.
@Suite("The emulated reader survives random APDUs")
struct ReaderEmulatorRandomTests {
    @Test(arguments: [ContactlessReaderProfile.combined, .acr122u, .pcsc202])
    func randomAPDUs(profile: ContactlessReaderProfile) {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        let prefixes: [[UInt8]] = [
            [0xFF, 0x00, 0x00, 0x00], [0xFF, 0xC2, 0x00, 0x00], [0xFF, 0xC2, 0x00, 0x01], [0xFF, 0xC2, 0x00, 0x02],
            [0xFF, 0xB0, 0x00], [0xFF, 0xD6, 0x00], [0xFF, 0xCA], [0x00, 0xA4, 0x04, 0x00], [0x00, 0xB0], [0x00, 0xD6],
            [0xFF, 0x82, 0x00], [0xFF, 0x86, 0x00, 0x00], [0xFF, 0x88, 0x00],
        ]
        let tags: [SimulatedTag] = [
            .type2(SimulatedType2Tag(chip: .ntag215)),
            (try? SimulatedType4Tag()).map { .type4($0) } ?? .type2(SimulatedType2Tag(chip: .ntag213)),
            .classic(SimulatedClassicTag(type: .classic1K)),
        ]
        for tag in tags {
            var field = SimulatedField(tag)
            var emulator = ContactlessReaderEmulator(profile: profile)
            _ = emulator.powerOn(&field)
            for _ in 0..<20_000 {
                var apdu = prefixes[Int.random(in: 0..<prefixes.count, using: &random)]
                let extra = Int.random(in: 0..<40, using: &random)
                for _ in 0..<extra { apdu.append(UInt8.random(in: 0...255, using: &random)) }
                if Bool.random(using: &random), apdu.count > 4 {
                    apdu[4] = UInt8(truncatingIfNeeded: apdu.count - 5)  // a consistent Lc half the time
                }
                if case .tagLeft = emulator.respond(to: apdu, in: &field) {
                    field.putBack()
                    _ = emulator.powerOn(&field)
                }
            }
        }
    }
}
