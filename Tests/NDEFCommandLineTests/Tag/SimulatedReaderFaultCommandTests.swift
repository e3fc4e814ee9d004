import Foundation
import NDEF
import Provisioning
import TagMemory
import TestSupport
import Testing

/// The simulated reader faults batches are tested with, through the command line: a supply's
/// tags kept in `file=DIR/` survive a process killed with SIGKILL, and a reader unplugged
/// mid-command (`unplug-after`, `unplug-ms`) reconnects.
@Suite(.timeLimit(.minutes(5))) struct SimulatedReaderFaultCommandTests {
    /// The pages of the dump in `bytes`.
    static func pages(ofDump bytes: [UInt8]) throws -> [[UInt8]] {
        let dump = try TagDump(decoding: bytes)
        return (0..<dump.pageCount).map { dump.page($0).map(Array.init) ?? [] }
    }

    @Test("SIGKILL mid-write: the tag's file holds whole pages, old or new (T2T 1.1 6.4.3); the next process resumes")
    func killedProcess() async throws {
        let directory = try TemporaryDirectory("fault")
        let tags = try directory.directory("tags")
        let url = "sim:ntag215?supply=2&seed=3&file=\(tags)/"
        // The first UID of seed 3: 04h, then six bytes of SplitMix64 (SimulatedTagSupply.uids).
        let name = "04ED8F01DBE414.nfc"
        let file = tags + "/" + name
        let text = String(repeating: "k", count: 200)
        let executable = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        // SIGKILL from the simulated reader as its 12th command, a WRITE of the message, is
        // carried out and saved: at the same point on any machine.
        let process = try ChildProcess(executable, ["write", "text", text, "--reader", url + "&signal-after=12"])
        let factory: [UInt8] = [0, 0, 0, 0]
        let ending = await process.exit()
        #expect(ending.signalled)
        let killed = try Self.pages(ofDump: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))

        // A new process with the same URL finds the tag as left, and completes the write.
        let resumed = try await BinaryRunner.run(["write", "text", text, "--reader", url, "--resume"])
        #expect(resumed.status == 0, "\(resumed.error)")
        let read = try await BinaryRunner.run(["read", "--reader", url, "--json"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.contains(text))
        let final = try Self.pages(ofDump: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(killed.count == final.count)
        var changed = 0
        var missing = 0
        // Page 4 holds the TLV length, 0 until the last WRITE (Type2WriteOrder): it is left out.
        // A factory NTAG215 holds zeros from page 5 on.
        for page in 5..<min(killed.count, 4 + 56) {
            #expect(killed[page] == factory || killed[page] == final[page], "page \(page)")
            if killed[page] != factory { changed += 1 }
            if killed[page] != final[page] { missing += 1 }
        }
        #expect(changed > 0)
        #expect(missing > 0)
        // Only the tag that went in has a file (a kill during a save may leave a hidden temporary file).
        let names = try FileManager.default.contentsOfDirectory(atPath: tags).filter { !$0.hasPrefix(".") }
        #expect(names == [name])
    }

    @Test("A reader unplugged before the command reconnects: the events on stderr, then the read")
    func reconnects() async throws {
        let result = await runInProcess(["read", "--reader", "sim:ntag215?unplug-after=0&unplug-ms=150"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("Reader disconnected: reconnecting..."), "\(result.error)")
        #expect(result.error.contains("Reader back"), "\(result.error)")
        #expect(result.outputText.contains("empty"))
    }

    @Test(
        "A write broken by the unplug is half-written (80); the command to resume it, without the fault, completes it")
    func writeBrokenByUnplug() async throws {
        let directory = try TemporaryDirectory("fault")
        let file = directory.path("tag.nfc")
        let result = await runInProcess([
            "write", "uri", "https://example.com/abc", "--reader",
            "sim:ntag215?file=\(file)&unplug-after=6&unplug-ms=50",
        ])
        #expect(result.status == 80, "\(result.error)")
        #expect(result.error.contains("simulated reader unplugged"), "\(result.error)")
        #expect(result.error.contains("--reader 'sim:ntag215?file=\(file)' --resume"), "\(result.error)")
        let resumed = await runInProcess([
            "write", "uri", "https://example.com/abc", "--reader", "sim:ntag215?file=\(file)", "--resume",
        ])
        #expect(resumed.status == 0, "\(resumed.error)")
        let read = await runInProcess(["read", "--reader", "sim:ntag215?file=\(file)"])
        #expect(read.outputText.contains("https://example.com/abc"), "\(read.outputText)")
    }

    @Test("unplug-ms without unplug-after, and unplug-after for sim serve, are usage errors naming the option")
    func badOption() async throws {
        let result = await runInProcess(["read", "--reader", "sim:ntag215?unplug-ms=10"])
        #expect(result.status == 64)
        #expect(result.error.contains("unplug-after"), "\(result.error)")
        // The built binary: sim serve waits for signals, which a test process should not.
        let served = try await BinaryRunner.run(["sim", "serve", "sim:ntag215?unplug-after=3"])
        #expect(served.status == 64)
        #expect(served.error.contains("unplug-after"), "\(served.error)")
    }
}

extension SimulatedReaderFaultCommandTests {
    @Test("SimulatedReaders.md: signal-after=100 kills a batch at its 100th tag command; the resume completes it")
    func signalAfterExample() async throws {
        let job = try BatchFolder()
        let tags = try job.tagDirectory()
        let journal = job.path("job.journal")
        let cut = try await job.run([
            "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "20", "--journal", journal,
            "--reader", "sim:ntag215?supply=20&file=\(tags)&signal-after=100",
        ])
        #expect(cut.signalled && cut.status == SIGKILL, "\(cut.status): \(cut.error)")
        let state = try ProvisioningJournal.recover(journal)
        let doneAtCut = state.doneRows.count
        #expect(doneAtCut > 0 && doneAtCut < 20, "\(state.doneRows)")
        // The same cut again: the count, not the machine, decides where it lands.
        let again = try await job.run([
            "batch", "--resume", journal, "--reader", "sim:ntag215?supply=20&file=\(tags)&signal-after=100",
        ])
        #expect(again.signalled && again.status == SIGKILL)
        let resumed = try await job.run([
            "batch", "--resume", journal, "--reader", "sim:ntag215?supply=20&file=\(tags)",
        ])
        #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
        try BatchFiles.expectEveryRowDoneOnce(journal, rows: 20)
    }

    @Test("signal-after: refused by sim serve, checked as an option (N ≥ 1, a known signal, signal needs signal-after)")
    func signalAfterOptions() async throws {
        for (url, reason) in [
            ("sim:ntag215?signal-after=0", "signal-after=0"), ("sim:ntag215?signal=INT", "needs signal-after"),
            ("sim:ntag215?signal-after=3&signal=HUP", "expected one of KILL, INT, TERM, STOP"),
        ] {
            let result = try await BinaryRunner.run(["read", "--reader", url])
            #expect(result.status == 64, "\(url): \(result.status)")
            #expect(result.error.contains(reason), "\(url): \(result.error)")
        }
        let served = try await BinaryRunner.run(["sim", "serve", "--vpcd", "1", "sim:ntag215?signal-after=3"])
        #expect(served.status == 64)
        #expect(served.error.contains("signal-after cuts the process"), "\(served.error)")
    }
}
