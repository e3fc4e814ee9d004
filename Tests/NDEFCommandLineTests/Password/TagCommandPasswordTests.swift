import Foundation
import Testing

@testable import NDEFCommandLine

/// The tag commands (`write`, `erase`, `format`, `lock`, `read`, `info`, `dump`) on a
/// password-protected simulated NTAG215: one PWD_AUTH in the command's own session, since
/// authentication ends when the tag is selected again (NTAG213/215/216 8.8 and 10.7).
@Suite(.timeLimit(.minutes(5))) struct TagCommandPasswordTests {
    static let password = ["NDEFTOOL_PASSWORD": "DEADBEEF"]
    /// `https://example.com` as an NDEF message (NFC Forum URI RTD 1.0, 3.2.2: prefix 04h).
    static let exampleCom = "d1010c55046578616d706c652e636f6d\n"

    /// A tag holding `https://example.com`, protected by DEADBEEF (PACK 8080) from page 4.
    func protectedTag(readProtected: Bool = false) async throws -> PasswordTagFile {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let set = try await tag.run(
            ["password", "set", "--pack", "8080"] + (readProtected ? ["--read-protect"] : []),
            environment: Self.password)
        #expect(set.status == 0, "\(set.error)")
        return tag
    }

    /// The password appears nowhere in what a command printed.
    func expectNoPassword(_ result: RunResult) {
        for text in [result.outputText, result.error] {
            #expect(!text.uppercased().contains("DEADBEEF"))
            #expect(!text.uppercased().contains("DE AD BE EF"))
        }
    }

    /// 8.8.1: writing from AUTH0 on needs PWD_AUTH; with NDEFTOOL_PASSWORD the write succeeds
    /// after exactly one, and the password is never shown, -v included.
    @Test func writeWithThePasswordFromTheEnvironment() async throws {
        let tag = try await protectedTag()
        let write = try await tag.run(["write", "-v", "uri", "https://example.org"], environment: Self.password)
        #expect(write.status == 0, "\(write.error)")
        #expect(PasswordTagFile.passwordAuthCount(write) == 1)
        #expect(write.error.contains("1B ** ** ** **"))
        expectNoPassword(write)
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e6f7267\n")
    }

    /// The same with --password-file, and --pack checked (8.8: the PACK answers PWD_AUTH).
    @Test func writeWithAPasswordFileAndPack() async throws {
        let tag = try await protectedTag()
        let file = try tag.passwordFile("DEADBEEF")
        let write = try await tag.run(["write", "--password-file", file, "--pack", "8080", "-v", "text", "Hi"])
        #expect(write.status == 0, "\(write.error)")
        #expect(PasswordTagFile.passwordAuthCount(write) == 1)
        expectNoPassword(write)
        let before = try await tag.run(["read", "--hex"]).outputText
        let otherPack = try await tag.run(["write", "--password-file", file, "--pack", "0000", "-v", "text", "No"])
        #expect(otherPack.status == 78)
        #expect(otherPack.error.contains("may not be genuine"))
        #expect(PasswordTagFile.passwordAuthCount(otherPack) == 1)
        #expect(try await tag.run(["read", "--hex"]).outputText == before)
    }

    /// No password for a protected tag: exit status 78, nothing written, and advice naming the
    /// ways to give it.
    @Test(arguments: [["write", "uri", "https://example.org"], ["erase"], ["format", "--force"]])
    func noPasswordIsRefusedWithAdvice(command: [String]) async throws {
        let tag = try await protectedTag()
        let result = try await tag.run(command)
        #expect(result.status == 78)
        #expect(result.error.contains("--password-file FILE"))
        #expect(result.error.contains("NDEFTOOL_PASSWORD"))
        #expect(result.error.contains("'ndeftool password remove'"))
        #expect(!result.error.contains("'ndeftool password auth'"))
        #expect(try await tag.run(["read", "--hex"]).outputText == Self.exampleCom)
    }

    /// 8.8.2: a wrong password is one PWD_AUTH, not retried; exit status 78 and the tag unchanged.
    @Test func wrongPasswordIsTriedOnce() async throws {
        let tag = try await protectedTag()
        let result = try await tag.run(
            ["write", "-v", "uri", "https://example.org"], environment: ["NDEFTOOL_PASSWORD": "00000000"])
        #expect(result.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(result) == 1)
        #expect(result.error.contains("tried once"))
        #expect(result.error.contains("Nothing was written to the tag. No attempt limit is set (AUTHLIM 0)"))
        #expect(!result.error.contains("WRITE"))
        #expect(tag.page(TagPasswordTests.pages["ntag215"]?.password ?? 0) == "DE AD BE EF")
        #expect(try await tag.run(["read", "--hex"]).outputText == Self.exampleCom)
    }

    /// 8.8.2: a refused password spends an attempt, and the message says so: how many remain at
    /// most when CFG1 shows AUTHLIM, that one counted if a limit is set when it cannot be read;
    /// a garbled answer to PWD_AUTH says that the attempt may have counted.
    @Test func aRefusedPasswordSaysTheAttemptCounted() async throws {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let set = try await tag.run(["password", "set", "--attempt-limit", "3"], environment: Self.password)
        #expect(set.status == 0, "\(set.error)")
        // From a machine without the record of the change (this one refuses a password it knows
        // to be wrong before sending it).
        let wrong = tag.elsewhere.merging(["NDEFTOOL_PASSWORD": "00000000"]) { $1 }
        let write = try await tag.run(["write", "uri", "https://example.org"], environment: wrong)
        #expect(write.status == 78)
        #expect(write.error.contains("The attempt limit is 3 (AUTHLIM): this attempt counted, so at most 2 remain"))
        #expect(!write.error.contains("nothing was changed"))
        #expect(tag.failedAttempts == 1)

        let reading = try PasswordTagFile()
        #expect(try await reading.run(["write", "uri", "https://example.com"]).status == 0)
        let protect = try await reading.run(
            ["password", "set", "--attempt-limit", "3", "--read-protect"], environment: Self.password)
        #expect(protect.status == 0, "\(protect.error)")
        let info = try await reading.run(["info"], environment: wrong)
        #expect(info.status == 78)
        #expect(info.error.contains("if one is set, this attempt counted"), "\(info.error)")
        #expect(!info.error.contains("nothing was changed"))
        #expect(reading.failedAttempts == 1)
        // The third answer is the one to PWD_AUTH (GET_VERSION, FAST_READ of CFG0-CFG1, PWD_AUTH).
        let garbled = try await reading.run(["info"], environment: wrong, faults: "&corrupt-every=3")
        #expect(garbled.status == 76)
        #expect(garbled.error.contains("a garbled answer to PWD_AUTH"), "\(garbled.error)")
        #expect(garbled.error.contains("if the password was wrong, the attempt counted"))
        #expect(reading.failedAttempts == 2)
    }

    /// A malformed password is a data error before the tag is reached.
    @Test func malformedPasswordIsADataError() async throws {
        let tag = try await protectedTag()
        let result = try await tag.run(["erase", "-v"], environment: ["NDEFTOOL_PASSWORD": "12345"])
        #expect(result.status == 65)
        #expect(!result.error.contains("12345"))
        #expect(PasswordTagFile.passwordAuthCount(result) == 0)
    }

    /// PROT (8.8.1): reading needs the password too; read, info and dump authenticate once.
    @Test func readProtectedTagIsReadWithThePassword() async throws {
        let tag = try await protectedTag(readProtected: true)
        for command in [["read", "--hex"], ["info"], ["dump", "-o", "-", "--format", "hex"]] {
            let refused = try await tag.run(command)
            #expect(refused.status == 78, "\(command)")
            #expect(refused.error.contains("NDEFTOOL_PASSWORD"), "\(command)")
            let read = try await tag.run(command + ["-v"], environment: Self.password)
            #expect(read.status == 0, "\(command): \(read.error)")
            #expect(PasswordTagFile.passwordAuthCount(read) == 1, "\(command)")
            expectNoPassword(read)
        }
        let write = try await tag.run(["write", "-v", "uri", "https://example.org"], environment: Self.password)
        #expect(write.status == 0, "\(write.error)")
        #expect(PasswordTagFile.passwordAuthCount(write) == 1)
        let read = try await tag.run(["read", "--hex"], environment: Self.password)
        #expect(read.outputText == "d1010c55046578616d706c652e6f7267\n")
    }

    /// An unprotected tag needs no PWD_AUTH, even with a password given.
    @Test func unprotectedTagIsNotAuthenticated() async throws {
        let tag = try PasswordTagFile()
        let write = try await tag.run(["write", "-v", "uri", "https://example.com"], environment: Self.password)
        #expect(write.status == 0, "\(write.error)")
        #expect(PasswordTagFile.passwordAuthCount(write) == 0)
    }

    /// Erase and format in the authenticated session (T2T 1.1, 6.3.1 and 6.4.1).
    @Test func eraseAndFormatWithThePassword() async throws {
        let tag = try await protectedTag()
        let erase = try await tag.run(["erase", "-v"], environment: Self.password)
        #expect(erase.status == 0, "\(erase.error)")
        #expect(PasswordTagFile.passwordAuthCount(erase) == 1)
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
        #expect(try await tag.run(["write", "text", "x"], environment: Self.password).status == 0)
        let format = try await tag.run(["format", "--force", "-v"], environment: Self.password)
        #expect(format.status == 0, "\(format.error)")
        #expect(PasswordTagFile.passwordAuthCount(format) == 1)
        expectNoPassword(format)
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")
    }

    /// `lock` on a protected tag: the same lock code with or without the password, then the
    /// lock after one PWD_AUTH (T2T 1.1, 6.4.4).
    @Test func lockWithThePassword() async throws {
        let tag = try await protectedTag()
        let plain = try PasswordTagFile.object(try await tag.run(["lock", "--dry-run", "--json"]))
        let withPassword = try PasswordTagFile.object(
            try await tag.run(["lock", "--dry-run", "--json"], environment: Self.password))
        let code = try #require(plain["code"] as? String)
        #expect(withPassword["code"] as? String == code)
        #expect(try await tag.run(["lock", "--confirm", code]).status == 78)
        let lock = try await tag.run(["lock", "--confirm", code, "-v"], environment: Self.password)
        #expect(lock.status == 0, "\(lock.error)")
        #expect(PasswordTagFile.passwordAuthCount(lock) == 1)
        expectNoPassword(lock)
        #expect(try await tag.run(["write", "text", "x"], environment: Self.password).status == 77)
    }

    /// `write --lock` on a protected tag: one PWD_AUTH for the write and the lock.
    @Test func writeAndLockWithThePassword() async throws {
        let tag = try await protectedTag()
        let refused = try await tag.run(["write", "--lock", "uri", "https://example.org"], environment: Self.password)
        #expect(refused.status == 79)
        let code = try #require(
            refused.outputText.split(separator: "\n").first { $0.hasPrefix("Lock code: ") }?
                .dropFirst("Lock code: ".count))
        let write = try await tag.run(
            ["write", "--lock", "--confirm", String(code), "-v", "uri", "https://example.org"],
            environment: Self.password)
        #expect(write.status == 0, "\(write.error)")
        #expect(PasswordTagFile.passwordAuthCount(write) == 1)
        #expect(write.outputText.contains("Locked: the tag is read-only for good."))
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e6f7267\n")
    }

    /// A password option on a tag command's command line is refused with 64 before the tag is
    /// touched, and its value is not repeated.
    @Test(arguments: [
        ["write", "--password", "DEADBEEF", "text", "x"], ["read", "--pwd=DEADBEEF"], ["erase", "--Password"],
    ])
    func passwordOnTheCommandLineIsRefused(command: [String]) async throws {
        let tag = try await protectedTag()
        let result = try await tag.run(command + ["-v"])
        #expect(result.status == 64)
        #expect(result.error.contains("--password-file FILE"))
        #expect(PasswordTagFile.passwordAuthCount(result) == 0)
        expectNoPassword(result)
        #expect(try await tag.run(["read", "--hex"]).outputText == Self.exampleCom)
    }

    /// At a terminal a protected tag and no password given: one prompt without echo, one
    /// PWD_AUTH; an unprotected tag: no prompt.
    @Test func terminalPromptsOnceWhenTheTagNeedsIt() async throws {
        let tag = try await protectedTag()
        let io = SecretPromptTestIO(typed: ["DEADBEEF"])
        let status = await NDEFCommandLine.run(
            ["write", "--reader", tag.reader(), "--wait", "0", "-q", "uri", "https://example.org"], io: io)
        #expect(status == .success, "\(io.error)")
        #expect(io.secretReads == 1)
        #expect(io.error.contains("The tag is password-protected. Enter the password"))
        #expect(!io.error.uppercased().contains("DEADBEEF"))
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e6f7267\n")

        let free = try PasswordTagFile()
        let quiet = SecretPromptTestIO(typed: ["DEADBEEF"])
        let written = await NDEFCommandLine.run(
            ["write", "--reader", free.reader(), "--wait", "0", "-q", "text", "x"], io: quiet)
        #expect(written == .success, "\(quiet.error)")
        #expect(quiet.secretReads == 0)
    }
}
