import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// Operations called at the same time on one tag run one after the other, never interleaved:
/// a write's length-0 page, message and final length must not mix with another write's.
@Suite("Operations on one tag run one at a time")
struct OperationOrderTests {
    @Test("Two writes started together: each runs whole, one after the other")
    func concurrentWritesDoNotInterleave() async throws {
        let reader = makeReader(
            [SimulatedType2Tag(chip: .ntag215)], faults: SimulatedField.Faults(latencyMilliseconds: 1))
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let first = uriMessage(length: 40, seed: 1)
        let second = uriMessage(length: 60, seed: 2)
        async let one: Void = tag.writeNDEF(first)
        async let two: Void = tag.writeNDEF(second)
        _ = try await (one, two)
        let writes = reader.log.filter { $0.command == .type2(.write) }.map(\.bytes)
        // Each write ends with its length page (page 4) holding its own final length; with the
        // operations interleaved, a length-0 write of one would follow the other's data pages.
        let lengthWrites = writes.filter { $0.count > 2 && $0[1] == 4 }.map { $0[3] }
        let firstLength = UInt8(encoded(first).count)
        let secondLength = UInt8(encoded(second).count)
        #expect(
            lengthWrites == [0, firstLength, 0, secondLength] || lengthWrites == [0, secondLength, 0, firstLength],
            "\(lengthWrites)")
        let message = try #require(stored(reader.type2Tag).message)
        #expect(message == first || message == second)
        #expect(UInt8(encoded(message).count) == lengthWrites.last)
    }
}
