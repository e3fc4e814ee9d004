import Foundation
import TestSupport
import Testing

/// `batch --keys-file` on MIFARE Classic cards: each factory card formatted for NDEF (AN1304,
/// with the keys file's key B), written, verified and locked (AN1305); the journal and the
/// reports hold only the key B's check value; a resume needs the same key B.
@Suite("batch on MIFARE Classic cards", .timeLimit(.minutes(10)))
struct BatchClassicTests {
    static let keyB = "0F1E2D3C4B5A"

    /// The job code `--dry-run` shows.
    static func code(_ job: BatchFolder, _ arguments: [String]) async throws -> String {
        let dry = try await job.run(arguments + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.error)")
        let line = try #require(dry.output.split(separator: "\n").first { $0.hasPrefix("Job code (") })
        return String(try #require(line.split(separator: ": ").last))
    }

    /// The `.mfd` card files of `tags`, by UID.
    static func cards(_ tags: String) throws -> [String: [UInt8]] {
        var cards: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: tags) where name.hasSuffix(".mfd") {
            cards[String(name.dropLast(4))] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tags + name)))
        }
        return cards
    }

    /// Checks that every card of `tags` holds its row's URI (`byRow`), is read-only when
    /// `locked`, and has the keys file's key B in every trailer.
    static func checkCards(_ job: BatchFolder, tags: String, byRow: [Int: String], locked: Bool) async throws {
        let cards = try Self.cards(tags)
        #expect(cards.count == byRow.count)
        for (row, uid) in byRow {
            let image = try #require(cards[uid], "no card file for \(uid)")
            for sector in 0..<16 {
                let end = sector * 64 + 64
                #expect(hexText(Array(image[(end - 6)..<end])).replacingOccurrences(of: " ", with: "") == Self.keyB)
            }
            let read = try await job.run(["read", "--reader", "sim:classic1k?file=\(tags)\(uid).mfd", "--wait", "0"])
            #expect(read.output.contains("URI: https://x.test/c/\(row)"), "row \(row): \(read.output)\(read.error)")
            let info = try await job.run(["info", "--reader", "sim:classic1k?file=\(tags)\(uid).mfd", "--wait", "0"])
            #expect(info.output.contains(locked ? "NDEF: read-only" : "NDEF: read/write"), "\(info.output)")
        }
    }

    @Test("Factory cards formatted, written, verified and locked; no key in the journal or the reports")
    func formattedAndLocked() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keys = try job.file("keys.txt", "# the line's key B\nkey-b \(Self.keyB)\n")
        let arguments = [
            "batch", "uri", "https://x.test/c/{counter}", "--from", "1", "--to", "4", "--journal", "c.journal",
            "--keys-file", keys, "--lock", "--reader", "sim:classic1k?supply=4&seed=5&file=\(tags)", "-q",
        ]
        let unconfirmed = try await job.run(arguments)
        #expect(unconfirmed.status == 79 && unconfirmed.error.contains("key B"), "\(unconfirmed.error)")
        let code = try await Self.code(job, arguments)
        let run = try await job.run(arguments + ["--confirm", code])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("c.journal"), rows: 4)
        try await Self.checkCards(job, tags: tags, byRow: byRow, locked: true)
        for file in ["c.journal", "c.report.csv", "c.report.json"] {
            let text = try String(contentsOfFile: job.path(file), encoding: .utf8).uppercased()
            #expect(!text.contains(Self.keyB), "\(file) holds the key B")
        }
        let journal = try String(contentsOfFile: job.path("c.journal"), encoding: .utf8)
        #expect(journal.contains("\"classic-key-b-check\""))
        // A keys file without key B is refused before anything.
        let noKeyB = try job.file("candidates.txt", "A0A1A2A3A4A5\n")
        let refused = try await job.run(
            [
                "batch", "uri", "https://x.test/{counter}", "--from", "1", "--to", "1", "--keys-file", noKeyB,
                "--journal", "other.journal", "--reader", "sim:classic1k",
            ])
        #expect(refused.status == 64 && refused.error.contains("key-b"), "\(refused.error)")
    }

    /// A job of 2 rows on cards taken away after `removeAfter` commands, then resumed with the
    /// keys file: the status of the cut run.
    static func cutThenResume(_ removeAfter: Int, checkRefusals: Bool) async throws -> Int32 {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keys = try job.file("keys.txt", "key-b \(Self.keyB)\n")
        let arguments = [
            "batch", "uri", "https://x.test/c/{counter}", "--from", "1", "--to", "2", "--journal", "cut.journal",
            "--keys-file", keys, "-q",
        ]
        let code = try await Self.code(job, arguments)
        let reader = "sim:classic1k?supply=2&seed=9&file=\(tags)"
        let cut = try await job.run(
            arguments + ["--reader", reader + "&remove-after=\(removeAfter)", "--confirm", code])
        #expect([0, 75, 80].contains(cut.status), "cut after \(removeAfter): \(cut.output)\(cut.error)")
        let resume = ["batch", "--resume", job.path("cut.journal")]
        if cut.status != 0 {
            #expect(cut.output.contains("--keys-file"), "the resume line names the keys file: \(cut.output)")
        }
        if checkRefusals {
            let withoutKeys = try await job.run(resume)
            #expect(withoutKeys.status == 64 && withoutKeys.error.contains("--keys-file"), "\(withoutKeys.error)")
            let other = try job.file("other.txt", "key-b 111111111111\n")
            let wrongKeys = try await job.run(resume + ["--keys-file", other, "--reader", reader, "--confirm", code])
            #expect(wrongKeys.status == 65 && wrongKeys.error.contains("key B"), "\(wrongKeys.error)")
            #expect(!wrongKeys.error.contains("111111111111"))
        }
        if cut.status != 0 {
            let resumed = try await job.run(resume + ["--keys-file", keys, "--reader", reader, "--confirm", code])
            #expect(resumed.status == 0, "cut after \(removeAfter), resumed: \(resumed.output)\(resumed.error)")
        }
        let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("cut.journal"), rows: 2)
        try await Self.checkCards(job, tags: tags, byRow: byRow, locked: false)
        return cut.status
    }

    @Test("Cards taken away at every 20th command of format + write: each cut run resumed with the keys file finishes")
    func cutMatrix() async throws {
        var statuses: [Int: Int32] = [:]
        var checkedRefusals = false
        for removeAfter in stride(from: 10, through: 330, by: 20) {
            let status = try await Self.cutThenResume(removeAfter, checkRefusals: !checkedRefusals)
            checkedRefusals = true
            statuses[removeAfter] = status
        }
        // Cuts before the first write give the rows back (75), cuts in the format or the write
        // leave them waiting for their cards (80), and late ones let the job finish.
        #expect(statuses.values.contains(75) && statuses.values.contains(80), "\(statuses.sorted { $0.key < $1.key })")
    }
}
