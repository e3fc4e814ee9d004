import Foundation
import Provisioning
import Testing

/// `ndeftool batch` killed with SIGKILL at random points of a 200-row job, then resumed from
/// its journal until it completes: every row exactly once, on its own tag, and every tag
/// holding exactly its row's message (the journal is write-ahead: `writing` before the first
/// WRITE, `written` after the read-back; the simulated supply saves each tag after every
/// changing command, so a kill leaves the tags as a power cut leaves real ones).
@Suite(.serialized) struct BatchCrashTests {
    static let rows = 200
    static let template = "https://example.com/t/{counter}"

    /// The size of the file at `path`, 0 when it does not exist.
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Whether the last complete line of the journal at `path` is a `writing` event.
    static func endsWithWriting(_ path: String) -> Bool {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return false }
        let lines = data.split(separator: 0x0A)
        guard data.last == 0x0A, let last = lines.last else { return false }
        return String(decoding: last, as: UTF8.self).hasPrefix(#"{"event":"writing""#)
    }

    @Test("SIGKILL at 18 seeded points of a 200-row job, resumed each time: every row once, every tag its message")
    func killedAndResumed() throws {
        let job = try BatchFolder()
        let tags = try job.tagDirectory()
        let reader = "sim:ntag215?supply=\(Self.rows)&seed=11&file=\(tags)"
        let journal = job.path("crash.journal")
        let start = [
            "batch", "uri", Self.template, "--from", "1", "--to", String(Self.rows), "--journal", journal,
            "--reader", reader, "-q",
        ]
        let resume = ["batch", "--resume", journal, "--reader", reader, "-q"]
        var random = SeededRandom(state: 0x5EED_0001)
        var kills = 0
        var completedEarly = false
        // Rows the journal left bound to a tag, not done, after a kill: their tags must end up
        // holding their message.
        var interrupted: [Int: String] = [:]
        while kills < 18 {
            let before = Self.size(journal)
            let run = try job.start(before == 0 ? start : resume)
            // A journal line is 90 to 200 bytes; a tag takes about four.
            let target = before + Int.random(in: 400...7_000, using: &random)
            let deadline = Date().addingTimeInterval(30)
            while run.isRunning, Self.size(journal) < target, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.000_5)
            }
            // Every third kill waits for a `writing` line, to land between the first WRITE
            // and the read-back: the tag is then half-written.
            if kills % 3 == 2 {
                while run.isRunning, !Self.endsWithWriting(journal), Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.000_2)
                }
            }
            guard run.isRunning else {
                let result = try run.finish()
                #expect(result.status == 0, "\(result.error)")
                completedEarly = true
                break
            }
            run.send(SIGKILL)
            let killed = try run.finish()
            #expect(killed.signalled && killed.status == SIGKILL)
            kills += 1
            // The journal replays after every kill (a torn last line is left out).
            let state = try ProvisioningJournal.recover(journal)
            #expect(state.claimedRows.isEmpty)
            for row in state.unfinishedRows {
                interrupted[row] = state.status(of: row).uid.map(BatchFiles.hex)
            }
        }
        #expect(kills == 18 && !completedEarly, "the job ended after \(kills) kills")
        #expect(!interrupted.isEmpty, "no kill left a row bound to a tag and not written")

        // Resumed until it completes: the first resume must do it.
        let finished = try job.run(resume)
        #expect(finished.status == 0, "\(finished.output)\(finished.error)")

        let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: Self.rows)
        try BatchFiles.expectNoRowInProgress(journal)
        let state = try ProvisioningJournal.recover(journal)
        #expect(state.doneRows == Array(1...Self.rows))
        #expect(state.unfinishedRows.isEmpty)
        for (row, uid) in interrupted {
            #expect(byRow[row] == uid, "row \(row) was started on \(uid), done on \(byRow[row] ?? "none")")
        }

        // Each tag of the supply holds exactly its row's message.
        let files = try BatchFiles.tagFiles(in: tags)
        #expect(files.count == Self.rows)
        var rowOfTag: [String: Int] = [:]
        for (row, uid) in byRow { rowOfTag[uid] = row }
        for (uid, file) in files {
            let row = try #require(rowOfTag[uid], "tag \(uid) holds no row of the journal")
            let expected = try BatchFiles.uriMessage("https://example.com/t/\(row)")
            try BatchFiles.expectTag(file, holds: expected, "tag \(uid) (row \(row))")
        }

        // The report of the last run: 200 rows written, on the journal's tags.
        let report = try BatchFiles.reportRows(job.path("crash.report.csv"))
        #expect(report.count == Self.rows)
        for cells in report {
            let row = try #require(Int(cells[0]))
            #expect(cells[1] == byRow[row] && cells[2] == "written", "\(cells)")
        }

        // The binary reads three of the tags back.
        for row in [1, 100, 200] {
            let uid = try #require(byRow[row])
            let read = try job.run(["read", "--json", "--reader", "sim:ntag215?file=\(tags)\(uid).nfc"])
            #expect(read.status == 0, "\(read.error)")
            #expect(read.output.contains("\"uri\" : \"https://example.com/t/\(row)\""), "\(read.output)")
        }
    }

    @Test(
        "A journal left without its header (killed as it was created): --resume says so (65); the job starts again",
        arguments: [[], Array(#"{"event":"job","format":"ndeftool-provisioning-jo"#.utf8), [0, 0, 0, 0, 0x0A]])
    func journalTornAtCreation(content: [UInt8]) throws {
        let job = try BatchFolder()
        let tags = try job.tagDirectory()
        let journal = try job.folder.file("torn.journal", content)
        let reader = "sim:ntag215?supply=3&seed=13&file=\(tags)"
        let resumed = try job.run(["batch", "--resume", journal, "--reader", reader])
        #expect(resumed.status == 65)
        #expect(resumed.error.contains("has no complete header"), "\(resumed.error)")
        let started = try job.run([
            "batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", journal, "--reader", reader,
        ])
        #expect(started.status == 0, "\(started.output)\(started.error)")
        try BatchFiles.expectEveryRowDoneOnce(journal, rows: 3)
        #expect(try BatchFiles.events(journal).first?["event"] as? String == "job")
    }
}
