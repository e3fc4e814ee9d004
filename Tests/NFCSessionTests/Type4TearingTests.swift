import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// A Type 4 write interrupted at every APDU.
struct Type4TearingCase: Sendable, CustomTestStringConvertible {
    /// The mapping version byte, 20h or 30h.
    var version: UInt8
    var oldLength: Int?
    var newLength: Int

    var old: NFCNDEFMessage? { oldLength.map { uriMessage(length: $0, seed: 11) } }
    var new: NFCNDEFMessage { uriMessage(length: newLength, seed: 5) }

    var testDescription: String {
        "version \(version >> 4).0: \(oldLength.map { "\($0)-byte message" } ?? "empty") → \(newLength) bytes"
    }
}

/// The tag leaves the field at every APDU of an NDEF write or a lock, with every in-flight outcome
/// (``TagSimulator/SimulatedField/InFlightOutcome``: an UPDATE BINARY torn writes the first half of
/// its data bytes).
///
/// MLc is 20 bytes, so each write takes several UPDATE BINARYs and never a single one for length
/// and message together. The write order (NLEN 0, the message, NLEN last; T4T 3.0 5.5.7) relies on
/// the tag committing the length update whole, as TagMemory's plan documents; the simulator's tear
/// of a 2-byte NLEN writes its high byte only, which is harmless while messages stay under 256
/// bytes (the high byte is 00), and ENLEN's two high bytes are 00 below 64 KiB: the cases keep to
/// those sizes.
@Suite("Tearing: a Type 4 tag leaves the field at every APDU")
struct Type4TearingTests {
    static let mlc = 20

    static let writeCases: [Type4TearingCase] = [
        Type4TearingCase(version: 0x20, oldLength: nil, newLength: 100),
        Type4TearingCase(version: 0x20, oldLength: 70, newLength: 120),
        Type4TearingCase(version: 0x20, oldLength: 200, newLength: 30),
        Type4TearingCase(version: 0x20, oldLength: 100, newLength: 250),
        Type4TearingCase(version: 0x30, oldLength: nil, newLength: 100),
        Type4TearingCase(version: 0x30, oldLength: 60, newLength: 200),
        Type4TearingCase(version: 0x30, oldLength: 200, newLength: 40),
    ]

    /// A reader over a Type 4 tag of `testCase`'s version holding its old message.
    func reader(_ testCase: Type4TearingCase) throws -> SimulatedReader {
        makeType4Reader(try type4Tag(size: 300, message: testCase.old, version: testCase.version, mlc: Self.mlc))
    }

    /// What the NDEF file holds: "old", "empty", "new", or nil for anything else.
    func state(_ tag: SimulatedType4Tag?, _ testCase: Type4TearingCase) -> String? {
        guard let tag else { return nil }
        guard let bytes = tag.storedMessageBytes else { return "empty" }
        if bytes == encoded(testCase.new) { return "new" }
        if let old = testCase.old, bytes == encoded(old) { return "old" }
        return nil
    }

    /// At every APDU of a write, whatever the tag did with the APDU in flight, the NDEF file holds
    /// the old, an empty or the new message; the error is tagConnectionLost, half-written once an
    /// UPDATE BINARY was sent (and the file unchanged before); resumeWrite on the same tag object,
    /// once the tag is back, completes with no more UPDATE BINARYs than the clean run, and none
    /// when the new message is already complete.
    @Test(
        "T4T 3.0 5.5.7: a write torn at any APDU leaves old, empty or new; resume completes",
        arguments: writeCases, SimulatedField.InFlightOutcome.allCases)
    func ndefWrite(testCase: Type4TearingCase, outcome: SimulatedField.InFlightOutcome) async throws {
        let clean = try reader(testCase)
        let (_, cleanTag) = try await openType4Tag(clean)
        try await cleanTag.writeNDEF(testCase.new)
        let total = clean.log.count
        let firstUpdate = clean.log.firstIndex { $0.command == .type4(.updateBinary) } ?? total
        let updates = clean.updateCount
        #expect(updates >= 4, "MLc \(Self.mlc) takes several UPDATE BINARYs")
        let originalFile = try type4Tag(size: 300, message: testCase.old, version: testCase.version, mlc: Self.mlc)
            .ndefFile

        for index in 0..<total {
            let reader = try reader(testCase)
            let (_, tag) = try await openType4Tag(reader)
            reader.arm(.init(removeAfterCommands: index + 1, inFlight: outcome))
            let error = await caught { try await tag.writeNDEF(testCase.new) }
            #expect(error?.code == .tagConnectionLost, "APDU \(index)")
            #expect(error?.mayBeHalfWritten == (index >= firstUpdate), "APDU \(index)")
            let found = state(reader.type4Tag, testCase)
            #expect(found != nil, "APDU \(index) \(outcome): neither old, empty nor new")
            if index < firstUpdate { #expect(reader.type4Tag?.ndefFile == originalFile, "APDU \(index)") }

            reader.putBack()
            reader.clearLog()
            try await tag.resumeWrite(testCase.new)
            #expect(reader.type4Tag?.storedMessageBytes == encoded(testCase.new), "APDU \(index)")
            #expect(reader.updateCount <= updates, "APDU \(index)")
            if found == "new" { #expect(reader.updateCount == 0, "APDU \(index)") }
        }
    }

    /// At every APDU of a lock (`sim:type4?cc-writable=1`, versions 2.0 and 3.0), the message is
    /// intact and the CC file is the old one or the old one with write access FF; the status says
    /// which; locking again (with the same confirmation while the tag is unchanged) completes.
    @Test(
        "T4T 3.0 5.5.8: a lock torn at any APDU leaves writable or read-only; locking again completes",
        arguments: ["sim:type4?cc-writable=1&mlc=20", "sim:type4?cc-writable=1&mlc=20&version=3"],
        SimulatedField.InFlightOutcome.allCases)
    func lock(url: String, outcome: SimulatedField.InFlightOutcome) async throws {
        let message = uriMessage(length: 60)
        /// A reader over a tag holding `message`, and the session's tag, with the log cleared.
        func prepared() async throws -> (SimulatedReader, NFCTagReaderSession, NFCISO7816Tag) {
            let reader = try await openReader(url)
            let (session, tag) = try await openType4Tag(reader)
            try await tag.writeNDEF(message)
            reader.clearLog()
            return (reader, session, tag)
        }
        let (clean, _, cleanTag) = try await prepared()
        let originalCC = try #require(clean.type4Tag?.capabilityContainerFile)
        let confirmation = try await cleanTag.prepareLock()
        clean.clearLog()
        try await cleanTag.writeLock(confirmation)
        let total = clean.log.count
        let update = try #require(clean.log.firstIndex { $0.command == .type4(.updateBinary) })
        let offset = try #require(confirmation.plan.steps.first?.address)
        var lockedCC = originalCC
        lockedCC[offset] = 0xFF
        #expect(clean.type4Tag?.capabilityContainerFile == lockedCC)

        for index in 0..<total {
            let (reader, session, tag) = try await prepared()
            reader.arm(.init(removeAfterCommands: index + 1, inFlight: outcome))
            let error = await caught { try await tag.writeLock(confirmation) }
            #expect(error?.code == .tagConnectionLost, "APDU \(index)")
            #expect(error?.mayBeHalfWritten == (index >= update), "APDU \(index)")
            let after = try #require(reader.type4Tag)
            #expect(after.storedMessageBytes == encoded(message), "APDU \(index)")
            let isLocked = after.capabilityContainerFile == lockedCC
            #expect(isLocked || after.capabilityContainerFile == originalCC, "APDU \(index)")
            // The lock lands exactly when its UPDATE BINARY was carried out: sent before the tag
            // left, or in flight and completed (a 1-byte update torn writes nothing).
            #expect(isLocked == (index > update || index == update && outcome == .completes), "APDU \(index)")

            reader.putBack()
            guard let again = try await session.nextTag(timeout: .seconds(1)) as? NFCISO7816Tag else {
                Issue.record("no tag")
                return
            }
            #expect(try await again.ndefStatus().status == (isLocked ? .readOnly : .readWrite), "APDU \(index)")
            if isLocked {
                #expect(await caught { _ = try await again.prepareLock() }?.code == .tagNotWritable)
            } else {
                try await again.writeLock(confirmation)
            }
            #expect(reader.type4Tag?.capabilityContainerFile == lockedCC, "APDU \(index)")
            #expect(try await again.readNDEF() == message)
        }
    }
}
