import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// Standard streams of a person at a terminal: secret lines typed in turn.
final class SecretPromptTestIO: CommandIO {
    var output: [UInt8] = []
    var error = ""
    var typed: [String]
    var secretReads = 0

    init(typed: [String]) { self.typed = typed }

    func readStandardInput() throws(CommandLineError) -> [UInt8] { [] }
    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) { output += bytes }
    func writeError(_ text: String) { error += text }
    func environment(_ name: String) -> String? { nil }
    func isTerminal(_ stream: StandardStream) -> Bool { true }
    func readLine() -> String? { typed.isEmpty ? nil : typed.removeFirst() }
    func readSecretLine() -> String? {
        secretReads += 1
        return readLine()
    }
    var pcsc = PCSCDirectory.unavailable
    var libnfc = LibNFCDirectory.none
}

/// How passwords are written and where they come from (NTAG213/215/216 8.8: PWD is 4 bytes).
@Suite struct PasswordInputTests {
    @Test(
        arguments: [
            ("DEADBEEF", [0xDE, 0xAD, 0xBE, 0xEF]), ("de:ad:be:ef", [0xDE, 0xAD, 0xBE, 0xEF]),
            ("DE AD BE EF\r", [0xDE, 0xAD, 0xBE, 0xEF]), ("n0tE", [0x6E, 0x30, 0x74, 0x45]),
            ("1234", [0x31, 0x32, 0x33, 0x34]), ("    ", [0x20, 0x20, 0x20, 0x20]),
        ] as [(String, [UInt8])])
    func parsesHexOrFourCharacters(text: String, expected: [UInt8]) throws {
        #expect(try PasswordInput.parse(text, origin: "test") == expected)
    }

    @Test(arguments: ["", "abc", "abcde", "passw0rd", "CAFEBAB", "DEADBEEF00", "é12", "ab\u{7F}c"])
    func refusesOtherForms(text: String) {
        do {
            _ = try PasswordInput.parse(text, origin: "the test value")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.status == .dataError)
            #expect(error.message.hasPrefix("the test value is not a password"))
            if !text.isEmpty { #expect(!error.message.contains(text)) }
        }
    }

    /// `set` asks twice without echo; two different passwords write nothing.
    @Test func setAsksTwiceAndCompares() async throws {
        let folder = try TemporaryDirectory("cli")
        let reader = "sim:ntag215?file=\(folder.path("tag.nfc"))"
        let mismatch = SecretPromptTestIO(typed: ["DEADBEEF", "DEADBEEE"])
        let refused = await NDEFCommandLine.run(["password", "set", "--reader", reader, "--wait", "0"], io: mismatch)
        #expect(refused == .dataError)
        #expect(mismatch.secretReads == 2)
        #expect(mismatch.error.contains("the two passwords typed differ"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("tag.nfc")))

        let same = SecretPromptTestIO(typed: ["DEADBEEF", "de ad be ef"])
        let set = await NDEFCommandLine.run(["password", "set", "--reader", reader, "--wait", "0"], io: same)
        #expect(set == .success, "\(same.error)")
        #expect(same.secretReads == 2)
        #expect(!same.error.uppercased().contains("DEADBEEF"))

        // Changing it asks for the old one first (one secret read), then the new one twice.
        let change = SecretPromptTestIO(typed: ["11223344", "11223344", "DEADBEEF"])
        let changed = await NDEFCommandLine.run(["password", "set", "--reader", reader, "--wait", "0"], io: change)
        #expect(changed == .success, "\(change.error)")
        #expect(change.secretReads == 3)
        #expect(change.error.contains("Enter the current (old) password"))
    }

    /// No file, no variable, no terminal: exit status 78 and where passwords come from.
    @Test func noPasswordAnywhere() async {
        let result = await runInProcess(["password", "auth", "--reader", "sim:ntag215", "--wait", "0"])
        #expect(result.status == 78)
        #expect(result.error.contains("NDEFTOOL_PASSWORD"))
    }

    /// A malformed password in the variable is refused before the tag, without its value.
    @Test func malformedVariable() async {
        let result = await runInProcess(
            ["password", "auth", "--reader", "sim:ntag215", "--wait", "0"], variables: ["NDEFTOOL_PASSWORD": "hunter2"])
        #expect(result.status == 65)
        #expect(result.error.contains("$NDEFTOOL_PASSWORD is not a password"))
        #expect(!result.error.contains("hunter2"))
    }

    @Test func refusalLeavesOtherCommandsAlone() {
        #expect(PasswordArguments.refusal(["write", "text", "--password"]) == nil)
        #expect(
            PasswordArguments.refusal(["password", "set", "--password-file", "x", "--reader", "sim:ntag215"]) == nil)
        #expect(PasswordArguments.refusal(["password", "auth", "--wait", "0", "--json"]) == nil)
        #expect(PasswordArguments.refusal(["password", "set", "--password", "x"])?.status == .usage)
    }
}
