import NDEF
import TagMemory
import TestSupport
import Testing

/// The NDEF write plan (NFC Forum Type 2 Tag 1.1, 6.4.3) on every chip of the catalogue.
@Suite("Type 2 write plan")
struct Type2WritePlanTests {
    /// Writes `bytes` over `memory` and checks the result and every intermediate state.
    ///
    /// T2T 1.1, 6.4.3: after any prefix of the steps a reader sees the old message, an empty
    /// one, or the new one, never anything else.
    func checkWrite(_ bytes: [UInt8], over memory: Type2Memory, _ comment: String) throws -> Type2Memory {
        let old = try #require(memory.ndefMessageBytes, "\(comment): the starting image has a message")
        let plan = try memory.writePlan(messageBytes: bytes)
        let states = try Type2PlanSupport.states(of: memory, applying: plan)
        for (index, state) in states.enumerated() {
            let seen = state.ndefMessageBytes
            #expect(
                seen == old || seen == [] || seen == bytes,
                "\(comment): after \(index) of \(plan.steps.count) steps the tag reads \(seen?.count ?? -1) bytes")
            #expect(state.problem == nil && state.ndefStatus.status == .readWrite, "\(comment): step \(index)")
        }
        let final = try #require(states.last)
        #expect(final.ndefMessageBytes == bytes, "\(comment)")
        #expect(final.ndefStatus == memory.ndefStatus, "\(comment): status and capacity unchanged")
        // Only data area pages, never the lock, configuration, CC or UID pages.
        let area = try #require(memory.dataArea)
        let dataPages = (area.lowerBound / 4)..<(area.upperBound / 4)
        #expect(plan.steps.allSatisfy { dataPages.contains($0.address) }, "\(comment): \(writtenPages(plan))")
        #expect(Array(final.bytes[..<area.lowerBound]) == Array(memory.bytes[..<area.lowerBound]))
        #expect(Array(final.bytes[area.upperBound...]) == Array(memory.bytes[area.upperBound...]))
        // The fewest writes: each changed page once, plus the length-0 write when more than one
        // page changes over a message (a single changed page is one atomic WRITE).
        // Over a message, when more than one page changes, the length page is written twice
        // (0, then the length), even if it ends as it was; any other changed page once. For an
        // empty new message the length-0 write is the last length write.
        let changed = (0..<(memory.bytes.count / 4)).filter { final.page($0) != memory.page($0) }
        let lengthPage = try #require(final.ndefTLV?.lengthAddress).quotientAndRemainder(dividingBy: 4).quotient
        let fewest =
            changed.count <= 1 || old.isEmpty
            ? changed.count : changed.filter { $0 != lengthPage }.count + (bytes.isEmpty ? 1 : 2)
        #expect(plan.steps.count == fewest, "\(comment): \(writtenPages(plan)) for \(changed)")
        #expect(!plan.requiresAuthentication)
        // Writing the same message again changes nothing.
        #expect(try final.writePlan(messageBytes: bytes).steps.isEmpty, "\(comment): rewrite is empty")
        return final
    }

    @Test(
        "T2T 6.4.3: random messages, sizes 0 to capacity, chunked or not, on every chip; tearing-safe",
        arguments: Type2ChipCatalogue.all)
    func randomMessages(_ chip: Type2Chip) throws {
        var memory = try Type2PlanSupport.formatted(chip)
        let capacity = memory.ndefStatus.capacity
        var generator = SeededRandom(seed: UInt64(chip.pageCount))
        var lengths = [capacity, 0, 3, min(capacity, 254), min(capacity, 255), capacity, 1 + capacity / 2]
        for _ in 0..<8 {
            // No message encodes to 1 or 2 bytes (a record has at least 3).
            let length = Int.random(in: 0...capacity, using: &generator)
            lengths.append((1...2).contains(length) ? 3 : length)
        }
        for (index, length) in lengths.enumerated() {
            let message = try #require(Type2PlanSupport.message(length: length, seed: UInt8(index)))
            let bytes = try Type2PlanSupport.bytes(of: message)
            #expect(bytes.count == length)
            memory = try checkWrite(bytes, over: memory, "\(chip.name), \(length) bytes")
            #expect(memory.message == (length == 0 ? nil : message))
        }
        for index in 0..<6 {
            let message = randomMessage(maximumLength: capacity - 40, using: &generator)
            let chunked = try message.encoded(chunkSize: index % 2 == 0 ? nil : 1 + index)
            guard chunked.count <= capacity else { continue }
            memory = try checkWrite(chunked, over: memory, "\(chip.name), random \(chunked.count) bytes")
            #expect(memory.message == message, "\(chip.name): chunks decode to the same message")
        }
    }

    @Test(
        "T2T 2.2.1, 2.3: random messages over reserved bytes, NULL and proprietary TLVs, half-written tags",
        arguments: [
            "ntag213-memory-control.hex", "ntag215-memory-control.hex", "ntag216-memory-control.hex",
            "ntag213-null-proprietary.hex", "ntag215-null-proprietary.hex", "ntag213-half-written.hex",
            "ntag215-half-written.hex", "ntag216-long-message.hex", "ntag213-full-message.hex",
        ])
    func fixtureImages(_ name: String) throws {
        var memory = try TagFixtures.memory(name)
        let capacity = memory.ndefStatus.capacity
        var generator = SeededRandom(seed: UInt64(name.utf8.count))
        for index in 0..<6 {
            let length = [capacity, 0, 255][safe: index] ?? Int.random(in: 3...capacity, using: &generator)
            guard length <= capacity, let message = Type2PlanSupport.message(length: length, seed: UInt8(index)) else {
                continue
            }
            memory = try checkWrite(try Type2PlanSupport.bytes(of: message), over: memory, "\(name), \(length) bytes")
        }
    }

    @Test("T2T 2.3.4: a malformed NDEF TLV length is overwritten; the tag reads the new message after it")
    func overMalformedTLV() throws {
        for name in ["ntag213-hostile-length-past-end.hex"] {
            let memory = try TagFixtures.memory(name)
            #expect(memory.ndefMessageBytes == nil && memory.ndefStatus.status == .readWrite)
            let plan = try memory.writePlan(for: exampleURIMessage)
            let states = try Type2PlanSupport.states(of: memory, applying: plan)
            #expect(states.dropFirst().allSatisfy { $0.ndefMessageBytes == [] || $0.message == exampleURIMessage })
            #expect(states.last?.message == exampleURIMessage, "\(name)")
        }
    }

    @Test("T2T 2.3.4: capacity is checked first; the error names the capacity and the size with the header")
    func capacityErrors() throws {
        let n215 = try Type2PlanSupport.formatted(.ntag215)
        #expect(n215.ndefStatus.capacity == 492)
        #expect(throws: TagMemoryError(.insufficientCapacity, "")) {
            try n215.writePlan(messageBytes: [UInt8](repeating: 0, count: 493))
        }
        do {
            _ = try n215.writePlan(messageBytes: [UInt8](repeating: 0, count: 493))
        } catch {
            #expect(error.reason.contains("493") && error.reason.contains("497") && error.reason.contains("492"))
        }
        let n213 = try Type2PlanSupport.formatted(.ntag213)
        do {
            _ = try n213.writePlan(messageBytes: [UInt8](repeating: 0, count: 138))
        } catch {
            #expect(error.code == .insufficientCapacity)
            #expect(error.reason.contains("138") && error.reason.contains("140") && error.reason.contains("137"))
        }
        // Exactly the capacity fits, with no Terminator (6.4.3: written only if there is room).
        let full = try n213.writePlan(messageBytes: [UInt8](repeating: 0x41, count: 137))
        #expect(try n213.applying(full).tlvScan?.terminatorAddress == nil)
    }

    @Test("T2T 6.4.3: not formatted, read-only and locked tags are refused before any step")
    func refusals() throws {
        let blank = try Type2PlanSupport.factory(.mifareUltralight)
        #expect(throws: TagMemoryError(.notFormatted, "")) { try blank.writePlan(messageBytes: [0xD0, 0x00, 0x00]) }
        for name in ["ntag213-read-only.hex", "ntag215-dynamic-lock-bit.hex", "ntag213-static-lock-bit.hex"] {
            let memory = try TagFixtures.memory(name)
            #expect(throws: TagMemoryError(.notWritable, ""), "\(name)") {
                try memory.writePlan(messageBytes: [0xD0, 0x00, 0x00])
            }
        }
        // Capacity comes first: a read-only tag too small for the message says so.
        let readOnly = try TagFixtures.memory("ntag213-read-only.hex")
        #expect(throws: TagMemoryError(.insufficientCapacity, "")) {
            try readOnly.writePlan(messageBytes: [UInt8](repeating: 0, count: 200))
        }
        // No NDEF TLV in a formatted area (T2T 6.4.1): format first.
        var bytes = try TagFixtures.load("ntag213-factory.hex")
        bytes[21] = 0xFE
        #expect(throws: TagMemoryError(.notFormatted, "")) {
            try Type2Memory(bytes: bytes, chip: .ntag213).writePlan(messageBytes: [])
        }
        // A partial image cannot be planned against.
        let partial = Type2Memory(bytes: Array(try TagFixtures.load("ntag215-factory.hex").prefix(100)), chip: .ntag215)
        #expect(throws: TagMemoryError(.truncatedImage, "")) { try partial.writePlan(messageBytes: [0xD0, 0, 0]) }
    }

    @Test("NTAG21x 8.8.1: writing below AUTH0 needs no password; at or after AUTH0 the plan says authenticate")
    func passwordProtection() throws {
        let protected = try TagFixtures.memory("ntag213-password-protected.hex")
        #expect(protected.firstWriteProtectedPage == 4)
        let plan = try protected.writePlan(for: textMessage(count: 3))
        #expect(plan.requiresAuthentication)
        #expect(throws: TagMemoryError(.notWritable, "")) { try protected.applying(plan, authenticated: false) }
        #expect(try protected.applying(plan).message == textMessage(count: 3))
        // AUTH0 past the message: no authentication needed.
        var bytes = protected.bytes
        bytes[0x29 * 4 + 3] = 0x20
        let high = Type2Memory(bytes: bytes, chip: .ntag213)
        #expect(try !high.writePlan(for: textMessage(count: 3)).requiresAuthentication)
        #expect(try high.writePlan(for: textMessage(count: 120)).requiresAuthentication)
    }
}

extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
