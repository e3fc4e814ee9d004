import Foundation
import TestSupport
import Testing

/// Ctrl-C (SIGINT) during a write to a tag (``InterruptGuard``): the run of writes completes, so
/// the tag holds the whole new message, then the process stops by the signal.
@Suite(.timeLimit(.minutes(5))) struct InterruptTests {
    @Test("SIGINT during the writes: the note, the writes complete, then the process stops with 130")
    func interruptDuringWrites() async throws {
        let directory = try TemporaryDirectory("interrupt")
        let file = directory.path("tag.nfc")
        let text = String(repeating: "w", count: 200)
        let first = try await BinaryRunner.run([
            "write", "uri", "https://old.example", "--reader", "sim:ntag215?file=\(file)",
        ])
        #expect(first.status == 0, "\(first.error)")
        let before = FileManager.default.contents(atPath: file)
        let executable = try #require(BinaryRunner.executable)
        // 100 ms before each command: the 57 WRITEs of the 207-byte message take about 6 s.
        let process = try ChildProcess(
            executable, ["write", "text", text, "--reader", "sim:ntag215?file=\(file)&latency-ms=100"])
        // The simulated tag is saved after every WRITE: SIGINT as soon as the file changes with
        // the first one (from a queue of its own: a busy test run must not let the writes end
        // first).
        let sent: Void? = await watch(within: .seconds(60)) {
            FileManager.default.contents(atPath: file) != before || !process.isRunning
        } then: {
            process.send(SIGINT)
        }
        #expect(sent != nil, "the tag file did not change within 60 s")
        let result = await process.finish(timeout: .seconds(60))
        #expect(result.signalled)
        #expect(result.status == SIGINT)
        #expect(result.error.contains("Interrupt received: finishing the writes in progress"), "\(result.error)")
        #expect(result.error.contains("Stopped after the writes in progress completed."), "\(result.error)")
        let read = try await BinaryRunner.run(["read", "--reader", "sim:ntag215?file=\(file)", "--json"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.contains(text))
    }

    @Test("SIGINT while waiting for a tag stops at once")
    func interruptWhileWaiting() async throws {
        let directory = try TemporaryDirectory("interrupt")
        let executable = try #require(BinaryRunner.executable)
        // A reader whose tag left before the command: it waits, once it says it uses the reader (-v).
        let process = try ChildProcess(
            executable,
            [
                "write", "-v", "uri", "https://x.example", "--reader",
                "sim:ntag215?file=\(directory.path("tag.nfc"))&remove-after=0", "--wait", "30",
            ])
        #expect(await process.waitForOutput { _, error in error.contains("Using reader") })
        process.send(SIGINT)
        let result = await process.finish(timeout: .seconds(60))
        // Ended by the signal, or exit status 130 (128 + SIGINT) where the wait handles it itself.
        let bySignal = result.signalled && result.status == SIGINT
        #expect(bySignal || result.status == 130)
    }
}
