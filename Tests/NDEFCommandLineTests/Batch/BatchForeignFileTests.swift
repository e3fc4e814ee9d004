import Foundation
import TestSupport
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch` never replaces, appends to or overwrites a file that is not its own:
    /// only a file that begins as a journal does (or holds nothing, zeros, or the beginning of a
    /// journal header: a run stopped as it created the journal) is taken for a torn journal;
    /// reports never overwrite the journal, the plan or the master secret file.
    @Suite struct BatchForeignFileTests {
        static let template = "https://example.com/t/{counter}"

        /// A 32-byte master secret without a line feed, as a secret file often is.
        static let secret: [UInt8] = Array("0123456789abcdef0123456789ABCDEF".utf8)

        /// The tag files a supply in `directory` left written.
        static func tagCount(_ directory: String) throws -> Int {
            try BatchFiles.tagFiles(in: directory).count
        }

        @Test(
            "65: --journal naming a file that is no journal (no line feed; one line; several lines) leaves it as it is",
            arguments: [
                Array("0123456789abcdef0123456789ABCDEF".utf8),
                Array("hello\n".utf8),
                Array("row,uri\n1,https://x\n".utf8),
                Array(#"{"event":"done","row":1}"#.utf8) + [0x0A],
            ])
        func foreignJournalRefused(content: [UInt8]) async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let path = try job.folder.file("other.bin", content)
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "2", "--journal", "other.bin",
                "--reader", "sim:ntag215?supply=2&seed=4&file=\(tags)",
            ])
            #expect(result.status == 65, "\(result.error)")
            #expect(result.error.contains("'other.bin' is not a batch journal"), "\(result.error)")
            #expect(try job.folder.read("other.bin") == content, "the file was changed")
            #expect(try Self.tagCount(tags) == 0, "a tag was touched")
            // As --resume too.
            let resumed = try await job.run(["batch", "--resume", "other.bin", "--reader", "sim:ntag215"])
            #expect(resumed.status == 65, "\(resumed.error)")
            #expect(resumed.error.contains("'other.bin' is not a batch journal"), "\(resumed.error)")
            #expect(try job.folder.read("other.bin") == content)
            _ = path
        }

        @Test("The master secret file named as the journal is refused after no tag got a password from it")
        func secretAsJournal() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            try job.folder.file("s.bin", Self.secret)
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "2", "--derive-passwords",
                "--master-secret-file", "s.bin", "--journal", "s.bin",
                "--reader", "sim:ntag215?supply=2&seed=5&file=\(tags)",
            ])
            #expect(result.status == 65, "\(result.error)")
            #expect(try job.folder.read("s.bin") == Self.secret, "the master secret file was changed")
            #expect(try Self.tagCount(tags) == 0)
        }

        @Test("A journal torn at its creation (nothing, zeros, the start of a header) is still replaced")
        func tornJournalReplaced() async throws {
            for content in [[], [0, 0, 0, 0], Array(#"{"event":"job","form"#.utf8)] as [[UInt8]] {
                let job = try BatchFolder()
                let tags = try job.tagDirectory()
                try job.folder.file("job.journal", content)
                let result = try await job.run([
                    "batch", "uri", Self.template, "--from", "1", "--to", "2", "--journal", "job.journal",
                    "--reader", "sim:ntag215?supply=2&seed=6&file=\(tags)", "-q",
                ])
                #expect(result.status == 0, "\(content): \(result.error)")
                #expect(try BatchFiles.doneEvents(job.path("job.journal")).count == 2)
            }
        }

        @Test(
            "64: a report naming the journal, the plan, the master secret file or the other report; nothing written",
            arguments: [
                (["--report", "job.journal"], "--report 'job.journal' is the journal"),
                (["--report-json", "plan.csv"], "--report-json 'plan.csv' is the plan"),
                (["--report", "./s.bin"], "--report './s.bin' is the master secret file"),
                (["--report", "r.out", "--report-json", "r.out"], "--report and --report-json name the same file"),
            ])
        func reportOverOwnFile(options: [String], message: String) async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let plan = "counter\n1\n2\n"
            try job.folder.file("plan.csv", text: plan)
            try job.folder.file("s.bin", Self.secret)
            let result = try await job.run(
                [
                    "batch", "uri", Self.template, "--plan", "plan.csv", "--journal", "job.journal",
                    "--derive-passwords", "--master-secret-file", "s.bin",
                    "--reader", "sim:ntag215?supply=2&seed=7&file=\(tags)",
                ] + options)
            #expect(result.status == 64, "\(result.error)")
            #expect(result.error.contains(message), "\(result.error)")
            #expect(try job.folder.read("plan.csv") == Array(plan.utf8))
            #expect(try job.folder.read("s.bin") == Self.secret)
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
            #expect(try Self.tagCount(tags) == 0)
        }
    }
}
