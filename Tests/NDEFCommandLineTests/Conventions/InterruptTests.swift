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
        let executable = try #require(BinaryRunner.executable)
        // SIGINT from the simulated reader as its 12th command, a WRITE of the message, is
        // carried out: at the same point on any machine, however it schedules the process.
        let process = try ChildProcess(
            executable, ["write", "text", text, "--reader", "sim:ntag215?file=\(file)&signal-after=12&signal=INT"])
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
                "sim:ntag215?file=\(directory.path("tag.nfc"))&remove-after=0", "--wait", "600",
            ])
        #expect(await process.waitForOutput { _, error in error.contains("Using reader") })
        process.send(SIGINT)
        let result = await process.finish(timeout: .seconds(60))
        // Ended by the signal, or exit status 130 (128 + SIGINT) where the wait handles it itself.
        let bySignal = result.signalled && result.status == SIGINT
        #expect(bySignal || result.status == 130)
    }
}
