import Foundation
import TestSupport
import Testing

/// Standard input can be read once: two options that both want it are refused before either
/// reads it (through the built binary, as a script would run it).
@Suite(.timeLimit(.minutes(3))) struct StandardInputConflictTests {
    @Test("write --from - --password-file -: 64, saying both want standard input; the tag is not touched")
    func writeFromStandardInputWithPasswordFromStandardInput() async throws {
        let folder = try TemporaryDirectory("stdin")
        let tag = folder.path("tag.nfc")
        let message = hex("D1 01 0B 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D")
        let result = try await BinaryRunner.run(
            ["write", "--from", "-", "--password-file", "-", "--reader", "sim:ntag215?file=\(tag)"],
            input: message + Array("DEADBEEF\n".utf8))
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("--from - and --password-file - both want standard input"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: tag), "the tag was reached")
        folder.remove()
    }
}
