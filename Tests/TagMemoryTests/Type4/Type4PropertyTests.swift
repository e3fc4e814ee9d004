import NDEF
import TagMemory
import TestSupport
import Testing

/// Plan, apply, parse: for random messages and several CC settings the tag ends up holding the
/// message, every step stays inside the NDEF file, and a write torn after any step leaves a file
/// a reader accepts holding the old message, no message, or the new one (T4T 3.0, 5.5.7).
@Suite("Type 4 plans, applied (T4T 3.0, 5.5.6 and 5.5.7)")
struct Type4PropertyTests {
    /// CC settings: names of fixtures, plus variants built here.
    static func settings() throws -> [(String, Type4CapabilityContainer)] {
        var list: [(String, Type4CapabilityContainer)] = []
        for name in [
            "cc-v2-small-32.hex", "cc-v2-example.hex", "cc-v1-desfire-format.hex", "cc-v2-ntag424-dna-factory.hex",
            "cc-v3-extended.hex",
        ] {
            list.append((name, try Type4Fixture.capabilityContainer(name)))
        }
        var tight = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        tight.maximumCommandDataSize = 13
        tight.maximumResponseDataSize = 15
        tight.ndefFile.maximumFileSize = 0x8100
        list.append(("v3, MLc 13, MLe 15, 8100 bytes", tight))
        var wide = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        wide.maximumCommandDataSize = 1000
        wide.maximumResponseDataSize = 1000
        wide.ndefFile.maximumFileSize = 0x7FFF
        list.append(("v2, MLc and MLe 1000, 7FFF bytes", wide))
        return list
    }

    /// Runs the write plan from `old` to `new`, checking every invariant after each step, then
    /// reads the result back with the read plan.
    func check(
        _ cc: Type4CapabilityContainer, from old: [UInt8], to new: [UInt8], limit: Int?, single: Bool,
        knowsCurrent: Bool, label: String
    ) throws {
        let start = try Type4FileImages(
            capabilityContainer: cc, ndefFileContent: Type4NDEFFile.encoded(messageBytes: old, capabilityContainer: cc))
        let current = knowsCurrent ? start[cc.ndefFile.fileIdentifier] : nil
        let plan = try cc.writePlan(
            messageBytes: new, currentFile: current, maximumCommandData: limit, singleUpdateWhenPossible: single)
        let budget = min(cc.maximumCommandDataSize, limit ?? .max)
        for step in plan.steps {
            #expect(step.file == cc.ndefFile.fileIdentifier, "\(label)")
            #expect(step.address >= 0 && step.address + step.data.count <= cc.ndefFile.maximumFileSize, "\(label)")
            #expect(commandDataCount(step) <= budget, "\(label): \(step.data.count) bytes at \(step.address)")
        }
        var files = start
        for (index, step) in plan.steps.enumerated() {
            try files.apply(TagWritePlan(steps: [step]))
            // Torn after this step: a reader sees the old message, none, or the new one.
            let seen = try files.ndefFile()
            let bytes = Array(seen.messageBytes)
            #expect(
                bytes == old || bytes.isEmpty || bytes == new, "\(label): after step \(index) of \(plan.steps.count)")
            #expect(seen.status == cc.ndefStatus)
        }
        #expect(files[Type4CapabilityContainer.fileIdentifier] == start[Type4CapabilityContainer.fileIdentifier])
        let final = try files.ndefFile()
        #expect(Array(final.messageBytes) == new, "\(label)")
        if !new.isEmpty {
            #expect(try final.message == NFCNDEFMessage(decoding: new), "\(label)")
        }
        // Reading it back with the read plan gives the same bytes, never reading past NLEN.
        let image = try #require(files[cc.ndefFile.fileIdentifier])
        let readPlan = try cc.readPlan(messageLength: new.count, maximumResponseData: limit)
        var read: [UInt8] = []
        for item in readPlan.dropFirst() {
            #expect(item.length <= min(cc.maximumResponseDataSize, limit ?? .max), "\(label)")
            #expect(item.offset + item.length <= cc.messageLengthFieldSize + new.count, "\(label)")
            #expect(try Type4Command.readBinary(item).usesOffsetDataObject == item.usesOffsetDataObject)
            read += image[item.offset..<(item.offset + item.length)]
        }
        #expect(read == new, "\(label): read plan")
    }

    @Test("Random messages under several CC settings: plan -> apply -> parse returns the message")
    func randomMessages() throws {
        var generator = SeededRandom(seed: 0x5EED_0004)
        for (name, cc) in try Self.settings() {
            let capacity = cc.ndefStatus.capacity
            for round in 0..<12 {
                let maximum = min(capacity, 2400)
                let new = try randomMessage(maximumLength: maximum, using: &generator).encoded()
                let old: [UInt8] =
                    round % 3 == 0 ? [] : try randomMessage(maximumLength: maximum, using: &generator).encoded()
                let limit: Int? = round % 4 == 1 ? Int.random(in: 4...64, using: &generator) : nil
                try check(
                    cc, from: old, to: new, limit: limit, single: round % 2 == 0, knowsCurrent: round % 3 == 2,
                    label: "\(name) round \(round)")
            }
            // Erasing, and rewriting the same message with the current image known.
            let same = try randomMessage(maximumLength: min(capacity, 200), using: &generator).encoded()
            try check(cc, from: same, to: [], limit: nil, single: true, knowsCurrent: false, label: "\(name) erase")
            try check(cc, from: same, to: same, limit: nil, single: false, knowsCurrent: true, label: "\(name) same")
        }
    }

    @Test("Messages crossing offset 8000 on version 3.0 files (D7 and B1 pieces)")
    func largeMessages() throws {
        var generator = SeededRandom(seed: 0x8000)
        for (name, cc) in try Self.settings() where cc.ndefStatus.capacity > 0x8000 {
            for _ in 0..<3 {
                let length = Int.random(in: 0x7FF0...(cc.ndefStatus.capacity - 10), using: &generator)
                let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let new = try NFCNDEFMessage(records: [NFCNDEFPayload(format: .unknown, type: [], payload: payload)])
                    .encoded()
                try check(cc, from: [], to: new, limit: nil, single: true, knowsCurrent: false, label: name)
            }
        }
    }
}
