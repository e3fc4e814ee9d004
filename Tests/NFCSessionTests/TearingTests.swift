import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A write interrupted at every command, with every in-flight outcome.
struct TearingCase: Sendable, CustomTestStringConvertible {
    var chip: Type2Chip
    var oldLength: Int?
    var newLength: Int

    var old: NFCNDEFMessage? { oldLength.map { uriMessage(length: $0, seed: 11) } }
    var new: NFCNDEFMessage { uriMessage(length: newLength, seed: 5) }

    var testDescription: String {
        "\(chip.name): \(oldLength.map { "\($0)-byte message" } ?? "factory") → \(newLength) bytes"
    }
}

@Suite("Tearing: the tag leaves the field at every command")
struct TearingTests {
    static let writeCases: [TearingCase] = [
        TearingCase(chip: .ntag213, oldLength: nil, newLength: 10),
        TearingCase(chip: .ntag213, oldLength: 30, newLength: 100),
        TearingCase(chip: .ntag213, oldLength: 100, newLength: 10),
        TearingCase(chip: .ntag215, oldLength: nil, newLength: 100),
        TearingCase(chip: .ntag215, oldLength: 50, newLength: 400),
        TearingCase(chip: .ntag215, oldLength: 400, newLength: 10),
        TearingCase(chip: .ntag216, oldLength: nil, newLength: 400),
        TearingCase(chip: .ntag216, oldLength: 100, newLength: 10),
        TearingCase(chip: .ntag216, oldLength: 10, newLength: 100),
    ]

    /// The commands an uninterrupted write of `testCase` sends after identification, and the index
    /// of its first WRITE.
    func cleanRun(_ testCase: TearingCase) async throws -> (total: Int, firstWrite: Int, writes: Int) {
        let reader = makeReader([tagHolding(testCase.old, chip: testCase.chip)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.writeNDEF(testCase.new)
        let log = reader.log
        return (log.count, log.firstIndex { $0.kind == .write } ?? log.count, reader.count(of: .write))
    }

    /// What a fresh reader finds: the old message, an empty one, or the new one; nil for anything else.
    func state(_ memory: Type2Memory, _ testCase: TearingCase) -> String? {
        guard memory.problem == nil else { return nil }
        if memory.message == nil { return "empty" }
        if memory.message == testCase.new { return "new" }
        if let old = testCase.old, memory.message == old { return "old" }
        return nil
    }

    /// At every command of a write, whatever the tag did with the command in flight, a fresh read
    /// finds the old, an empty or the new message; the error says half-written once a WRITE was
    /// sent (and the tag is unchanged before that); resumeWrite completes with no more WRITEs than
    /// the clean run, and none when the new message is already complete.
    @Test(
        "T2T 1.1 6.4.3: a write torn at any command leaves old, empty or new; resume completes",
        arguments: writeCases, SimulatedField.InFlightOutcome.allCases)
    func ndefWrite(testCase: TearingCase, outcome: SimulatedField.InFlightOutcome) async throws {
        let clean = try await cleanRun(testCase)
        let original = tagHolding(testCase.old, chip: testCase.chip)
        for index in 0..<clean.total {
            let reader = makeReader([original])
            let (session, tag) = try await openTag(reader)
            reader.clearLog()
            reader.arm(.init(removeAfterCommands: index + 1, inFlight: outcome))
            let error = await caught { try await tag.writeNDEF(testCase.new) }
            #expect(error?.code == .tagConnectionLost, "command \(index)")
            #expect(error?.mayBeHalfWritten == (index >= clean.firstWrite), "command \(index)")
            let after = stored(reader.type2Tag)
            let found = state(after, testCase)
            #expect(found != nil, "command \(index) \(outcome): \(after.problem?.description ?? "other message")")
            if index < clean.firstWrite { #expect(after.bytes == original.bytes, "command \(index)") }

            reader.putBack()
            guard let again = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else {
                Issue.record("no tag")
                return
            }
            reader.clearLog()
            try await again.resumeWrite(testCase.new)
            #expect(stored(reader.type2Tag).message == testCase.new, "command \(index)")
            #expect(reader.count(of: .write) <= clean.writes, "command \(index)")
            if found == "new" { #expect(reader.count(of: .write) == 0, "command \(index)") }
        }
    }

    @Test("Why the length page is staged: TagMemory's 26-write plan torn in its last WRITE shows neither message")
    func unstagedPlanTears() throws {
        let message = uriMessage(length: 100)
        var tag = SimulatedType2Tag(chip: .ntag215)
        tag.select()
        let plan = try stored(tag).writePlan(for: message)
        #expect(plan.steps.count == 26)
        for step in plan.steps.dropLast() {
            #expect(tag.transceive([0xA2, UInt8(step.address)] + step.data) == .ack)
        }
        let last = try #require(plan.steps.last)
        #expect(last.address == 4)
        // First two bytes new (03 64), last two old (FE 00 of the factory 03 00 FE 00).
        #expect(tag.transceive([0xA2, 0x04] + last.data.prefix(2) + tag.bytes[18..<20]) == .ack)
        #expect(Array(tag.bytes[16..<20]) == hex("03 64 FE 00"))
        #expect(stored(tag).message == nil)
        #expect(stored(tag).problem?.code == .malformedMessage)
    }

    static let lockChips: [Type2Chip] = [.ntag213, .ntag215, .ntag216]

    /// A lock interrupted at every command leaves a tag that is as writable as before or reads as
    /// read-only (the CC write landed), as the status query says; locking again completes it.
    @Test(
        "T2T 1.1 6.4.4, NTAG213/215/216 8.5: a torn lock leaves writable or read-only; locking again completes",
        arguments: lockChips, SimulatedField.InFlightOutcome.allCases)
    func lock(chip: Type2Chip, outcome: SimulatedField.InFlightOutcome) async throws {
        let message = uriMessage(length: 40)
        let original = tagHolding(message, chip: chip)
        let cleanReader = makeReader([original])
        let (_, cleanTag) = try await openTag(cleanReader)
        let confirmation = try await cleanTag.prepareLock()
        cleanReader.clearLog()
        try await cleanTag.writeLock(confirmation)
        let total = cleanReader.log.count
        let firstWrite = cleanReader.log.firstIndex { $0.kind == .write } ?? total
        let lastWrite = cleanReader.log.lastIndex { $0.kind == .write } ?? total
        #expect(stored(cleanReader.type2Tag).ndefStatus.status == .readOnly)

        for index in 0..<total {
            let reader = makeReader([original])
            let (session, tag) = try await openTag(reader)
            reader.arm(.init(removeAfterCommands: index + 1, inFlight: outcome))
            let error = await caught { try await tag.writeLock(confirmation) }
            #expect(error?.code == .tagConnectionLost, "command \(index)")
            #expect(error?.mayBeHalfWritten == (index >= firstWrite), "command \(index)")
            let after = stored(reader.type2Tag)
            #expect(after.message == message, "command \(index)")
            let status = after.ndefStatus.status
            if status == .readWrite { #expect(after.bytes == original.bytes, "command \(index)") }
            #expect(status == .readWrite || status == .readOnly)

            reader.putBack()
            guard let again = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else { return }
            #expect(try await again.ndefStatus().status == status, "command \(index)")
            if status == .readWrite {
                try await again.writeLock(confirmation)
            } else if try after.lockPlan().steps.isEmpty {
                // Only the read-back was interrupted, or the last WRITE completed: the lock is complete.
                #expect(index > lastWrite || index == lastWrite && outcome == .completes, "command \(index)")
            } else {
                // The CC already says read-only: the rest of the lock gets a new confirmation; the old
                // one no longer matches.
                #expect(await caught { try await again.writeLock(confirmation) }?.code == .confirmationMismatch)
                let rest = try await again.prepareLock()
                #expect(rest.plan.steps.count < confirmation.plan.steps.count)
                try await again.writeLock(rest)
            }
            let locked = stored(reader.type2Tag)
            #expect(locked.ndefStatus.status == .readOnly)
            #expect(try locked.lockPlan().steps.isEmpty, "command \(index): lock bits missing")
            #expect(await caught { _ = try await again.prepareLock() }?.code == .tagNotWritable)
        }
    }

    /// A password set interrupted at every command leaves the tag unprotected, or protected with the
    /// new password and PACK (AUTH0 is written last); setting it again, or authenticating, completes.
    @Test(
        "NTAG213/215/216 8.8: a torn password set leaves the tag unprotected or protected by the new password",
        arguments: lockChips, SimulatedField.InFlightOutcome.allCases)
    func password(chip: Type2Chip, outcome: SimulatedField.InFlightOutcome) async throws {
        let settings = Type2PasswordSettings(
            password: hex("AA BB CC DD"), passwordAcknowledge: hex("12 34"), authenticationLimit: 3)
        let original = tagHolding(uriMessage(length: 20), chip: chip)
        let cleanReader = makeReader([original])
        let (_, cleanTag) = try await openTag(cleanReader)
        cleanReader.clearLog()
        try await cleanTag.setPassword(settings)
        let total = cleanReader.log.count
        #expect(
            cleanReader.log.map(\.kind) == [
                .fastRead, .write, .write, .passwordAuthentication, .write, .write, .fastRead,
            ])

        for index in 0..<total {
            let reader = makeReader([original])
            let (session, tag) = try await openTag(reader)
            reader.arm(.init(removeAfterCommands: index + 1, inFlight: outcome))
            let error = await caught { try await tag.setPassword(settings) }
            #expect(error?.code == .tagConnectionLost, "command \(index)")
            let configuration = try #require(stored(reader.type2Tag).configuration)
            reader.putBack()
            guard let again = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else { return }
            if configuration.firstProtectedPage == nil {
                #expect(try await again.passwordStatus().protection == .off, "command \(index)")
                try await again.setPassword(settings)
            } else {
                #expect(configuration.firstProtectedPage == 4)
                #expect(try await again.passwordStatus().protection == .from(page: 4, readProtected: false))
                let pack = try await again.authenticate(
                    password: settings.password, expectedPasswordAcknowledge: hex("12 34"))
                #expect(pack == hex("12 34"), "command \(index)")
            }
            #expect(reader.type2Tag.failedAuthenticationCount == 0)
            let final = try #require(stored(reader.type2Tag).configuration)
            #expect(final.firstProtectedPage == 4)
            #expect(final.password == settings.password)
            #expect(final.authenticationLimit == 3)
        }
    }
}
