import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A reader emulator and its field, with the card powered up as pcscd does it.
struct ReaderBench {
    var emulator: ContactlessReaderEmulator
    var field: SimulatedField

    /// A bench with `tags` in the field, powered up.
    init(_ tags: [SimulatedTag], profile: ContactlessReaderProfile = .combined, faults: SimulatedField.Faults = .none) {
        emulator = ContactlessReaderEmulator(profile: profile)
        field = SimulatedField(tags: tags)
        field.arm(faults)
        emulator.powerOn(&field)
    }

    /// A factory NTAG215 (UID 04 51 7C A2 4B 35 80).
    static func ntag215(profile: ContactlessReaderProfile = .combined, faults: SimulatedField.Faults = .none)
        -> ReaderBench
    {
        ReaderBench([.type2(SimulatedType2Tag(chip: .ntag215))], profile: profile, faults: faults)
    }

    /// A factory Type 4 tag (NTAG 424 DNA configuration).
    static func type4(profile: ContactlessReaderProfile = .combined) throws -> ReaderBench {
        ReaderBench([.type4(try SimulatedType4Tag(configuration: .init()))], profile: profile)
    }

    /// The response to the APDU in `command` (hex), as hex; "LEFT" when the tags left the field.
    mutating func send(_ command: String) -> String {
        switch emulator.respond(to: hex(command), in: &field) {
        case .response(let bytes): hexText(bytes)
        case .tagLeft: "LEFT"
        }
    }

    /// The selected Type 2 tag's memory page `page`.
    func page(_ page: Int) -> String {
        guard case .type2(let tag)? = field.tags.first, let bytes = tag.memory.page(page) else { return "" }
        return hexText(bytes)
    }
}
