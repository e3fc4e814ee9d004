import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

extension BatchBinaryTests {
    /// A one-row `ndeftool batch --derive-passwords` job cut at every tag command, the command in
    /// flight carried out, not carried out, or torn; then resumed from its journal on the same
    /// tag (NTAG213/215/216 8.8, 10.4).
    @Suite struct BatchPasswordTearingTests {
        static let secret = "tearing matrix master secret"

        @Test(
            "A job cut at every command leaves a tag the derived password opens, or an open one; the resume completes",
            arguments: ["tear", "none", "complete"])
        func everyCut(inFlight: String) async throws {
            let derivation = try TagPasswordDerivation(masterSecret: Array(Self.secret.utf8))
            var cut = 1
            while cut < 60 {
                let job = try BatchFolder()
                let tag = job.path("tag.nfc")
                _ = try job.file("secret.txt", Self.secret + "\n")
                let first = try await job.run([
                    "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "1", "--journal",
                    "one.journal", "--derive-passwords", "--master-secret-file", "secret.txt", "--attempt-limit", "3",
                    "--reader", "sim:ntag215?file=\(tag)&remove-after=\(cut)&in-flight=\(inFlight)", "--wait", "0.2",
                ])
                if first.status == 0 { break }  // the job needs fewer commands: every cut was tried
                let context = "cut at command \(cut) (\(inFlight))"
                // The simulator saves the tag file when the tag changes: none yet is a factory tag.
                if FileManager.default.fileExists(atPath: tag) {
                    let dump = try BatchFiles.dump(ofTagFile: tag)
                    let derived = try derivation.derive(uid: try #require(dump.uid))
                    let memory = Type2Memory(bytes: dump.memory, chip: .ntag215)
                    let protected = memory.configuration?.firstProtectedPage != nil
                    #expect(!protected || dump.password == derived.password, "\(context): a password nobody knows")
                }

                let resumed = try await job.run([
                    "batch", "--resume", "one.journal", "--master-secret-file", "secret.txt", "--reader",
                    "sim:ntag215?file=\(tag)", "--wait", "0.2", "-v",
                ])
                #expect(resumed.status == 0, "\(context), resumed: \(resumed.output)\(resumed.error)")
                let after = try BatchFiles.dump(ofTagFile: tag)
                let derived = try derivation.derive(uid: try #require(after.uid))
                let configuration = Type2Memory(bytes: after.memory, chip: .ntag215).configuration
                #expect(
                    after.password == derived.password && after.passwordAcknowledge == derived.passwordAcknowledge,
                    "\(context)")
                #expect(configuration?.firstProtectedPage == 4, "\(context)")
                #expect(configuration?.authenticationLimit == 3, "\(context)")
                #expect(after.failedAuthenticationAttempts ?? 0 == 0, "\(context)")
                try BatchFiles.expectEveryRowDoneOnce(job.path("one.journal"), rows: 1)
                cut += 1
            }
            #expect(cut > 10, "the job was cut \(cut - 1) times")
        }
    }
}
