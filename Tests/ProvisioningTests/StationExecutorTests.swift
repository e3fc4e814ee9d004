import Foundation
import NFCSession
import Provisioning
import SimulatedReader
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// Stations run on task executors of their own: a job goes on while every thread of the
/// cooperative pool is busy. Holding every thread of the pool would stall the other tests of
/// this process: the test runs in a child process of its own (this test bundle again, with only
/// ``StationExecutorChild`` enabled).
@Suite(.timeLimit(.minutes(3))) struct StationExecutorTests {
    @Test("A job of 20 tags completes while every thread of the cooperative pool is held (child process)")
    func jobRunsBesideASaturatedPool() async throws {
        let executable = try #require(CommandLine.arguments.first)
        let child = try ChildProcess(
            path: executable, ["--testing-library", "swift-testing", "--filter", "StationExecutorChild"],
            environment: [StationExecutorChild.variable: "1"])
        let result = await child.finish(timeout: .seconds(150))
        let text = result.outputText + result.error
        #expect(result.shellStatus == 0, "the child test failed:\n\(text)")
        #expect(text.contains(StationExecutorChild.marker), "the child test did not run:\n\(text)")
    }
}

/// The part of ``StationExecutorTests`` that runs in the child process.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["NDEFTOOL_POOL_HOLD_CHILD"] == "1"), .timeLimit(.minutes(2)))
struct StationExecutorChild {
    static let variable = "NDEFTOOL_POOL_HOLD_CHILD"
    static let marker = "station executor checks ran"

    @Test func jobRunsBesideASaturatedPool() async throws {
        let job = try CounterJob(rows: 20)
        // Each tag comes 5 ms after the last left: the station pauses between polls, and its
        // pauses end without the pool.
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=20&seed=5&swap-ms=5")
        // The test itself runs off the pool, so it can start the job when the pool is full.
        let outcome = try await withTaskExecutorPreference(QueueTaskExecutor(label: "tests.executor")) {
            try await PoolHolders.whileHeld { try await job.run([station(reader, "r1")]) }
        }
        let (summary, _, _) = try #require(outcome.result, "the pool's threads were never all held")
        #expect(outcome.poolWasHeldThroughout, "the holders let go before the job ended: nothing was proved")
        #expect(summary.isComplete)
        #expect(summary.doneThisRun == 20)
        await reader.close()
        print(Self.marker)
    }
}

/// Tasks that keep every thread of the cooperative pool busy (as CPU-bound work beside a job
/// would) until released, at most 30 s.
enum PoolHolders {
    /// What `body` returned, and whether the pool was held from before it started until it ended.
    struct Outcome<Value> {
        var result: Value?
        var poolWasHeldThroughout: Bool
    }

    /// Runs `body` (on the caller's executor, which must not be the pool) while the pool's
    /// threads are held. Waits on a dispatch timer: `Task.sleep` would need the pool to wake.
    static func whileHeld<Value>(_ body: () async throws -> Value) async throws -> Outcome<Value> {
        // More holders than the pool has threads: those that start hold every thread.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let count = threads + 2
        let state = HoldState()
        let holders = (0..<count).map { _ in
            Task.detached {
                state.holding.add(1, ordering: .sequentiallyConsistent)
                let clock = ContinuousClock()
                // A safety stop for a test that fails: the job ends long before on any machine.
                let deadline = clock.now.advanced(by: .seconds(300))
                // Holds the thread: no suspension point until released.
                while !state.release.load(ordering: .sequentiallyConsistent) {
                    if clock.now > deadline {
                        state.gaveUp.store(true, ordering: .sequentiallyConsistent)
                        break
                    }
                }
                state.holding.add(-1, ordering: .sequentiallyConsistent)
            }
        }
        defer { state.release.store(true, ordering: .sequentiallyConsistent) }
        var waits = 0
        while state.holding.load(ordering: .sequentiallyConsistent) < threads, waits < 6000 {
            try await DispatchTimerClock().sleep(for: .milliseconds(10))
            waits += 1
        }
        guard state.holding.load(ordering: .sequentiallyConsistent) >= threads else {
            state.release.store(true, ordering: .sequentiallyConsistent)
            for holder in holders { await holder.value }
            return Outcome(result: nil, poolWasHeldThroughout: false)
        }
        let result = try await body()
        let heldThroughout =
            !state.gaveUp.load(ordering: .sequentiallyConsistent)
            && state.holding.load(ordering: .sequentiallyConsistent) >= threads
        state.release.store(true, ordering: .sequentiallyConsistent)
        for holder in holders { await holder.value }
        return Outcome(result: result, poolWasHeldThroughout: heldThroughout)
    }
}

/// What the holders and the test share.
private final class HoldState: Sendable {
    let holding = Atomic<Int>(0)
    let release = Atomic<Bool>(false)
    let gaveUp = Atomic<Bool>(false)
}
