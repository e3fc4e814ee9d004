import Foundation
import TestSupport
import Testing

/// A process that holds a password or a master secret keeps itself out of core dumps
/// (`prctl(PR_SET_DUMPABLE, 0)`, proc(5)) and clears the bytes it read the secret from.
@Suite struct SecretMemoryTests {
    static let notice = "The process holds a secret: it is kept out of core dumps (PR_SET_DUMPABLE 0)."

    @Test("password set, a tag command with $NDEFTOOL_PASSWORD, batch --derive-passwords: not dumpable")
    func processesWithSecretsAreNotDumpable() async throws {
        let tag = try PasswordTagFile()
        let file = try tag.passwordFile("DEADBEEF")
        let set = try await tag.run(["password", "set", "--password-file", file, "-v"])
        #expect(set.status == 0, "\(set.error)")
        #expect(set.error.hasPrefix(Self.notice + "\n"), "\(set.error)")
        let read = try await tag.run(["read", "-v"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.error.contains(Self.notice))
        // No secret, no notice.
        let status = try await tag.run(["password", "status", "-v"])
        #expect(status.status == 0)
        #expect(!status.error.contains("core dumps"))

        let folder = try TemporaryDirectory("cli")
        let batch = try await BinaryRunner.run(
            [
                "batch", "uri", "https://example.com/{counter}", "--from", "1", "--to", "1", "--derive-passwords",
                "--journal", folder.path("job.journal"), "--reader", "sim:ntag215", "--wait", "0.2", "-v",
            ],
            environment: ["NDEFTOOL_READER": "", "NDEFTOOL_MASTER_SECRET": "a master secret of 32 bytes, or so"])
        #expect(batch.status == 0, "\(batch.error)")
        #expect(batch.error.contains(Self.notice), "\(batch.error)")
    }
}
