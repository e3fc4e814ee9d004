import NDEF
import TagMemory
import TagSimulator
import Testing

/// The write order of `Type2Memory.tearSafeWritePlan` (TagMemory) checked without a reader: every prefix of the steps, and
/// every step torn after its first two bytes, leaves the old, an empty or the new message.
@Suite("Tear-safe order of NDEF page writes")
struct WriteOrderTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var chip: Type2Chip
        var old: Int?
        var new: Int?

        var testDescription: String {
            "\(chip.name) \(old.map(String.init) ?? "empty") → \(new.map(String.init) ?? "empty")"
        }
    }

    static let pairs: [Pair] = {
        var pairs: [Pair] = []
        let lengths: [Int?] = [nil, 5, 6, 7, 8, 60, 250, 251, 252, 300]
        for (chip, capacity) in [(Type2Chip.ntag213, 137), (.ntag215, 492)] {
            for old in lengths where (old ?? 0) <= capacity {
                for new in lengths where (new ?? 0) <= capacity {
                    pairs.append(Pair(chip: chip, old: old, new: new))
                }
            }
        }
        return pairs
    }()

    /// The state a reader sees: "old", "empty", "new", or nil for anything else.
    func state(_ memory: Type2Memory, old: NFCNDEFMessage?, new: NFCNDEFMessage?) -> String? {
        guard memory.problem == nil else { return nil }
        if memory.message == new { return "new" }
        if memory.message == old { return "old" }
        return memory.message == nil ? "empty" : nil
    }

    @Test(
        "T2T 1.1 6.4.3: every prefix and every torn step of the ordered writes shows old, empty or new",
        arguments: pairs)
    func tearSafe(pair: Pair) throws {
        let old = pair.old.map { uriMessage(length: $0, seed: 1) }
        let new = pair.new.map { uriMessage(length: $0, seed: 2) }
        let start = stored(tagHolding(old, chip: pair.chip))
        let bytes = new.map(encoded) ?? []
        let plan = try start.writePlan(messageBytes: bytes)
        let steps = try start.tearSafeWritePlan(messageBytes: bytes).steps
        var memory = start
        for (index, step) in steps.enumerated() {
            let range = Type2Page.bytes(of: step.address)
            let torn = Array(step.data.prefix(2)) + memory.bytes[(range.lowerBound + 2)..<range.upperBound]
            let tornMemory = try memory.applyingWrite(page: step.address, data: torn)
            #expect(state(tornMemory, old: old, new: new) != nil, "step \(index) torn: page \(step.address)")
            memory = try memory.applyingWrite(page: step.address, data: step.data)
            #expect(state(memory, old: old, new: new) != nil, "after step \(index)")
        }
        #expect(memory.message == new)
        #expect(memory.problem == nil)
        #expect(memory.bytes == (try start.applying(plan).bytes))
        // One WRITE more than TagMemory's plan at most (the staged length page), or two when the
        // plan changes a single data page under a visible message (hide, write, show).
        #expect(steps.count <= plan.steps.count + (plan.steps.count == 1 ? 2 : 1))
    }

    @Test("The same message again: no step; only the length changing: a single write")
    func minimalCases() throws {
        let message = uriMessage(length: 40)
        let start = stored(tagHolding(message, chip: .ntag215))
        #expect(try start.tearSafeWritePlan(for: message).steps.isEmpty)
        // Erasing: one write of the length page (03 00 FE ...), which hides the message at once.
        let steps = try start.tearSafeWritePlan(messageBytes: []).steps
        #expect(steps.map(\.address) == [4])
        #expect(steps.first?.data.prefix(3) == [0x03, 0x00, 0xFE])
    }

    @Test("A change within one data page under a visible message: hide, write, show (3 WRITEs)")
    func singleDataPage() throws {
        let old = uriMessage(length: 40, seed: 1)
        var changed = encoded(old)
        changed[20] ^= 0x01
        let start = stored(tagHolding(old, chip: .ntag215))
        let plan = try start.writePlan(messageBytes: changed)
        #expect(plan.steps.count == 1)
        let steps = try start.tearSafeWritePlan(messageBytes: changed).steps
        #expect(steps.map(\.address) == [4, plan.steps[0].address, 4])
        #expect(steps[0].data[1] == 0x00)
        #expect(steps[2].data[1] == 40)
    }
}
