import NFCSession
import Provisioning
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// How long a station waits for a tag, on a step clock: the verdict "no tag came" follows a
/// poll made when the time was up, and a station that was not scheduled for longer than its
/// wait looks again before it gives up.
@Suite(.timeLimit(.minutes(2))) struct StationWaitTests {
    /// Settings with a 5 s tag wait on `clock`: a check every 200 ms, a poll every 100 ms.
    static func settings(_ clock: StepClock) -> ProvisioningJobSettings {
        ProvisioningJobSettings(
            tagWait: .seconds(5), checkInterval: .milliseconds(200),
            sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(100)), clock: clock)
    }

    /// The reason station `name` stopped, from the job's events.
    static func stopReason(_ events: [ProvisioningJobEvent], _ name: String) -> String? {
        events.lazy.compactMap { event -> String? in
            if case .stationState(name, .stopped(let reason)) = event { return reason }
            return nil
        }.first
    }

    @Test("No tag within 5 s: the station stops after 5 s of polls (50 pauses of 100 ms), not before")
    func noTagCame() async throws {
        let clock = StepClock()
        let job = try CounterJob(rows: 1)
        let reader = SimulatedReader(field: SimulatedField(tags: []))
        let (summary, events, _) = try await job.run(
            [ProvisioningStation(name: "r1", reader: reader)], settings: Self.settings(clock))
        #expect(summary.stopReason == "every reader stopped")
        #expect(Self.stopReason(events, "r1") == "no tag came within 5 s")
        // 25 slices of 200 ms, each two polls 100 ms apart and a last poll when it is up.
        #expect(clock.sleeps == 50)
        #expect(clock.now.offset == .seconds(5))
        await reader.close()
    }

    @Test("A station not scheduled for longer than its wait polls once more and takes the tag there")
    func stalledStationPollsFirst() async throws {
        let clock = StepClock()
        let job = try CounterJob(rows: 1)
        let reader = SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
        // The station's first look at the supply comes 10 s after it was ready to poll, as when
        // the machine was too busy to run it: the tag lying on the reader still gets its row.
        let stall = StallOnce(clock: clock, by: .seconds(10))
        let station = ProvisioningStation(name: "r1", reader: reader) {
            stall.happen()
            return false
        }
        let (summary, events, _) = try await job.run([station], settings: Self.settings(clock))
        #expect(summary.isComplete)
        #expect(summary.doneThisRun == 1)
        #expect(Self.stopReason(events, "r1") == "no row is left to write")
        await reader.close()
    }

    @Test("A tag left at the reader: the station stops after the wait, saying the tag stayed")
    func tagLeftAtTheReader() async throws {
        let clock = StepClock()
        let job = try CounterJob(rows: 2)
        let reader = SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
        let (summary, events, _) = try await job.run(
            [ProvisioningStation(name: "r1", reader: reader)], settings: Self.settings(clock))
        #expect(summary.doneThisRun == 1)
        #expect(summary.pendingRows == 1)
        #expect(Self.stopReason(events, "r1") == "the tag stayed at the reader and no other came within 5 s")
        #expect(clock.now.offset == .seconds(5))
        await reader.close()
    }
}

/// Moves a step clock on once, the first time it is asked to.
final class StallOnce: Sendable {
    private let clock: StepClock
    private let duration: Duration
    private let done = Mutex(false)

    init(clock: StepClock, by duration: Duration) {
        self.clock = clock
        self.duration = duration
    }

    func happen() {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { clock.advance(by: duration) }
    }
}
