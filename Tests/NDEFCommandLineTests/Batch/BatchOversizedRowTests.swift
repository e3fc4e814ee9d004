import Foundation
import TestSupport
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch` with a plan row whose message no tag of the job can hold: the row is
    /// marked failed with the reason and every other row is written; `--dry-run` lists the rows
    /// over the capacity of NTAG213, NTAG215, NTAG216 and the simulated readers' chips.
    @Suite struct BatchOversizedRowTests {
        static let plan = "path\na\n" + String(repeating: "b", count: 300) + "\nc\nd\n"

        @Test(
            "A row too large for every tag fails with its reason, the rows after it are written: 84, every resume 84; --retry-failed with larger tags finishes it"
        )
        func oversizedRowFailsAndTheJobGoesOn() async throws {
            let job = try BatchFolder()
            _ = try job.file("plan.csv", Self.plan)
            let run = try await job.run([
                "batch", "uri", "https://example.com/{path}", "--plan", "plan.csv", "--journal", "job.journal",
                "--reader", "sim:ntag213?supply=6&seed=8",
            ])
            #expect(run.status == 84, "\(run.output)\(run.error)")
            #expect(run.output.contains("Done: 3 of 4 rows"), "\(run.output)")
            #expect(
                run.output.contains(
                    "Failed: rows 2 cannot be built or fit no tag (the report says why); every other row is done."),
                "\(run.output)")
            #expect(
                run.output.contains(
                    "Retry them with: ndeftool batch --resume job.journal --reader 'sim:ntag213?supply=6&seed=8' "
                        + "--retry-failed"), "\(run.output)")
            #expect(!run.output.contains("Continue with") && !run.error.contains("the job is complete"))
            let report = try BatchFiles.reportRows(job.path("job.report.csv"))
            #expect(report.map { $0[2] } == ["written", "failed", "written", "written"], "\(report)")
            let csv = try String(contentsOfFile: job.path("job.report.csv"), encoding: .utf8)
            #expect(
                csv.contains(
                    "\"too large for any tag of the readers: the message has 320 bytes, the largest tag holds 137\""),
                "\(csv)")

            // A resume with the same small tags: nothing to do, the same status, no "Continue with".
            let again = try await job.run([
                "batch", "--resume", "job.journal", "--reader", "sim:ntag213?supply=6&seed=8",
            ])
            #expect(again.status == 84, "\(again.output)\(again.error)")
            #expect(again.output.contains("Failed: rows 2"), "\(again.output)")
            #expect(!again.output.contains("Continue with"), "\(again.output)")
            // --retry-failed is for a job that exists.
            let fresh = try await job.run([
                "batch", "uri", "https://example.com/{path}", "--plan", "plan.csv", "--journal", "other.journal",
                "--retry-failed", "--reader", "sim:ntag215",
            ])
            #expect(fresh.status == 64, "\(fresh.error)")
            #expect(fresh.error.contains("--retry-failed goes with --resume"), "\(fresh.error)")
            // With larger tags and --retry-failed, the failed row gets a tag; the job is done.
            let retried = try await job.run([
                "batch", "--resume", "job.journal", "--retry-failed", "--reader", "sim:ntag215?supply=1&seed=9",
            ])
            #expect(retried.status == 0, "\(retried.output)\(retried.error)")
            #expect(retried.error.contains("--retry-failed: rows 2 go back to the pool"), "\(retried.error)")
            #expect(retried.output.contains("Done: 4 of 4 rows (1 in this run"), "\(retried.output)")
            let after = try BatchFiles.reportRows(job.path("job.report.csv"))
            #expect(after.map { $0[2] } == ["written", "written", "written", "written"], "\(after)")
        }

        @Test("--dry-run: the largest message, and the rows over each chip's capacity")
        func dryRunListsOversizedRows() async throws {
            let job = try BatchFolder()
            _ = try job.file("plan.csv", Self.plan)
            let arguments = [
                "batch", "uri", "https://example.com/{path}", "--plan", "plan.csv", "--journal", "job.journal",
                "--dry-run", "--reader", "sim:ntag210",
            ]
            let text = try await job.run(arguments)
            #expect(text.status == 0, "\(text.error)")
            #expect(text.output.contains("Largest message: row 2, 320 bytes\n"), "\(text.output)")
            #expect(text.output.contains("Too large for NTAG213 (137 bytes): 1 row: 2 (320 bytes)\n"))
            #expect(text.output.contains("Too large for NTAG210 (46 bytes): 1 row: 2 (320 bytes)\n"))
            #expect(!text.output.contains("Too large for NTAG215"))
            let json = try await job.run(arguments + ["--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            let capacities = try #require(object["capacities"] as? [[String: Any]])
            #expect(
                capacities.map { ($0["chip"] as? [String: Any])?["name"] as? String } == [
                    "NTAG213", "NTAG215", "NTAG216", "NTAG210",
                ])
            #expect(capacities.map { $0["oversizedRows"] as? [Int] } == [[2], [], [], [2]])
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
        }
    }
}
