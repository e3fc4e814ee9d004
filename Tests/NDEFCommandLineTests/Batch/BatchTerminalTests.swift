import Foundation
import Provisioning
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `ndeftool batch` with a person at a terminal: the status line at the bottom, and the job's
/// lock code typed back (in process, with streams that claim to be terminals).
@Suite struct BatchTerminalTests {
    static let template = ["uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3"]

    @Test("On a terminal a status line shows done/total, the rate, the ETA and each reader's state; redrawn in place")
    func statusLine() async throws {
        let directory = try TemporaryDirectory("cli")
        let io = TerminalTestIO()
        let status = await NDEFCommandLine.run(
            ["batch"] + Self.template + [
                "--journal", directory.path("job.journal"), "--reader", "sim:ntag215?supply=3&seed=1",
                "--reader", "sim:ntag213?supply=2&seed=2",
            ], io: io)
        #expect(status == .success, "\(io.error)")
        // Each redraw starts at the line's beginning and clears it (ECMA-48 CR + EL).
        #expect(io.error.contains("\r\u{1B}[K"))
        #expect(io.error.contains("/3 done | "))
        #expect(io.error.contains(" | ETA "))
        #expect(io.error.contains("r1 ") && io.error.contains("r2 "))
        // Each reader by its identity (the canonical URL: seed 1 is the default).
        #expect(io.error.contains("r1 = sim:ntag215?supply=3\n"))
        #expect(io.error.contains("remove the tag"))
        // The summary is the command's output, not part of the status line.
        #expect(io.outputText.hasPrefix("Done: 3 of 3 rows"))
        // Without a terminal there is no status line.
        let plain = TerminalTestIO(terminals: [])
        let again = await NDEFCommandLine.run(
            ["batch"] + Self.template + [
                "--journal", directory.path("plain.journal"), "--reader", "sim:ntag215?supply=3&seed=3",
            ], io: plain)
        #expect(again == .success)
        #expect(!plain.error.contains("\u{1B}["))
        #expect(!plain.error.contains(" done | "))
        #expect(plain.error.contains("Row 3: tag "))
    }

    @Test("A person types the job code to confirm the locks; a wrong code refuses with 79 before any reader")
    func lockCodeTyped() async throws {
        let directory = try TemporaryDirectory("cli")
        let journal = directory.path("job.journal")
        let dry = TerminalTestIO()
        let plan = Self.template + ["--journal", journal, "--lock"]
        #expect(await NDEFCommandLine.run(["batch"] + plan + ["--dry-run"], io: dry) == .success)
        let code = try #require(
            dry.outputText.split(separator: "\n").first { $0.hasPrefix("Job code") }?.split(separator: " ").last
                .map(String.init))
        let wrong = TerminalTestIO(answers: ["000-000"])
        let refused = await NDEFCommandLine.run(
            ["batch"] + plan + ["--reader", "sim:ntag215?supply=3&seed=4"], io: wrong)
        #expect(refused == .confirmationMismatch)
        #expect(wrong.error.contains("Type the job code \(code) to go on"))
        #expect(!FileManager.default.fileExists(atPath: journal))
        let person = TerminalTestIO(answers: [code])
        let locked = await NDEFCommandLine.run(
            ["batch"] + plan + ["--reader", "sim:ntag215?supply=3&seed=4"], io: person)
        #expect(locked == .success, "\(person.error)")
        #expect(person.outputText.contains("3 locked"))
    }
}
