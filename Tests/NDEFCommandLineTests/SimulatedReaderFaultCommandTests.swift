import Foundation
import NDEF
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
        // 50 ms before each command: the 57 WRITEs of the 207-byte message take about 3 s.
        let process = try ChildProcess(executable, ["write", "text", text, "--reader", url + "&latency-ms=50"])
        // The file appears with the first WRITE; as soon as a page of the message (page 5 on)
        // is in it, the process is killed (from a queue of its own: a busy test run must not
        // let the write end first).
        let factory: [UInt8] = [0, 0, 0, 0]
        let started: Void? = await watch(within: .seconds(60)) {
            guard process.isRunning else { return true }
            guard let bytes = FileManager.default.contents(atPath: file),
                let pages = try? Self.pages(ofDump: [UInt8](bytes))
            else { return false }
            return (5..<min(pages.count, 4 + 56)).contains { pages[$0] != factory }
        } then: {
            process.send(SIGKILL)
        }
        #expect(started != nil, "no page of the message was written within 60 s")
        process.send(SIGKILL)
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
