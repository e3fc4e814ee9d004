import Foundation
import TagMemory
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch --json` and `--dry-run --json`: the keys and values of the summaries (the
    /// times vary, so they are checked by type and range, not against a golden file).
    @Suite struct BatchJSONTests {
        static let template = "https://example.com/t/{counter}"

        /// The JSON object `text` holds.
        static func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        }

        @Test("--dry-run --json: plan, template, journal, first message, options and the lock code the run accepts")
        func dryRunAndRun() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let arguments = [
                "batch", "uri", Self.template, "--from", "1", "--to", "4", "--lock", "--journal", "job.journal",
                "--reader", "sim:ntag215?supply=4&seed=41&file=\(tags)", "--json",
            ]
            let dry = try await job.run(arguments + ["--dry-run"])
            #expect(dry.status == 0, "\(dry.error)")
            let plan = try Self.object(dry.output)
            #expect(
                Set(plan.keys)
                    == [
                        "rows", "fields", "template", "journal", "resumes", "firstMessageBytes", "lockCode", "options",
                        "capacities",
                    ])
            #expect(plan["rows"] as? Int == 4)
            #expect(plan["fields"] as? [String] == ["counter"])
            #expect(plan["template"] as? String == "uri " + Self.template)
            #expect(plan["journal"] as? String == "job.journal")
            #expect(plan["resumes"] as? Bool == false)
            // Row 1's message: one URI record, https:// abbreviated (NFC Forum URI RTD 1.0, 3.2.2).
            let first = try BatchFiles.uriMessage("https://example.com/t/1")
            #expect(plan["firstMessageBytes"] as? Int == first.count)
            #expect(plan["options"] as? [String: String] == ["lock": "yes", "password": "none"])
            let code = try #require(plan["lockCode"] as? String)
            #expect(code.wholeMatch(of: /[0-9]{3}-[0-9]{3}/) != nil, "\(code)")
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
            #expect(try BatchFiles.tagFiles(in: tags).isEmpty)

            // Another plan has another code, which this job refuses.
            let other = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "5", "--lock", "--dry-run", "--json",
            ])
            let otherCode = try #require(try Self.object(other.output)["lockCode"] as? String)
            #expect(otherCode != code)
            let refused = try await job.run(arguments + ["--confirm", otherCode])
            #expect(refused.status == 79)

            let run = try await job.run(arguments + ["--confirm", code])
            #expect(run.status == 0, "\(run.error)")
            let summary = try Self.object(run.output)
            #expect(
                Set(summary.keys)
                    == [
                        "rows", "done", "doneThisRun", "locked", "passwords", "refusedTags", "alreadyDoneTags",
                        "pending",
                        "unfinishedRows",
                        "failedRows", "journal", "report", "reportJSON", "seconds", "tagsPerMinute",
                    ])
            #expect(summary["rows"] as? Int == 4)
            #expect(summary["done"] as? Int == 4)
            #expect(summary["doneThisRun"] as? Int == 4)
            #expect(summary["locked"] as? Int == 4)
            #expect(summary["passwords"] as? Int == 0)
            #expect(summary["refusedTags"] as? Int == 0)
            #expect(summary["pending"] as? Int == 0)
            #expect(summary["unfinishedRows"] as? [Int] == [])
            #expect(summary["failedRows"] as? [Int] == [])
            #expect(summary["journal"] as? String == "job.journal")
            #expect(summary["report"] as? String == "job.report.csv")
            #expect(summary["reportJSON"] as? String == "job.report.json")
            let seconds = try #require(summary["seconds"] as? Double)
            #expect(seconds > 0 && seconds < 60)
            let rate = try #require(summary["tagsPerMinute"] as? Double)
            // Both are rounded: seconds to 1 ms, the rate to 0.1.
            #expect(abs(rate - 4 * 60 / seconds) <= rate * 0.000_6 / seconds + 0.1, "\(rate) tags/min in \(seconds) s")
            // Each tag is locked: its capability container grants no write access (T2T 1.1, 6.4.4).
            let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("job.journal"), rows: 4)
            for (row, uid) in byRow {
                let memory = try BatchFiles.memory(ofTagFile: tags + uid + ".nfc")
                #expect(memory.ndefStatus.status == .readOnly, "row \(row)")
                #expect(memory.ndefMessageBytes == (try BatchFiles.uriMessage("https://example.com/t/\(row)")))
            }
            // The JSON report: every row, each tag's row, the tally.
            let report = try Self.object(try String(contentsOfFile: job.path("job.report.json"), encoding: .utf8))
            #expect(report["tally"] as? [String: Int] == ["written+locked": 4])
            #expect(report["tags"] as? [String: Int] == Dictionary(uniqueKeysWithValues: byRow.map { ($1, $0) }))
            #expect((report["rows"] as? [[String: Any]])?.count == 4)

            // The dry run of the resume: the journal exists and the code stands.
            let again = try Self.object(
                try await job.run(["batch", "--resume", "job.journal", "--dry-run", "--json"]).output)
            #expect(again["resumes"] as? Bool == true)
            #expect(again["lockCode"] as? String == code)
        }

        @Test("--json of a run with rows left: pending and the stop reason")
        func rowsLeft() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", "job.journal", "--reader",
                "sim:ntag215?supply=1&seed=42&file=\(tags)", "--json",
            ])
            #expect(result.status == 75, "\(result.error)")
            let summary = try Self.object(result.output)
            #expect(summary["done"] as? Int == 1)
            #expect(summary["pending"] as? Int == 2)
            #expect(summary["locked"] as? Int == 0)
            #expect(summary["stopReason"] as? String == "every reader stopped")
        }
    }
}
