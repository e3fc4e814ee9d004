import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

/// `{uid-mirror}` and `{counter-mirror}` in batch templates (NTAG213/215/216 8.7): every tag
/// gets its row's message with the mirror set up, and a job that stopped after a mirrored write
/// finishes it, although the counter a reader sees went up meanwhile.
@Suite struct BatchMirrorTests {
    static let template = "https://x.example/t/{row}?m={uid-mirror}x{counter-mirror}"

    /// The URI `read` shows for the tag kept in `file`.
    static func readURI(_ job: BatchFolder, file: String) async throws -> String {
        let read = try await job.run(["read", "--reader", "sim:ntag215?file=\(file)", "--wait", "0"])
        #expect(read.status == 0, "\(read.error)")
        return MirrorCommandTests.uri(in: read.output)
    }

    @Test("Three tags from a supply: each reads as its row with its own UID, the counter up by one per read")
    func supply() async throws {
        let job = try BatchFolder()
        let tags = try job.tagDirectory()
        let run = try await job.run([
            "batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", "m.journal", "--reader",
            "sim:ntag215?supply=3&seed=5&file=\(tags)", "-q",
        ])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("m.journal"), rows: 3)
        for (row, uid) in byRow {
            let file = tags + uid + ".nfc"
            let first = try await Self.readURI(job, file: file)
            let second = try await Self.readURI(job, file: file)
            let prefix = "https://x.example/t/\(row)?m=\(uid.uppercased())x"
            #expect(first.hasPrefix(prefix) && second.hasPrefix(prefix), "row \(row): \(first)")
            let counters = [first, second].compactMap { Int($0.dropFirst(prefix.count), radix: 16) }
            #expect(counters.count == 2 && counters[1] == counters[0] + 1, "row \(row): \(first) then \(second)")
        }
    }

    @Test("Stopped after the mirrored write, before the lock: the resume finds the row's message and locks it")
    func resumeBeforeLock() async throws {
        let job = try BatchFolder()
        let tag = job.path("tag.nfc")
        let plan = ["batch", "uri", Self.template, "--from", "1", "--to", "1", "--journal", "one.journal", "--lock"]
        let dry = try await job.run(plan + ["--dry-run", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])
        let code = try #require(object["lockCode"] as? String)
        let reader = "sim:ntag215?file=\(tag)"
        let first = try await job.run(plan + ["--confirm", code, "--reader", reader, "--wait", "0.3"])
        #expect(first.status == 0, "\(first.output)\(first.error)")
        // The journal as a kill right after the write leaves it (the lock on the tag, not in the
        // journal): before locking, the resume checks that the tag holds the row's message, which
        // it reads through the mirror.
        let journal = job.path("one.journal")
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let kept = try #require(lines.lastIndex { $0.hasPrefix(#"{"event":"written""#) })
        lines.removeSubrange((kept + 1)...)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: journal))
        // Another tap: the counter the mirror shows goes up.
        _ = try await Self.readURI(job, file: tag)

        let resumed = try await job.run(
            ["batch", "--resume", "one.journal", "--confirm", code, "--reader", reader, "--wait", "0.3"])
        #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
        #expect(resumed.error.contains("done (written+locked)"), "\(resumed.error)")
        #expect(try BatchFiles.memory(ofTagFile: tag).ndefStatus.status == .readOnly)
    }

    @Test("A template with the mirrors apart is refused before any tag (64)")
    func refusedTemplate() async throws {
        let job = try BatchFolder()
        let run = try await job.run([
            "batch", "uri", "https://x/{row}?u={uid-mirror}&c={counter-mirror}", "--from", "1", "--to", "2",
            "--journal", "bad.journal", "--reader", "sim:ntag215",
        ])
        #expect(run.status == 64)
        #expect(run.error.contains("{uid-mirror}x{counter-mirror}"), "\(run.error)")
    }
}
