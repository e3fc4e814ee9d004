import Foundation
import TagMemory
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch` on several readers at once (one station each), with a reader unplugged
    /// mid-job and a tag presented twice: rows handed out once each, tags refused by UID.
    @Suite struct BatchStationTests {
        static let template = "https://example.com/t/{counter}"

        /// Checks that each tag in the supply directories holds the message of the row the journal
        /// gives it, and that tags the journal gives no row hold no message.
        static func expectTags(in directories: [String], rows byRow: [Int: String]) throws {
            var rowOfTag: [String: Int] = [:]
            for (row, uid) in byRow { rowOfTag[uid] = row }
            var seen = 0
            for directory in directories {
                for (uid, file) in try BatchFiles.tagFiles(in: directory) {
                    guard let row = rowOfTag[uid] else {
                        let memory = try BatchFiles.memory(ofTagFile: file)
                        #expect(memory.message == nil, "tag \(uid) holds a message but no row")
                        continue
                    }
                    seen += 1
                    let expected = try BatchFiles.uriMessage("https://example.com/t/\(row)")
                    try BatchFiles.expectTag(file, holds: expected, "tag \(uid) (row \(row))")
                }
            }
            #expect(seen == byRow.count, "\(byRow.count - seen) rows' tags have no file")
        }

        @Test("No --reader: the reader comes from NDEFTOOL_READER, as for the tag commands")
        func readerFromEnvironment() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let arguments = ["batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", "job.journal"]
            let result = try await job.run(
                arguments, environment: ["NDEFTOOL_READER": "sim:ntag215?supply=3&seed=5&file=\(tags)"])
            #expect(result.status == 0, "\(result.output)\(result.error)")
            #expect(result.output.contains("Done: 3 of 3 rows"), "\(result.output)")
            #expect(try BatchFiles.tagFiles(in: tags).count == 3)
            // A bad URL in the variable is named as coming from it.
            let bad = try await job.run(
                ["batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", "other.journal"],
                environment: ["NDEFTOOL_READER": "nfc:nothing"])
            #expect(bad.status == 64, "\(bad.error)")
            #expect(bad.error.contains("NDEFTOOL_READER"), "\(bad.error)")
        }

        @Test(
            "Two and four readers at once: each row done once, on its own tag, every reader a station",
            arguments: [2, 4])
        func parallelReaders(count: Int) async throws {
            let rows = 40
            let job = try BatchFolder()
            var arguments = [
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", "job.journal",
            ]
            var directories: [String] = []
            var readers: [String] = []
            var identities: [String] = []
            for index in 1...count {
                let directory = try job.tagDirectory("tags\(index)")
                directories.append(directory)
                // Enough tags in all, and fewer than the rows at any count - 1 readers together:
                // every station must take part, however the machine schedules them.
                let supply = (rows - 1) / (count - 1)
                readers.append("sim:ntag215?supply=\(supply)&seed=\(100 + index)&file=\(directory)")
                // A station is known by its reader's canonical URL, however it is spelled.
                identities.append("sim:ntag215?file=\(directory)&supply=\(supply)&seed=\(100 + index)")
                arguments += ["--reader", readers[index - 1]]
            }
            let result = try await job.run(arguments)
            #expect(result.status == 0, "\(result.output)\(result.error)")
            #expect(result.output.contains("Done: \(rows) of \(rows) rows"), "\(result.output)")
            // The legend of the station labels.
            for (index, identity) in identities.enumerated() {
                #expect(result.error.contains("r\(index + 1) = \(identity)"), "\(result.error)")
            }
            let journal = job.path("job.journal")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
            try BatchFiles.expectNoRowInProgress(journal)
            // Every station claimed rows.
            let claimers = Set(try BatchFiles.events(journal).compactMap { $0["reader"] as? String })
            #expect(claimers == Set(identities))
            try Self.expectTags(in: directories, rows: byRow)
            let report = try BatchFiles.reportRows(job.path("job.report.csv"))
            #expect(report.map { $0[0] } == (1...rows).map(String.init))
            #expect(report.allSatisfy { $0[2] == "written" })
        }

        @Test(
            "A reader unplugged mid-write: reconnect events on stderr, its row finished on the same tag, no row twice")
        func readerUnplugged() async throws {
            let rows = 30
            let job = try BatchFolder()
            let first = try job.tagDirectory("first")
            let second = try job.tagDirectory("second")
            // The 40th tag command of the second reader falls in the WRITEs of its fourth tag.
            let unplugged = "sim:ntag215?supply=20&seed=2&file=\(second)&unplug-after=40&unplug-ms=300"
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", String(rows), "--journal", "job.journal",
                "--reader", "sim:ntag215?supply=20&seed=1&file=\(first)", "--reader", unplugged,
                // A station stuck waiting stops after a minute instead of hanging the test.
                "--wait", "60",
            ])
            #expect(result.status == 0, "\(result.output)\(result.error)")
            #expect(result.error.contains("r2: Reader disconnected: reconnecting..."), "\(result.error)")
            #expect(result.error.contains("r2: Reader back"), "\(result.error)")
            // The write the unplug broke, then its row finished on that tag.
            let broken = try #require(
                result.error.split(separator: "\n").first {
                    $0.contains("the write did not complete") && $0.contains("r2")
                },
                "\(result.error)")
            #expect(broken.contains("simulated reader unplugged"))
            let words = broken.split(separator: " ")
            let row = try #require(words.count > 3 ? Int(words[1].dropLast()) : nil, "\(broken)")
            let uid = String(words[3])
            let journal = job.path("job.journal")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: rows)
            #expect(byRow[row] == uid, "row \(row) was interrupted on \(uid) and done on \(byRow[row] ?? "none")")
            #expect(result.error.contains("Row \(row): tag \(uid) done (written) at r2"), "\(result.error)")
            try BatchFiles.expectNoRowInProgress(journal)
            try Self.expectTags(in: [first, second], rows: byRow)
        }

        @Test(
            "A tag presented again is left as it is, naming its row, not a refusal; exit 0; the report has each row once"
        )
        func duplicateTag() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            // The second tag comes back right after the third.
            let result = try await job.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "5", "--journal", "job.journal", "--reader",
                "sim:ntag215?supply=6&seed=1&duplicate=2&file=\(tags)",
            ])
            #expect(result.status == 0, "\(result.output)\(result.error)")
            let journal = job.path("job.journal")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(journal, rows: 5)
            let again = try #require(byRow[2])
            #expect(
                result.error.contains(
                    "Tag \(again) at r1: already done in this job (row 2), left as it is: take it away"),
                "\(result.error)")
            #expect(result.output.contains("Done: 5 of 5 rows (5 in this run, "), "\(result.output)")
            #expect(
                result.output.contains("0 tags refused; 1 tag already done, left as it was."), "\(result.output)")
            let report = try BatchFiles.reportRows(job.path("job.report.csv"))
            #expect(report.map { $0[0] } == ["1", "2", "3", "4", "5"])
            #expect(Set(report.map { $0[1] }).count == 5)
            #expect(report.map { $0[1] } == (1...5).map { byRow[$0] ?? "" })
            try Self.expectTags(in: [tags], rows: byRow)
        }
    }
}
