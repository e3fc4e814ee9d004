import Foundation
import Provisioning
import Synchronization
import TagMemory
import TestSupport
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch` killed with SIGKILL at random points of a 200-row job, then resumed from
    /// its journal until it completes: every row exactly once, on its own tag, and every tag
    /// holding exactly its row's message (the journal is write-ahead: `writing` before the first
    /// WRITE, `written` after the read-back; the simulated supply saves each tag after every
    /// changing command, so a kill leaves the tags as a power cut leaves real ones).
    @Suite struct BatchCrashTests {
        static let rows = 200
        static let template = "https://example.com/t/{counter}"

        /// The size of the file at `path`, 0 when it does not exist.
        static func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }

        /// Runs the job (`start`, then `resume` once the journal exists) and kills it `count`
        /// times, each after a seeded random number of tag commands (`commands`): the simulated
        /// reader `reader` sends the process SIGKILL once that command is carried out and the tag
        /// saved (`signal-after`), as a power cut would, so each kill lands at the same point
        /// on every machine. Checks after each kill that the journal replays with no row left
        /// claimed. Returns the kills done (fewer when the job completed first) and the rows left
        /// bound to a tag and not done, with the tag's UID.
        static func kill(
            _ job: BatchFolder, journal: String, start: [String], resume: [String], reader: String, count: Int,
            seed: UInt64, commands: ClosedRange<Int>, environment: [String: String] = [:]
        ) async throws -> (kills: Int, interrupted: [Int: String]) {
            var random = SeededRandom(seed: seed)
            var interrupted: [Int: String] = [:]
            for kill in 0..<count {
                let arguments = FileManager.default.fileExists(atPath: journal) ? resume : start
                let cut = reader + "&signal-after=\(Int.random(in: commands, using: &random))"
                let killed = try await job.run(arguments + ["--reader", cut], environment: environment)
                guard killed.signalled else {
                    // The job completed before the kill.
                    #expect(killed.status == 0, "\(killed.error)")
                    return (kill, interrupted)
                }
                #expect(killed.status == SIGKILL)
                // The journal replays after every kill (a torn last line is left out).
                let state = try ProvisioningJournal.recover(journal)
                #expect(state.claimedRows.isEmpty)
                for row in state.unfinishedRows {
                    interrupted[row] = state.status(of: row).uid.map { hexText($0) }
                }
            }
            return (count, interrupted)
        }

        @Test("SIGKILL at 18 seeded points of a 200-row job, resumed each time: every row once, every tag its message")
        func killedAndResumed() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let reader = "sim:ntag215?supply=\(Self.rows)&seed=11&file=\(tags)"
            let journal = job.path("crash.journal")
            let start = [
                "batch", "uri", Self.template, "--from", "1", "--to", String(Self.rows), "--journal", journal, "-q",
            ]
            let resume = ["batch", "--resume", journal, "-q"]
            // A tag takes about 11 commands: a kill lands within 0 to 12 tags of the last, mostly
            // between a row's first WRITE and its read-back, where the tag is half-written. Rows
            // left bound to a tag must end up done on that tag.
            let (kills, interrupted) = try await Self.kill(
                job, journal: journal, start: start, resume: resume, reader: reader, count: 18, seed: 0x5EED_0001,
                commands: 1...130)
            #expect(kills == 18, "the job ended after \(kills) kills")
            #expect(!interrupted.isEmpty, "no kill left a row bound to a tag and not written")

            // Resumed until it completes: the first resume must do it.
            let finished = try await job.run(resume + ["--reader", reader])
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
                let read = try await job.run(["read", "--json", "--reader", "sim:ntag215?file=\(tags)\(uid).nfc"])
                #expect(read.status == 0, "\(read.error)")
                #expect(read.output.contains("\"uri\" : \"https://example.com/t/\(row)\""), "\(read.output)")
            }
        }

        @Test("SIGKILL during writes, locks and password steps of a 30-row job: every tag locked with its own password")
        func killedDuringLockAndPassword() async throws {
            let rows = 30
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let secret = "crash secret: 0123456789abcdef"
            let reader = "sim:ntag215?supply=\(rows)&seed=17&file=\(tags)"
            let journal = job.path("locks.journal")
            let plan = [
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", journal, "--lock",
                "--derive-passwords",
            ]
            let environment = ["NDEFTOOL_MASTER_SECRET": secret]
            let dry = try await job.run(plan + ["--dry-run", "--json"], environment: environment)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])
            let code = try #require(object["lockCode"] as? String)
            let start = plan + ["--confirm", code, "-q"]
            let resume = ["batch", "--resume", journal, "--confirm", code, "-q"]
            // A tag takes about 28 commands here, most of them in its lock and password steps: kills
            // land there, where the lock or the password may be on the tag before the journal
            // says so.
            let (kills, interrupted) = try await Self.kill(
                job, journal: journal, start: start, resume: resume, reader: reader, count: 8, seed: 0x10C4_0001,
                commands: 1...60, environment: environment)
            #expect(kills == 8, "the job ended after \(kills) kills")
            let finished = try await job.run(resume + ["--reader", reader], environment: environment)
            #expect(finished.status == 0, "\(finished.output)\(finished.error)")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
            try BatchFiles.expectNoRowInProgress(journal)
            for (row, uid) in interrupted {
                #expect(byRow[row] == uid, "row \(row) was started on \(uid), done on \(byRow[row] ?? "none")")
            }
            let outcomes = try BatchFiles.events(journal).compactMap { $0["outcome"] as? String }
            #expect(outcomes == Array(repeating: "written+locked+password", count: rows))
            let derivation = try TagPasswordDerivation(masterSecret: Array(secret.utf8))
            for (row, uid) in byRow {
                let file = tags + uid + ".nfc"
                try BatchFiles.expectTag(
                    file, holds: try BatchFiles.uriMessage("https://example.com/t/\(row)"), "row \(row)")
                #expect(
                    try BatchFiles.memory(ofTagFile: file).ndefStatus.status == .readOnly, "row \(row) is not locked")
                #expect(
                    try BatchFiles.dump(ofTagFile: file).password == (try derivation.derive(uid: hex(uid))).password,
                    "row \(row): not its derived password")
            }
        }

        @Test(
            "Killed after the tag was locked and given its password, before the journal said so: the resume finishes it",
            arguments: ["written", "locked"])
        func stepOnTagNotInJournal(lastKept: String) async throws {
            let job = try BatchFolder()
            let tag = job.path("tag.nfc")
            let secret = "step secret: 0123456789abcdef"
            let environment = ["NDEFTOOL_MASTER_SECRET": secret]
            let plan = [
                "batch", "uri", Self.template, "--from", "1", "--to", "1", "--journal", "one.journal", "--lock",
                "--derive-passwords",
            ]
            let dry = try await job.run(plan + ["--dry-run", "--json"], environment: environment)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])
            let code = try #require(object["lockCode"] as? String)
            let reader = "sim:ntag215?file=\(tag)"
            let first = try await job.run(
                plan + ["--confirm", code, "--reader", reader, "--wait", "0.3"], environment: environment)
            #expect(first.status == 0, "\(first.output)\(first.error)")
            // The journal as a kill right after the tag's last steps leaves it: the steps after
            // `lastKept` (the lock, the password) are on the tag and not in the journal.
            let journal = job.path("one.journal")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            var lines = text.split(separator: "\n").map(String.init)
            let kept = try #require(lines.lastIndex { $0.hasPrefix(#"{"event":"\#(lastKept)""#) })
            lines.removeSubrange((kept + 1)...)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: journal))
            let uid = try #require(try ProvisioningJournal.recover(journal).status(of: 1).uid)
            let derived = try TagPasswordDerivation(masterSecret: Array(secret.utf8)).derive(uid: uid)
            #expect(try BatchFiles.dump(ofTagFile: tag).password == derived.password)

            let resumed = try await job.run(
                ["batch", "--resume", "one.journal", "--confirm", code, "--reader", reader, "--wait", "0.3"],
                environment: environment)
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(resumed.error.contains("Row 1: tag \(hexText(uid)) done (written+locked+password)"))
            let events = try BatchFiles.events(journal).compactMap { $0["event"] as? String }
            let expected = ["resumed", "claimed"] + (lastKept == "written" ? ["locked"] : []) + ["password", "done"]
            #expect(Array(events.suffix(expected.count)) == expected, "\(events)")
            try BatchFiles.expectTag(tag, holds: try BatchFiles.uriMessage("https://example.com/t/1"), "the tag")
            #expect(try BatchFiles.memory(ofTagFile: tag).ndefStatus.status == .readOnly)
            #expect(try BatchFiles.dump(ofTagFile: tag).password == derived.password)
        }

        @Test(
            "A journal left without its header (killed as it was created): --resume says so (65); the job starts again",
            arguments: [[], Array(#"{"event":"job","format":"ndeftool-provisioning-jo"#.utf8), [0, 0, 0, 0, 0x0A]])
        func journalTornAtCreation(content: [UInt8]) async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let journal = try job.folder.file("torn.journal", content)
            let reader = "sim:ntag215?supply=3&seed=13&file=\(tags)"
            let resumed = try await job.run(["batch", "--resume", journal, "--reader", reader])
            #expect(resumed.status == 65)
            #expect(resumed.error.contains("has no complete header"), "\(resumed.error)")
            let started = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", journal, "--reader", reader,
            ])
            #expect(started.status == 0, "\(started.output)\(started.error)")
            try BatchFiles.expectEveryRowDoneOnce(journal, rows: 3)
            #expect(try BatchFiles.events(journal).first?["event"] as? String == "job")
        }

        @Test(
            "A row cut in its password step is not finished on another tag with its UID that lacks its message (a clone)"
        )
        func passwordStepNeedsTheRowsMessage() async throws {
            let job = try BatchFolder()
            let secret = try job.file("secret.bin", "0123456789abcdef0123")
            let start = [
                "batch", "uri", Self.template, "--from", "1", "--to", "1", "--journal", "clone.journal",
                "--derive-passwords", "--master-secret-file", secret, "-q", "--wait", "0.3",
            ]
            let resume = ["batch", "--resume", "clone.journal", "--master-secret-file", secret, "-q", "--wait", "0.3"]
            // The first kill after the row's `written` event: the password step is next.
            var cut = 1
            var original = ""
            while cut < 60 {
                try? FileManager.default.removeItem(atPath: job.path("clone.journal"))
                try? FileManager.default.removeItem(atPath: job.path("original"))
                original = try job.tagDirectory("original")
                let killed = try await job.run(
                    start + ["--reader", "sim:ntag215?supply=1&seed=7&file=\(original)&signal-after=\(cut)"])
                #expect(killed.signalled, "the job ended before the kill at \(cut)")
                let state = try ProvisioningJournal.recover(job.path("clone.journal"))
                if state.status(of: 1).steps.contains(.written) { break }
                cut += 1
            }
            let uid = try #require(try BatchFiles.tagFiles(in: original).keys.first)
            // Another tag with the same UID (seed 7 again), blank: the row is not finished on it.
            let clones = try job.tagDirectory("clones")
            let onClone = try await job.run(
                resume.filter { $0 != "-q" } + ["--reader", "sim:ntag215?supply=1&seed=7&file=\(clones)"])
            #expect(onClone.status == 80, "cut \(cut): \(onClone.error)")
            #expect(
                (onClone.output + onClone.error).contains("no longer holds row 1's message"),
                "\(onClone.output)\(onClone.error)")
            let clone = try #require(try BatchFiles.tagFiles(in: clones)[uid])
            let cloneMemory = try BatchFiles.memory(ofTagFile: clone)
            // PWD, page 85h of an NTAG215: still the factory's.
            #expect(cloneMemory.page(0x85) == [0xFF, 0xFF, 0xFF, 0xFF], "the clone got a password")
            #expect(try ProvisioningJournal.recover(job.path("clone.journal")).doneRows.isEmpty)
            // The tag it was started on finishes it.
            let finished = try await job.run(resume + ["--reader", "sim:ntag215?supply=1&seed=7&file=\(original)"])
            #expect(finished.status == 0, "\(finished.error)")
            #expect(try ProvisioningJournal.recover(job.path("clone.journal")).doneRows == [1])
            let memory = try BatchFiles.memory(ofTagFile: original + uid + ".nfc")
            #expect(memory.page(0x85).map { $0.count == 4 && $0 != [0xFF, 0xFF, 0xFF, 0xFF] } == true)
        }
    }
}
