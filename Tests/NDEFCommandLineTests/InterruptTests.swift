import Foundation
import Testing

/// Ctrl-C (SIGINT) during a write to a tag (``InterruptGuard``): the run of writes completes, so
/// the tag holds the whole new message, then the process stops by the signal.
@Suite struct InterruptTests {
    @Test("SIGINT during the writes: the note, the writes complete, then the process stops with 130")
    func interruptDuringWrites() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("tag.nfc")
        let text = String(repeating: "w", count: 200)
        let first = try BinaryRunner.run([
            "write", "uri", "https://old.example", "--reader", "sim:ntag215?file=\(file)",
        ])
        #expect(first.status == 0, "\(first.error)")
        let executable = try #require(BinaryRunner.executable)
        let process = Process()
        process.executableURL = executable
        // 100 ms before each command: the 57 WRITEs of the 207-byte message take about 6 s.
        process.arguments = ["write", "text", text, "--reader", "sim:ntag215?file=\(file)&latency-ms=100"]
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGINT)
        let error = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGINT)
        #expect(error.contains("Interrupt received: finishing the writes in progress"), "\(error)")
        #expect(error.contains("Stopped after the writes in progress completed."), "\(error)")
        let read = try BinaryRunner.run(["read", "--reader", "sim:ntag215?file=\(file)", "--json"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.contains(text))
    }

    @Test("SIGINT while waiting for a tag stops at once")
    func interruptWhileWaiting() throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = try #require(BinaryRunner.executable)
        // A reader whose tag left before the command: it waits.
        process.arguments = [
            "write", "uri", "https://x.example", "--reader",
            "sim:ntag215?file=\(directory.path("tag.nfc"))&remove-after=0", "--wait", "30",
        ]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        // Ended by the signal, or exit status 130 (128 + SIGINT) where the wait handles it itself.
        let bySignal = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT
        #expect(bySignal || process.terminationStatus == 130)
    }
}
