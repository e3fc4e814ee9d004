import Foundation
import Synchronization
import TestSupport
import Testing

/// The shared test helpers do what the tests rely on.
@Suite(.timeLimit(.minutes(2))) struct TestSupportTests {
    @Test("hex reads separators and fails the test, not the run, on a typo")
    func hexLiterals() {
        #expect(hex("04 A1:b2-C3\n") == [0x04, 0xA1, 0xB2, 0xC3])
        #expect(hexText([0x04, 0xA1], separator: ":") == "04:A1")
        withKnownIssue("a bad literal is an issue of the test that wrote it") {
            #expect(hex("0G") == [])
        }
        withKnownIssue("an odd number of digits too") {
            #expect(hex("ABC") == [])
        }
    }

    @Test("ChildProcess: exit status, output, standard input, a signal (programs start with no signal blocked)")
    func childProcess() async throws {
        let echo = try ChildProcess(
            path: "/bin/sh", ["-c", "cat; echo err >&2; exit 3"], input: .bytes(Array("in".utf8)))
        let result = await echo.finish(timeout: .seconds(60))
        #expect(result.status == 3)
        #expect(!result.signalled)
        #expect(result.outputText == "in")
        #expect(result.error == "err\n")

        let sleeper = try ChildProcess(path: "/bin/sleep", ["600"])
        #expect(sleeper.isRunning)
        sleeper.send(SIGTERM)
        let exit = await sleeper.exit()
        #expect(exit.signalled)
        #expect(exit.shellStatus == 128 + SIGTERM)
        #expect(!sleeper.isRunning)
    }

    @Test("ChildProcess: a program still running after its time is killed, and the test told")
    func childProcessTimeout() async throws {
        let sleeper = try ChildProcess(path: "/bin/sleep", ["600"])
        #expect(await sleeper.exit(within: .milliseconds(50)) == false)
        await withKnownIssue("the time ran out") {
            let result = await sleeper.finish(timeout: .milliseconds(50))
            #expect(result.signalled && result.status == SIGKILL)
        }
    }

    @Test("eventually looks once more when the time is up")
    func eventuallyLooksLast() async {
        // No time at all: the one look happens all the same.
        let once = Mutex(0)
        let heldAtOnce = await eventually(within: .zero, every: .milliseconds(100)) {
            once.withLock { looks in
                looks += 1
                return true
            }
        }
        #expect(heldAtOnce && once.withLock { $0 } == 1)
        // False at the first look; the pause after it outlasts the time given: a second look,
        // after the time is up, sees the condition hold. (Should the first look itself come
        // after the time, as on a busy machine, it is the last: then it said false.)
        let looks = Mutex(0)
        let held = await eventually(within: .milliseconds(1), every: .milliseconds(100)) {
            looks.withLock { looks in
                looks += 1
                return looks >= 2
            }
        }
        let count = looks.withLock { $0 }
        #expect(count == 1 || count == 2)
        #expect(held == (count == 2))
        #expect(await eventually(within: .milliseconds(20)) { false } == false)
    }

    @Test("StepClock: sleeps take no time and move the clock on")
    func stepClock() async throws {
        let clock = StepClock()
        try await clock.sleep(for: .seconds(5))
        try await clock.sleep(for: .milliseconds(250))
        #expect(clock.now.offset == .milliseconds(5250))
        #expect(clock.sleeps == 2)
    }

    @Test("TemporaryDirectory removes itself")
    func temporaryDirectory() throws {
        var path = ""
        do {
            let folder = try TemporaryDirectory("self-test")
            path = try folder.file("a", text: "x")
            #expect(try folder.read("a") == Array("x".utf8))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("SeededRandom is SplitMix64: the published first value for seed 0")
    func seededRandom() {
        // SplitMix64 from state 0: first output E220A8397B1DCDAF (Vigna's reference splitmix64.c).
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    }
}
