import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Tag reader session")
struct SessionTests {
    static let fast = NFCTagReaderSession.Options(pollInterval: .milliseconds(5), multipleTagPause: .milliseconds(5))

    @Test("An empty field until the timeout: timeout, after waitingForTag was reported once")
    func timeout() async throws {
        let reader = makeReader([])
        let recorder = EventRecorder()
        let session = NFCTagReaderSession(reader: reader, options: Self.fast, eventHandler: recorder.handler)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await caught { _ = try await session.nextTag(timeout: .milliseconds(50)) }?.code == .timeout)
        #expect(start.duration(to: clock.now) >= .milliseconds(50))  // a lower bound: never less, however busy
        #expect(recorder.all == [.began(readerName: reader.name), .waitingForTag])
    }

    @Test("Cancelling the task that waits for a tag: cancelled", .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let reader = makeReader([])
        let session = NFCTagReaderSession(reader: reader, options: Self.fast)
        let waiting = Task { await caught { _ = try await session.nextTag() } }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
    }

    @Test("A tag arriving while the session polls is handed out; events tell the story")
    func arrival() async throws {
        let reader = makeReader([])
        let recorder = EventRecorder()
        let session = NFCTagReaderSession(reader: reader, options: Self.fast, eventHandler: recorder.handler)
        // The session hands the tag out at the first poll after it went in: the timeout only
        // bounds a test that fails, however late this task gets to insert it. The tag goes in
        // once the session said it polled an empty field, so the events do not depend on timing.
        let waiting = Task { try await session.nextTag(timeout: .seconds(60)) }
        #expect(await eventually { recorder.all.contains(.waitingForTag) })
        reader.insert(SimulatedType2Tag(chip: .ntag216))
        let tag = try await waiting.value
        #expect(tag.identifier == SimulatedType2Tag.defaultUID)
        reader.remove(uid: SimulatedType2Tag.defaultUID)
        try await session.waitForRemoval(of: tag, timeout: .seconds(1))
        let target = tag.targetInfo
        #expect(
            recorder.all == [
                .began(readerName: reader.name), .waitingForTag, .tagDetected(target, chip: "NTAG216"),
                .tagRemoved(target),
            ])
        #expect(tag.targetInfo.uidDescription == "04:51:7C:A2:4B:35:80")
    }

    @Test("invalidateAfterFirstRead hands out one tag; invalidate() makes the tags unusable and ends the events")
    func invalidation() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)])
        let session = NFCTagReaderSession(reader: reader, options: .init(invalidateAfterFirstRead: true))
        guard let tag = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else {
            Issue.record("no tag")
            return
        }
        #expect(await caught { _ = try await session.nextTag(timeout: .seconds(1)) }?.code == .cancelled)
        #expect(try await tag.ndefStatus().status == .readWrite)
        await session.invalidate()
        #expect(session.isInvalidated)
        reader.clearLog()
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .cancelled)
        #expect(reader.log.isEmpty)
        var events: [NFCSessionEvent] = []
        for await event in session.events { events.append(event) }
        #expect(events.last == .invalidated)
    }

    @Test("Operations on one tag run one after the other, even when called at once")
    func serialOperations() async throws {
        let reader = makeReader([tagHolding(uriMessage(length: 100), chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        async let first = tag.readNDEF()
        async let second = tag.writeNDEF(uriMessage(length: 90, seed: 4))
        async let third = tag.readNDEF()
        let results = try await (first, second, third)
        #expect(results.0.records.count == 1)
        #expect(results.2.records.count == 1)
        // Commands never interleave: the write's WRITEs are contiguous, and the reads are one
        // FAST_READ each (pages 0-31) before or after the write's five reads.
        let kinds = reader.log.map(\.kind)
        let writes = kinds.indices.filter { kinds[$0] == .write }
        #expect(writes.count >= 23)
        #expect(writes.last.map { $0 - writes[0] + 1 } == writes.count)
        #expect(kinds.count == writes.count + 3 + 2)
        #expect(stored(reader.type2Tag).message == uriMessage(length: 90, seed: 4))
    }
}
