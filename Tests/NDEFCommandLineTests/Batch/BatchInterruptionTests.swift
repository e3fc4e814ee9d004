import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch` stopped part way: a tag taken away mid-write (80, then finished when it
    /// comes back), Ctrl-C (130 after the tag in progress), and a second run of a job whose
    /// journal is in use (75).
    @Suite struct BatchInterruptionTests {
        static let template = "https://example.com/t/{counter}"

        @Test("A tag taken away mid-write (torn page): 80, the row waits for its tag; resumed on it: 0 and its message")
        func tagRemovedMidWrite() async throws {
            let job = try BatchFolder()
            let tag = job.path("tag.nfc")
            // A 1-row job: identification and the capability container take the first commands,
            // then 7 WRITEs; the tag leaves during the 8th command, tearing the page it writes.
            let first = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "1", "--journal", "one.journal", "--reader",
                "sim:ntag215?file=\(tag)&remove-after=8&in-flight=tear", "--wait", "0.3",
            ])
            #expect(first.status == 80, "\(first.output)\(first.error)")
            #expect(first.output.contains("Done: 0 of 1 rows"), "\(first.output)")
            #expect(first.output.contains("rows 1 wait for the tag they were started on"), "\(first.output)")
            // The resume names the tag file without the fault.
            #expect(
                first.output.contains(
                    "Continue with: ndeftool batch --resume one.journal --reader 'sim:ntag215?file=\(tag)' --wait 0.3"),
                "\(first.output)")
            #expect(
                first.error.contains("Bring this tag back to any reader of the job to finish row 1"), "\(first.error)")
            let journal = job.path("one.journal")
            let state = try ProvisioningJournal.recover(journal)
            #expect(state.unfinishedRows == [1])
            let uid = try #require(state.status(of: 1).uid.map { hexText($0) })
            #expect(FileManager.default.fileExists(atPath: tag))
            let torn = try BatchFiles.memory(ofTagFile: tag)
            let message = try BatchFiles.uriMessage("https://example.com/t/1")
            #expect(torn.ndefMessageBytes != message)
            let failed = try BatchFiles.reportRows(job.path("one.report.csv"))
            #expect(failed.count == 1 && failed[0][1] == uid && failed[0][2] == "failed", "\(failed)")

            let resumed = try await job.run([
                "batch", "--resume", journal, "--reader", "sim:ntag215?file=\(tag)", "--wait", "0.3",
            ])
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(resumed.error.contains("Row 1: tag \(uid) done (written)"), "\(resumed.error)")
            try BatchFiles.expectEveryRowDoneOnce(journal, rows: 1)
            try BatchFiles.expectTag(tag, holds: try BatchFiles.uriMessage("https://example.com/t/1"), "the tag")
            // The report says done, without the reason of the interrupted attempt.
            let report = try BatchFiles.reportRows(job.path("one.report.csv"))
            #expect(report.count == 1 && report[0][1] == uid && report[0][2] == "written" && report[0][4].isEmpty)
            let read = try await job.run(["read", "--json", "--reader", "sim:ntag215?file=\(tag)"])
            #expect(read.output.contains("\"uri\" : \"https://example.com/t/1\""), "\(read.output)")
        }

        @Test(
            "SIGINT 130, SIGTERM 143: after the tag in progress, no row left claimed; --resume completes the job once",
            arguments: [("INT", Int32(130)), ("TERM", Int32(143))])
        func interrupted(signal: String, status: Int32) async throws {
            let rows = 40
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let reader = "sim:ntag215?supply=\(rows)&seed=4&file=\(tags)"
            let journal = job.path("job.journal")
            // SIGINT from the simulated reader at its 90th command, in the sixth row or so: at the
            // same point on any machine, however it schedules the process.
            let run = try job.start([
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", journal, "--reader",
                reader + "&signal-after=90&signal=\(signal)",
            ])
            let result = await run.finish()
            #expect(!result.signalled && result.status == status, "\(result.output)\(result.error)")
            #expect(
                result.output.contains("Stopped: interrupted: the tags in progress were finished."), "\(result.output)")
            // After the tag in hand, or at once when the station was waiting for the next tag.
            #expect(result.error.contains("r1: stopped: stopped"), "\(result.error)")
            let done = try BatchFiles.doneEvents(journal).count
            #expect(done >= 5 && done < rows)
            try BatchFiles.expectNoRowInProgress(journal)
            let state = try ProvisioningJournal.recover(journal)
            #expect(state.unfinishedRows.isEmpty && state.claimedRows.isEmpty)
            #expect(state.doneRows == Array(1...done))

            let resumed = try await job.run(["batch", "--resume", journal, "--reader", reader, "-q"])
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(resumed.output.contains("(\(rows - done) in this run"), "\(resumed.output)")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
            for (row, uid) in byRow {
                let file = tags + uid + ".nfc"
                try BatchFiles.expectTag(
                    file, holds: try BatchFiles.uriMessage("https://example.com/t/\(row)"), "row \(row)")
            }
        }

        @Test("A second signal ends the run at once, as kill does; the journal recovers and --resume completes the job")
        func secondSignal() async throws {
            let rows = 20
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let reader = "sim:ntag215?supply=\(rows)&seed=7&file=\(tags)"
            let journal = job.path("job.journal")
            // Halted at its 60th command (SIGSTOP from the simulated reader), the run gets SIGINT
            // and SIGTERM, both pending until SIGCONT: the one delivered first asks for a clean
            // stop, the other ends the process (by its signal) before it gets there.
            let run = try job.start([
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", journal, "--reader",
                reader + "&signal-after=60&signal=STOP", "-q",
            ])
            #expect(await eventually { run.child.isStopped || !run.isRunning }, "the run did not halt")
            run.send(SIGINT)
            run.send(SIGTERM)
            run.send(SIGCONT)
            let result = await run.finish()
            #expect(result.signalled && [SIGINT, SIGTERM].contains(result.status), "\(result.output)\(result.error)")
            #expect(throws: Never.self) { try ProvisioningJournal.recover(journal) }
            let resumed = try await job.run(["batch", "--resume", journal, "--reader", reader, "-q"])
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
        }

        @Test("A second run of a job whose journal is in use is refused with 75; the first completes every row once")
        func journalInUse() async throws {
            let rows = 20
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let others = try job.tagDirectory("others")
            let journal = job.path("job.journal")
            // The first run halts (SIGSTOP from its simulated reader) at its 40th command, in its
            // third row or so, holding the journal: the second starts then and must be refused;
            // then the first goes on.
            let run = try job.start([
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", journal, "--reader",
                "sim:ntag215?supply=\(rows)&seed=5&file=\(tags)&signal-after=40&signal=STOP", "-q",
            ])
            #expect(await eventually { run.child.isStopped || !run.isRunning }, "the first run did not halt")
            let firstRan = run.isRunning
            let size = (try? Data(contentsOf: URL(fileURLWithPath: journal)))?.count ?? 0
            let secondRun = try job.start([
                "batch", "--resume", journal, "--reader", "sim:ntag215?supply=\(rows)&seed=6&file=\(others)", "-q",
            ])
            let second = await secondRun.finish()
            #expect(firstRan == true, "the first run ended before the second started: the test proves nothing")
            #expect(second.status == 75, "\(second.output)\(second.error)")
            #expect(second.error.contains("is in use by another run of this job"), "\(second.error)")
            run.send(SIGCONT)
            let first = await run.finish()
            #expect(first.status == 0, "\(first.output)\(first.error)")
            #expect(size > 0)
            try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
            #expect(throws: Never.self) { try ProvisioningJournal.recover(journal) }
            // The second run wrote to no tag.
            for (uid, file) in try BatchFiles.tagFiles(in: others) {
                #expect(try BatchFiles.memory(ofTagFile: file).message == nil, "tag \(uid) was written")
            }
        }
    }
}
