import Foundation
import NFCSession
import Testing

@testable import NDEFCommandLine

/// The command shown after an interrupted lock or write: with `--confirm CODE` while the lock
/// code still stands, without it once part of the lock is written (the code changed), and with
/// `... |` when the message came from standard input.
@Suite(.timeLimit(.minutes(5))) struct ResumeHintTests {
    /// The command after `lines` on standard error that starts with `ndeftool lock`.
    static func lockLine(_ error: String) -> String? {
        error.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("ndeftool lock ") }
    }

    /// The tag leaves during the confirmation reads (5th command: before any write): nothing
    /// changed, and the command shown locks with the code, which still stands.
    @Test func lockInterruptedBeforeAnyWriteShowsTheCode() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        let interrupted = try await tag.run(["lock", "--confirm", code], faults: "&remove-after=5")
        #expect(interrupted.status == 75)
        #expect(interrupted.error.contains("Nothing was changed."))
        let line = try #require(Self.lockLine(interrupted.error), "\(interrupted.error)")
        #expect(line == "ndeftool lock --reader '\(tag.reader())' --wait 0 --confirm \(code)")
        #expect(try await tag.run(["lock", "--confirm", code]).status == 0)
    }

    /// Without --confirm on the first run too: the code prepared in the run is the one shown.
    @Test func writeThenLockInterruptedBeforeAnyLockWriteShowsTheCode() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        let interrupted = try await tag.run(
            ["write", "uri", "https://example.com", "--lock", "--confirm", code], faults: "&remove-after=5")
        #expect(interrupted.status == 75)
        #expect(interrupted.error.contains("the message was written and verified, but the tag was not locked"))
        #expect(interrupted.error.contains("The lock changed nothing."))
        #expect(
            Self.lockLine(interrupted.error) == "ndeftool lock --reader '\(tag.reader())' --wait 0 --confirm \(code)")
    }

    /// The tag leaves after the CC write (the 8th command): the code changed with it, so the
    /// command shown has no --confirm; run where nobody can type, it refuses with 79 and shows
    /// the new code's command, which completes the lock.
    @Test func lockInterruptedAfterAWriteShowsTheCommandThatFindsTheNewCode() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let code = try await tag.lockCode()
        let interrupted = try await tag.run(["lock", "--confirm", code], faults: "&remove-after=8")
        #expect(interrupted.status == 80)
        #expect(
            interrupted.error.contains("which changes the lock code: without --confirm the command shows the new code"))
        let line = try #require(Self.lockLine(interrupted.error))
        #expect(line == "ndeftool lock --reader '\(tag.reader())' --wait 0")
        let refused = try await tag.run(["lock"])
        #expect(refused.status == 79)
        let next = try #require(Self.lockLine(refused.error))
        let newCode = try #require(next.split(separator: " ").last.map(String.init))
        #expect(newCode != code)
        #expect(try await tag.run(["lock", "--confirm", newCode]).status == 0)
    }

    /// `write --from -` interrupted: the message must be piped again.
    @Test func writeFromStandardInputSaysToPipeAgain() async throws {
        let tag = try SimulatedTagFile()
        let message = try await BinaryRunner.run([
            "encode", "uri", "https://example.com/a-longer-address", "text", "Hi",
        ])
        let interrupted = try await tag.run(["write", "--from", "-"], faults: "&remove-after=5", input: message.output)
        #expect(interrupted.status == 80)
        #expect(
            interrupted.error.contains(
                "  ... | ndeftool write --from - --reader '\(tag.reader())' --wait 0 --resume --uid 04517CA24B3580\n"
                    + "(with the same message on standard input again, as the first time)\n"), "\(interrupted.error)")
        let resumed = try await tag.run(["write", "--from", "-", "--resume"], input: message.output)
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(try await tag.run(["read"]).outputText.contains("  URI: https://example.com/a-longer-address\n"))
    }

    /// The resume line names the interrupted tag (`--uid`): run against another tag, it writes
    /// nothing there and says which tag it wants (75); on the interrupted tag it completes.
    @Test func resumeLineIsBoundToTheInterruptedTag() async throws {
        let tag = try SimulatedTagFile()
        let interrupted = try await tag.run(["write", "uri", "https://example.com/first"], faults: "&remove-after=5")
        #expect(interrupted.status == 80)
        let line = try #require(
            interrupted.error.split(separator: "\n").first { $0.hasPrefix("  ndeftool write") }.map(String.init))
        #expect(line.hasSuffix(" --resume --uid 04517CA24B3580"), "\(line)")
        let other = try SimulatedTagFile()
        let otherReader = other.reader("&uid=04112233445566")
        let elsewhere = try await BinaryRunner.run(
            [
                "write", "uri", "https://example.com/first", "--resume", "--uid", "04517CA24B3580", "--reader",
                otherReader, "--wait", "0",
            ], environment: ["NDEFTOOL_READER": ""])
        #expect(elsewhere.status == 75, "\(elsewhere.error)")
        #expect(
            elsewhere.error.contains("this is tag 04:11:22:33:44:55:66, not the tag 04:51:7C:A2:4B:35:80 --uid names"))
        #expect(!elsewhere.outputText.contains("Completed"))
        #expect(!FileManager.default.fileExists(atPath: other.path), "the other tag was written")
        let resumed = try await tag.run([
            "write", "uri", "https://example.com/first", "--resume", "--uid", "04:51:7c:a2:4b:35:80",
        ])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(
            resumed.outputText.hasPrefix("Completed the write to tag 04:51:7C:A2:4B:35:80"), "\(resumed.outputText)")
        let bad = try await tag.run(["write", "uri", "https://example.com", "--uid", "0451"])
        #expect(bad.status == 64)
    }

    @Test func resumeLines() {
        #expect(
            WriteCommand.resumeCommand(
                ["write", "--from=-", "--reader", "sim:ntag215"], resumes: false, pipesInput: true)
                == "... | ndeftool write --from=- --reader sim:ntag215 --resume\n"
                + "(with the same message on standard input again, as the first time)")
        let lost = NFCReaderError(.tagConnectionLost, "gone")
        let arguments = ["lock", "--reader", "sim:ntag215", "--confirm", "111-222"]
        let before = LockFlow.failure(lost, arguments: arguments, code: "123-456")
        #expect(before.status == .tryAgain)
        #expect(before.message.hasSuffix("\n  ndeftool lock --reader sim:ntag215 --confirm 123-456"))
        let half = LockFlow.failure(
            NFCReaderError(.tagConnectionLost, "gone", mayBeHalfWritten: true), arguments: arguments, code: "123-456")
        #expect(half.status == .incompleteWrite)
        #expect(!half.message.contains("123-456"))
        #expect(half.message.contains("\n  ndeftool lock --reader sim:ntag215\n"))
        // A wrong code is not offered again.
        let wrong = LockFlow.failure(NFCReaderError(.confirmationMismatch, "no"), arguments: arguments, code: "123-456")
        #expect(!wrong.message.contains("123-456"))
    }
}
