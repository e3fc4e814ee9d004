import Foundation
import Testing

@testable import NDEFCommandLine

/// `read` and `dump` of a read-protected tag (PROT, NTAG213/215/216 8.8.1) without a password:
/// exit status 78, the page the protection starts at, and how to give the password.
@Suite(.timeLimit(.minutes(5))) struct ReadProtectionTests {
    /// A simulated NTAG215 holding a message, then protected for reading from `page` on.
    static func protectedTag(from page: Int) async throws -> PasswordTagFile {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let set = try await tag.run(
            ["password", "set", "--password-file", "-", "--read-protect", "--from-page", String(page)],
            input: Array("DEADBEEF\n".utf8))
        #expect(set.status == 0, "\(set.error)")
        return tag
    }

    /// AUTH0 16 is behind the protection (CFG0 is page 131): the first page that does not read
    /// is found with single-page FAST_READs, never PWD_AUTH.
    @Test func readSaysFromWhichPageAndHowToGiveThePassword() async throws {
        let tag = try await Self.protectedTag(from: 16)
        let result = try await tag.run(["read", "-v"])
        #expect(result.status == 78)
        #expect(
            result.error.contains(
                "Error: reading the tag: the tag is read-protected from page 16 on (found by reading: AUTH0 is "
                    + "behind the protection too): reading needs its password (authentication-required)\n"
                    + "Give the password with --password-file FILE or the NDEFTOOL_PASSWORD environment variable"),
            "\(result.error)")
        #expect(!result.error.contains("pages 0-31"))
        #expect(result.error.contains("FAST_READ"))
        #expect(!result.error.contains("PWD_AUTH"))
        let read = try await tag.run(["read", "--hex"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(read.outputText == "d1010c55046578616d706c652e636f6d\n")
    }

    /// AUTH0 133 (PWD) leaves CFG0 and CFG1 readable: AUTH0 is read from CFG0. Reading the
    /// message works; dumping the whole memory does not.
    @Test func dumpSaysTheAUTH0ItRead() async throws {
        let tag = try await Self.protectedTag(from: 133)
        #expect(try await tag.run(["read"]).outputText.contains("  URI: https://example.com\n"))
        let result = try await tag.run(["dump", "-o", "-"])
        #expect(result.status == 78)
        #expect(
            result.error.hasPrefix(
                "Error: dumping the tag: the tag is read-protected from page 133 on (AUTH0 85h, PROT 1): reading "
                    + "needs its password (authentication-required)\n"), "\(result.error)")
        #expect(result.output.isEmpty)
    }
}
