import Foundation
import NDEF
import Provisioning
import TagMemory
import TestSupport
import Testing

extension BatchBinaryTests {
    /// Every exit status `ndeftool batch` gives, with its message, through the built binary: 0,
    /// 64 usage, 65 data, 66 no input, 75 rows left, 79 lock not confirmed (130 and 80 are in
    /// BatchInterruptionTests). Nothing is written to a tag or a journal before a refusal.
    @Suite struct BatchExitStatusTests {
        static let template = "https://example.com/t/{counter}"

        /// A plan of Fixtures/batch/.
        static func fixture(_ name: String) -> String {
            PackagePaths.root.appendingPathComponent("Fixtures/batch/\(name)").path
        }

        @Test(
            "64: no plan; --from without --to; an unknown option; a journal that exists without --resume",
            arguments: [
                (["batch", "uri", template], "Missing expected argument '--plan <file> | --from <n> --to <m>'"),
                (["batch", "uri", template, "--from", "1"], "A counter plan needs both --from N and --to M"),
                (["batch", "uri", template, "--to", "9"], "A counter plan needs both --from N and --to M"),
                (["batch", "uri", template, "--from", "1", "--to", "3", "--bogus"], "Unknown option '--bogus'"),
                (
                    ["batch", "uri", template, "--from", "1", "--to", "3", "--confirm", "123-456"],
                    "--confirm goes with --lock"
                ),
                (["batch", "--from", "1", "--to", "3"], "Missing expected argument '<record> ...'"),
                (
                    ["batch", "uri", template, "--from", "1", "--to", "3", "--reader", "sim:ntag215"],
                    "The reader sim:ntag215 is named twice: each reader is one station"
                ),
            ])
        func usage(arguments: [String], message: String) async throws {
            let job = try BatchFolder()
            let result = try await job.run(arguments + ["--journal", "job.journal", "--reader", "sim:ntag215"])
            #expect(result.status == 64, "\(result.error)")
            #expect(result.error.contains(message), "\(result.error)")
            #expect(result.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
        }

        @Test("64: a journal that exists is not started again: the message names --resume")
        func journalExists() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let arguments = [
                "batch", "uri", Self.template, "--from", "1", "--to", "2", "--reader",
                "sim:ntag215?supply=2&file=\(tags)",
            ]
            let first = try await job.run(arguments)
            #expect(first.status == 0, "\(first.error)")
            let journal = try String(contentsOfFile: job.path("batch-1-2.journal"), encoding: .utf8)
            let again = try await job.run(arguments)
            #expect(again.status == 64)
            #expect(
                again.error.contains(
                    "The journal 'batch-1-2.journal' exists: continue that job with --resume batch-1-2.journal, or name "
                        + "another with --journal"), "\(again.error)")
            #expect(try String(contentsOfFile: job.path("batch-1-2.journal"), encoding: .utf8) == journal)
        }

        @Test("66: a plan file that is missing; --resume of a journal that is missing")
        func noInput() async throws {
            let job = try BatchFolder()
            let plan = try await job.run(["batch", "uri", "https://x.test/{serial}", "--plan", "missing.csv"])
            #expect(plan.status == 66)
            #expect(plan.error.contains("'missing.csv'") && plan.error.contains("No such file"), "\(plan.error)")
            let resume = try await job.run(["batch", "--resume", "missing.journal", "--reader", "sim:ntag215"])
            #expect(resume.status == 66)
            #expect(resume.error.contains("the journal 'missing.journal' does not exist"), "\(resume.error)")
        }

        @Test(
            "65: malformed CSV naming the line and column; a row with a field too many",
            arguments: [
                ("unclosed-quote.csv", "line 3, column 6: quoted field is never closed"),
                ("extra-field.csv", "line 3: row 2 has 3 fields; the header names 2"),
            ])
        func malformedPlan(name: String, message: String) async throws {
            let job = try BatchFolder()
            let result = try await job.run([
                "batch", "uri", "https://x.test/{serial}", "--plan", Self.fixture(name), "--journal", "job.journal",
            ])
            #expect(result.status == 65)
            #expect(result.error.contains("The plan '\(Self.fixture(name))': \(message)"), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
        }

        @Test("65: a row whose value makes no valid record, named with its plan line, before any tag is touched")
        func rowCannotBeBuilt() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            _ = try job.file("media.csv", "type,data\ntext/plain,hi\nnot a type,ho\n")
            let result = try await job.run([
                "batch", "mime", "{type}", "{data}", "--plan", "media.csv", "--journal", "job.journal", "--reader",
                "sim:ntag215?supply=2&file=\(tags)",
            ])
            #expect(result.status == 65)
            #expect(result.error.contains("Row 2 (plan line 3): The value 'not a type' is invalid"), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
            #expect(try BatchFiles.tagFiles(in: tags).isEmpty)
        }

        @Test("65: a placeholder the plan does not provide, named with the fields it does")
        func unknownPlaceholder() async throws {
            let job = try BatchFolder()
            let result = try await job.run([
                "batch", "uri", "https://x.test/{door}", "--plan", Self.fixture("halls.csv"), "--journal",
                "job.journal",
            ])
            #expect(result.status == 65)
            #expect(
                result.error.contains(
                    "The record template: unknown placeholder {door}; the plan provides {serial}, {hall}"),
                "\(result.error)")
        }

        @Test("65: --resume after the plan file was edited: the journal records another job; nothing is written")
        func planEdited() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let plan = try job.file("halls.csv", try String(contentsOfFile: Self.fixture("halls.csv"), encoding: .utf8))
            let reader = "sim:ntag215?supply=2&seed=3&file=\(tags)"
            let first = try await job.run([
                "batch", "uri", "https://x.test/{serial}/{hall}", "--plan", plan, "--journal", "job.journal",
                "--reader",
                reader,
            ])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            _ = try job.file("halls.csv", "serial,hall\n0001,A\n0002,B\n0003,D\n")
            let journal = try String(contentsOfFile: job.path("job.journal"), encoding: .utf8)
            let resumed = try await job.run(["batch", "--resume", "job.journal", "--reader", reader])
            #expect(resumed.status == 65)
            #expect(
                resumed.error.contains(
                    "the plan '\(plan)' changed since the job started (its content is not the one the journal records, "
                        + "3 rows)"), "\(resumed.error)")
            // With the template on the command line, the difference is named too.
            let other = try await job.run([
                "batch", "uri", "https://y.test/{serial}", "--plan", plan, "--resume", "job.journal", "--reader",
                reader,
            ])
            #expect(other.status == 65)
            #expect(
                other.error.contains("the journal records another job: the plan's content differs"), "\(other.error)")
            #expect(other.error.contains("the template differs"), "\(other.error)")
            #expect(try String(contentsOfFile: job.path("job.journal"), encoding: .utf8) == journal)
        }

        @Test("79: --lock without --confirm and no terminal, and a wrong --confirm: nothing written, the code shown")
        func lockNotConfirmed() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let arguments = [
                "batch", "uri", Self.template, "--from", "1", "--to", "3", "--lock", "--journal", "job.journal",
                "--reader", "sim:ntag215?supply=3&file=\(tags)",
            ]
            let dry = try await job.run(arguments + ["--dry-run", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])
            let code = try #require(object["lockCode"] as? String)
            let unconfirmed = try await job.run(arguments)
            #expect(unconfirmed.status == 79)
            #expect(unconfirmed.error.contains("3 tags become read-only for good"), "\(unconfirmed.error)")
            #expect(unconfirmed.error.contains("nothing was written"), "\(unconfirmed.error)")
            #expect(unconfirmed.error.contains("--confirm \(code)"), "\(unconfirmed.error)")
            let wrong = try await job.run(arguments + ["--confirm", "000-000"])
            #expect(wrong.status == 79)
            #expect(
                wrong.error.contains("--confirm 000-000 is not this job's code: nothing was written"), "\(wrong.error)")
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
            #expect(try BatchFiles.tagFiles(in: tags).isEmpty)
        }

        @Test("75: the supply is used up before the plan: rows left, the command to resume; resumed on more tags: 0")
        func rowsLeft() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let more = try job.tagDirectory("more")
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "5", "--journal", "job.journal", "--reader",
                "sim:ntag215?supply=3&seed=8&file=\(tags)",
            ])
            #expect(result.status == 75, "\(result.output)\(result.error)")
            #expect(result.output.contains("Done: 3 of 5 rows"), "\(result.output)")
            #expect(result.output.contains("Left: 2 not started."), "\(result.output)")
            #expect(result.output.contains("Stopped: every reader stopped."), "\(result.output)")
            #expect(
                result.output.contains(
                    "Continue with: ndeftool batch --resume job.journal --reader 'sim:ntag215?supply=3&seed=8&file=\(tags)'"
                ), "\(result.output)")
            #expect(result.error.contains("r1: stopped: no more tags at this reader"), "\(result.error)")
            let report = try BatchFiles.reportRows(job.path("job.report.csv"))
            #expect(report.map { $0[2] } == ["written", "written", "written", "pending", "pending"])

            let resumed = try await job.run([
                "batch", "--resume", "job.journal", "--reader", "sim:ntag215?supply=2&seed=9&file=\(more)",
            ])
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(resumed.output.contains("Done: 5 of 5 rows (2 in this run"), "\(resumed.output)")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("job.journal"), rows: 5)
            #expect(try BatchFiles.tagFiles(in: more).keys.sorted() == [byRow[4] ?? "", byRow[5] ?? ""].sorted())
        }

        @Test("0: a JSON Lines plan with two fields in a text template: each tag holds its row's text")
        func success() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let result = try await job.run([
                "batch", "text", "Seat {seat} for {name}", "--plan", Self.fixture("seats.jsonl"), "--journal",
                "seats.journal", "--reader", "sim:ntag215?supply=3&seed=12&file=\(tags)",
            ])
            #expect(result.status == 0, "\(result.output)\(result.error)")
            #expect(
                result.output == """
                    Done: 3 of 3 rows (3 in this run, \(Self.rate(result.output)) tags/min); 0 tags refused.
                    Journal: seats.journal
                    Reports: seats.report.csv, seats.report.json

                    """)
            let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("seats.journal"), rows: 3)
            for (row, text) in [(1, "Seat 12A for Ada"), (2, "Seat 12B for Grace"), (3, "Seat 14C for Linus")] {
                let uid = try #require(byRow[row])
                let expected = try NFCNDEFMessage(records: [try TextRecord(text: text).makeRecord()]).encoded()
                try BatchFiles.expectTag(tags + uid + ".nfc", holds: expected, "row \(row)")
            }
            // The CSV report holds the plan's fields after the fixed columns.
            let report = try String(contentsOfFile: job.path("seats.report.csv"), encoding: .utf8)
            #expect(report.hasPrefix("row,uid,outcome,time,reason,seat,name\r\n1,\(byRow[1] ?? "")"), "\(report)")
            #expect(report.contains(",written,") && report.hasSuffix(",,14C,Linus\r\n"), "\(report)")
        }

        /// The tags per minute of a summary line.
        static func rate(_ output: String) -> String {
            guard let range = output.range(of: "in this run, "), let end = output.range(of: " tags/min") else {
                return ""
            }
            return String(output[range.upperBound..<end.lowerBound])
        }
    }
}
