import Synchronization
import SystemSupport
import TestSupport
import Testing

@testable import SimulatorBridges

/// The serving thread's life as one state machine: each request in each phase, then a real
/// thread started, woken and stopped.
@Suite struct BridgeLifecycleTests {
    typealias Phase = BridgeLifecycle.Phase

    @Test("Start: only a bridge never started spawns a thread", arguments: [Phase.running, .stopRequested, .stopped])
    func startRefused(from phase: Phase) {
        var state = phase
        #expect(state.start() == .refuse)
        #expect(state == phase)
    }

    @Test("Start, stop, joined: running until the thread has ended; a second stop does nothing")
    func wholeLife() {
        var phase = Phase.notStarted
        #expect(!phase.isRunning && !phase.keepsServing)
        #expect(phase.start() == .spawn)
        #expect(phase == .running && phase.isRunning && phase.keepsServing)
        #expect(phase.stop() == .wakeAndJoin)
        #expect(phase == .stopRequested && phase.isRunning && !phase.keepsServing)
        #expect(phase.stop() == .nothing)
        phase.joined()
        #expect(phase == .stopped && !phase.isRunning)
        #expect(phase.stop() == .nothing)
        #expect(phase.start() == .refuse)
    }

    @Test("A stop before any start cleans up once and the bridge never starts")
    func stopBeforeStart() {
        var phase = Phase.notStarted
        #expect(phase.stop() == .cleanUp)
        #expect(phase == .stopped)
        #expect(phase.stop() == .nothing)
        #expect(phase.start() == .refuse)
    }

    @Test("A start whose thread cannot be made leaves a bridge that never runs")
    func spawnFailed() {
        var phase = Phase.notStarted
        #expect(phase.start() == .spawn)
        phase.spawnFailed()
        #expect(phase == .stopped && !phase.isRunning)
        #expect(phase.start() == .refuse)
    }

    @Test("A real thread: it serves until the stop, which wakes it from a wait without limit and joins it")
    func thread() async throws {
        let lifecycle = try BridgeLifecycle()
        let rounds = Mutex(0)
        try lifecycle.start("the test bridge") {
            while !lifecycle.stopRequested {
                rounds.withLock { $0 += 1 }
                lifecycle.pause(milliseconds: -1)
            }
        }
        #expect(lifecycle.phase == .running)
        #expect(throws: SimulatorBridgeError.self) { try lifecycle.start("the test bridge") {} }
        // The thread has served once and waits without limit: only a wake-up ends the wait.
        #expect(await eventually { rounds.withLock { $0 } >= 1 })
        lifecycle.wakeup.signal()
        #expect(await eventually { rounds.withLock { $0 } >= 2 })
        let first = await BlockingCall.run { lifecycle.stop() }
        #expect(first)
        #expect(lifecycle.phase == .stopped)
        let served = rounds.withLock { $0 }
        #expect(served >= 2)
        let second = await BlockingCall.run { lifecycle.stop() }
        #expect(!second)
        #expect(rounds.withLock { $0 } == served)
    }
}
