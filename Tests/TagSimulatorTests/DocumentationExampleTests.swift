import TagMemory
import TagSimulator
import Testing

/// The Swift example of the TagSimulator DocC catalog, as printed there, then checks of what it
/// printed.
@Suite struct TagSimulatorDocumentationExampleTests {
    @Test("TagSimulator.md: poll, select, READ the CC, a write torn by the tag leaving")
    func overview() throws {
        // Example begin
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        let tags = field.poll()
        field.select(uid: tags[0].uid)

        if case .answer(.data(let pages)) = field.transceive([0x30, 0x03]) {  // READ from page 3
            print(pages.prefix(4))  // [225, 16, 62, 0]: the capability container
        }
        field.arm(SimulatedField.Faults(removeAfterCommands: 1, inFlight: .tearsPage))
        print(field.transceive([0xA2, 0x04, 0x01, 0x02, 0x03, 0x04]))  // silent: the tag left mid-write
        field.putBack()
        // Example end
        _ = field.poll()
        field.select(uid: tags[0].uid)
        guard case .answer(.data(let pages)) = field.transceive([0x30, 0x03]) else {
            Issue.record("no answer to READ after the tag was put back")
            return
        }
        #expect(Array(pages.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
    }
}
