import Foundation
import NFCCrypto
import TagMemory
import TestSupport
import Testing

/// Originality signatures through the built binary: `info` and `inspect` say whether NXP's key
/// (or one of `--signature-key`) verifies a tag's signature, and `--require-genuine` keeps
/// `write`, `lock` and `batch` off tags it does not verify.
@Suite struct OriginalityCommandTests {
    static let realDump = PackagePaths.fixtures.appendingPathComponent("originality/unleashed_Ntag215.nfc").path

    /// A simulated NTAG215 with the UID and the signature of the real NTAG215 dump.
    static func genuineReader(file: String? = nil) throws -> String {
        let text = try String(contentsOfFile: realDump, encoding: .utf8)
        func value(_ key: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map {
                String($0.dropFirst(key.count + 2)).replacingOccurrences(of: " ", with: "")
            } ?? ""
        }
        return "sim:ntag215?uid=\(value("UID"))&signature=\(value("Signature"))" + (file.map { "&file=\($0)" } ?? "")
    }

    /// A key pair of the test's own on secp128r1: the private key's PEM file (for `signing-key=`)
    /// and the public key's DER file (for `--signature-key`).
    static func testKey(in folder: TemporaryDirectory) throws -> (privateKey: String, publicKey: String) {
        let key = try ECDSAPrivateKey(generatingOn: "secp128r1")
        return (
            try folder.file("test-key.pem", text: key.pemRepresentation),
            try folder.file("test-key.der", try key.publicKey.derRepresentation)
        )
    }

    @Test("info: a genuine tag's signature is valid under NXP's key; a simulated unsigned tag's is all zeros")
    func info() async throws {
        let genuine = try await BinaryRunner.run(["info", "--reader", try Self.genuineReader()])
        #expect(genuine.status == 0)
        #expect(
            genuine.outputText.contains("\noriginality signature: valid (NXP NTAG21x key)\n"), "\(genuine.outputText)")
        let json = try await BinaryRunner.run(["info", "--json", "--reader", try Self.genuineReader()])
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "info.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let signature = try #require(object["signature"] as? [String: Any])
        #expect(signature["verified"] as? Bool == true && signature["key"] as? String == "NXP NTAG21x key")
        #expect(signature["status"] as? String == "valid")

        let unsigned = try await BinaryRunner.run(["info", "--json", "--reader", "sim:ntag215"])
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(unsigned.output)) as? [String: Any])
        let zero = try #require(plain["signature"] as? [String: Any])
        #expect(zero["verified"] as? Bool == false && zero["status"] as? String == "allZero")
        #expect(zero["key"] is NSNull)
    }

    @Test("inspect: the real dumps verify; one changed signature byte does not")
    func inspect() async throws {
        let result = try await BinaryRunner.run(["inspect", Self.realDump])
        #expect(result.outputText.contains("\noriginality signature: valid (NXP NTAG21x key)\n"))
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        var text = try String(contentsOfFile: Self.realDump, encoding: .utf8)
        text = text.replacingOccurrences(of: "Signature: 42 21", with: "Signature: 42 20")
        let tampered = try folder.file("tampered.nfc", text: text)
        let changed = try await BinaryRunner.run(["inspect", tampered])
        #expect(
            changed.outputText.contains(
                "\noriginality signature: NOT VALID: not signed by NXP (a clone, or a chip this tool does not know)\n"),
            "\(changed.outputText)")
    }

    @Test("A tag signed with a test key verifies only with --signature-key naming that key")
    func testKeySignature() async throws {
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        let (privateKey, publicKey) = try Self.testKey(in: folder)
        let reader = "sim:ntag215?signing-key=\(privateKey)"
        let without = try await BinaryRunner.run(["info", "--reader", reader])
        #expect(without.outputText.contains("originality signature: NOT VALID: not signed by NXP"))
        let with = try await BinaryRunner.run(["info", "--reader", reader, "--signature-key", publicKey])
        #expect(with.outputText.contains("originality signature: valid (test-key.der)"), "\(with.outputText)")
        let garbage = try folder.file(
            "garbage.pem", text: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        let refused = try await BinaryRunner.run(["info", "--reader", reader, "--signature-key", garbage])
        #expect(refused.status == 65, "\(refused.error)")
    }

    @Test("write and lock --require-genuine refuse an unsigned tag with 82 before writing; a genuine one is written")
    func requireGenuine() async throws {
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        let file = folder.path("clone.nfc")
        let created = try await BinaryRunner.run(["write", "text", "before", "--reader", "sim:ntag215?file=\(file)"])
        #expect(created.status == 0, "\(created.error)")
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let write = try await BinaryRunner.run([
            "write", "uri", "https://example.com", "--require-genuine", "--reader", "sim:ntag215?file=\(file)",
        ])
        #expect(write.status == 82, "\(write.error)")
        #expect(write.error.contains("is refused by --require-genuine"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the refused tag was changed")
        let lock = try await BinaryRunner.run([
            "lock", "--require-genuine", "--confirm", "000-000", "--reader", "sim:ntag215?file=\(file)",
        ])
        #expect(lock.status == 82, "\(lock.error)")
        let type4 = try await BinaryRunner.run(["write", "text", "x", "--require-genuine", "--reader", "sim:type4"])
        #expect(type4.status == 82)

        let genuine = try await BinaryRunner.run([
            "write", "uri", "https://example.com", "--require-genuine", "--reader", try Self.genuineReader(),
        ])
        #expect(genuine.status == 0, "\(genuine.error)")
    }

    @Test(
        "batch --require-genuine: unsigned tags are refused and the rows wait; tags signed by a given key are written")
    func batchRequiresGenuine() async throws {
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        let (privateKey, publicKey) = try Self.testKey(in: folder)
        let refused = try await BinaryRunner.run([
            "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--require-genuine",
            "--journal", folder.path("refused.journal"), "--reader", "sim:ntag215?supply=3", "-q",
        ])
        #expect(refused.status == 75, "\(refused.error)")
        #expect(refused.outputText.contains("Done: 0 of 3 rows") && refused.outputText.contains("3 tags refused"))
        let done = try await BinaryRunner.run([
            "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--require-genuine",
            "--signature-key", publicKey, "--journal", folder.path("signed.journal"), "--reader",
            "sim:ntag215?supply=3&signing-key=\(privateKey)", "-q",
        ])
        #expect(done.status == 0, "\(done.output)\(done.error)")
    }

    @Test("READ_SIG through libnfc's pn532_uart driver and a served PN532: the signature verifies")
    func throughLibNFC() async throws {
        let directory = try TemporaryDirectory("originality")
        defer { directory.remove() }
        let link = directory.path("pn532")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, try Self.genuineReader()])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let info = try await BinaryRunner.run(
            ["info", "--reader", "libnfc:pn532_uart:\(link)", "--wait", "2"],
            environment: [
                "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": directory.path("config"), "LIBNFC_AUTO_SCAN": "false",
            ])
        #expect(info.status == 0, "\(info.error)")
        #expect(info.outputText.contains("\noriginality signature: valid (NXP NTAG21x key)\n"), "\(info.outputText)")
        server.terminate()
        #expect(try await server.waitForExit() == 0)
    }
}

extension OriginalityCommandTests {
    @Test(
        "--require-genuine and --signature-key are part of the job: a resume applies them, one without the keys is refused"
    )
    func genuineIsStoredWithTheJob() async throws {
        let folder = try TemporaryDirectory("originality")
        defer { folder.remove() }
        let (privateKey, publicKey) = try Self.testKey(in: folder)
        let journal = folder.path("job.journal")
        let signed = try folder.directory("signed")
        let unsigned = try folder.directory("unsigned")
        let started = try await BinaryRunner.run([
            "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "4", "--require-genuine",
            "--signature-key", publicKey, "--journal", journal, "--reader",
            "sim:ntag215?supply=2&signing-key=\(privateKey)&file=\(signed)/",
        ])
        #expect(started.status == 75, "\(started.output)\(started.error)")
        #expect(started.outputText.contains("Done: 2 of 4 rows"), "\(started.outputText)")
        // The printed way on names the key file again (the journal holds only its check value).
        let again = try #require(started.outputText.split(separator: "\n").first { $0.hasPrefix("Continue with: ") })
        #expect(again.contains("--signature-key"), "\(again)")
        // A resume without the options, on tags whose signatures are all zeros: every tag refused.
        let careless = try await BinaryRunner.run([
            "batch", "--resume", journal, "--signature-key", publicKey, "--reader",
            "sim:ntag215?supply=2&seed=9&file=\(unsigned)/", "-q",
        ])
        #expect(careless.status == 75, "\(careless.output)\(careless.error)")
        #expect(careless.outputText.contains("Done: 2 of 4 rows (0 in this run"), "\(careless.outputText)")
        #expect(careless.outputText.contains("2 tags refused"), "\(careless.outputText)")
        for (_, file) in try BatchFiles.tagFiles(in: unsigned + "/") {
            #expect(try BatchFiles.memory(ofTagFile: file).message == nil, "an unsigned tag was written")
        }
        // Without the job's own key: refused before any reader (its signed tags would fail).
        let keyless = try await BinaryRunner.run([
            "batch", "--resume", journal, "--reader", "sim:ntag215?supply=2&signing-key=\(privateKey)", "-q",
        ])
        #expect(keyless.status == 65, "\(keyless.error)")
        #expect(keyless.error.contains("give the same key files again"), "\(keyless.error)")
        // With its key and signed tags, the job finishes.
        let finished = try await BinaryRunner.run([
            "batch", "--resume", journal, "--signature-key", publicKey, "--reader",
            "sim:ntag215?supply=2&seed=3&signing-key=\(privateKey)", "-q",
        ])
        #expect(finished.status == 0, "\(finished.output)\(finished.error)")
    }
}
