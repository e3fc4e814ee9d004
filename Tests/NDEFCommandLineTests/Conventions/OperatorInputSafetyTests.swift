import Foundation
import TestSupport
import Testing

/// What a careless or hostile operator gives the tool (a secret in a database URL, a URL that
/// tries to forge output, a parameter given twice, bytes that are not UTF-8, a password in a raw
/// write), through the built binary: refused before anything happens, and never echoed.
@Suite struct OperatorInputSafetyTests {
    static let secret = "S3cretPW"

    @Test(
        "--database with sslpassword=, a user name holding a colon, or password= inside a value: 64, the secret never shown",
        arguments: [
            "postgresql://tags@db.example/jobs?sslpassword=S3cretPW",
            "postgresql://pgtest%3AS3cretPW@db.example/jobs",
            "host=db.example dbname='x password=S3cretPW'",
            "host=db.example sslpassword=S3cretPW dbname=jobs",
        ])
    func databaseSecretsRefused(url: String) async throws {
        let result = try await BinaryRunner.run(
            ["batch", "status", "--job", "tags", "--database", url], environment: ["NDEFTOOL_DATABASE_URL": ""])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("--database holds a password"), "\(result.error)")
        #expect(!result.error.contains(Self.secret) && !result.outputText.contains(Self.secret), "\(result.error)")
    }

    @Test("sdm verify in text mode escapes a URL's CR and ESC: no forged `valid:` line, no terminal escape")
    func verifyEscapesControls() async throws {
        let folder = try SDMVerifyCommandTests.keys()
        defer { folder.remove() }
        let forged =
            "https://x.test/?picc_data=EF963FF7828658A599F3041510671E8\r\u{1B}[2Kvalid: UID 04DE5F1EACC040, counter 61"
            + "&cmac=94EED9EE65337086"
        let keys = ["--meta-read-key-file", folder.path("zero.hex"), "--file-read-key-file", folder.path("zero.hex")]
        for result in [
            try await BinaryRunner.run(["sdm", "verify", forged] + keys),
            try await BinaryRunner.run(["sdm", "verify", "-"] + keys, input: Array((forged + "\n").utf8)),
        ] {
            #expect(result.status == 83, "\(result.outputText)")
            #expect(!result.output.contains(0x0D) && !result.output.contains(0x1B), "\(result.outputText)")
            #expect(result.outputText.hasPrefix("NOT VALID:"), "\(result.outputText)")
            #expect(result.outputText.split(separator: "\n").count == 1, "\(result.outputText)")
        }
    }

    @Test("A URL with cmac or picc_data twice is refused (83), whichever copy verifies")
    func duplicateParameters() async throws {
        let folder = try SDMVerifyCommandTests.keys()
        defer { folder.remove() }
        let keys = ["--meta-read-key-file", folder.path("zero.hex"), "--file-read-key-file", folder.path("zero.hex")]
        for url in [
            SDMVerifyCommandTests.url + "&cmac=0000000000000000",
            "https://x.test/?cmac=0000000000000000&" + SDMVerifyCommandTests.url.dropFirst("https://x.test/?".count),
            SDMVerifyCommandTests.url + "&picc_data=00000000000000000000000000000000",
        ] {
            let result = try await BinaryRunner.run(["sdm", "verify", url] + keys)
            #expect(result.status == 83, "\(url): \(result.outputText)")
            #expect(result.outputText.contains("more than once"), "\(result.outputText)")
        }
    }

    @Test("$NDEFTOOL_READER that is not UTF-8 is refused with 65, like such an argument; no file is made")
    func readerVariableNotUTF8() async throws {
        let folder = try TemporaryDirectory("encoding")
        let executable = try #require(BinaryRunner.executable)
        let script = "NDEFTOOL_READER=\"$(printf 'sim:ntag215?file=\\377.nfc')\" exec \"$0\" read --wait 0"
        let process = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, executable.path], directory: folder.url)
        let result = await process.finish()
        #expect(result.status == 65, "\(result.error)")
        #expect(result.error.contains("$NDEFTOOL_READER is not valid UTF-8"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("raw: a WRITE of the PWD page is refused even with --force (the password would be on the command line)")
    func rawPasswordWriteRefused() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let result = try await tag.run(["raw", "A28511223344", "--force"])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("writes the PWD page"), "\(result.error)")
        #expect(!result.outputText.contains("11 22 33 44") && !result.error.contains("11 22 33 44"))
        #expect(tag.contents() == before)
        // The PACK page is no secret: a forced write goes through.
        #expect(try await tag.run(["raw", "A28680800000", "--force"]).status == 0)
    }

    @Test("-q leaves out the attempt-limit warning of password set")
    func quietDropsWarning() async throws {
        let tag = try PasswordTagFile()
        _ = try tag.passwordFile("DEADBEEF", name: "pw.txt")
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let quiet = try await tag.run([
            "password", "set", "--password-file", tag.resolving("pw.txt"), "--attempt-limit", "2", "-q",
        ])
        #expect(quiet.status == 0, "\(quiet.error)")
        #expect(!quiet.error.contains("Warning"), "\(quiet.error)")
    }
}
