import Foundation
import NFCCrypto
import NTAG424
import TestSupport
import Testing

/// `batch --sdm-master-key-file`: NTAG 424 DNA secure messages set up on a supply of tags, each
/// with its own keys diversified from the master key (AN10922), verified by `sdm verify
/// --master-key-file`; no tag's URL verifies with another tag's keys, and no key is written to
/// the journal or the reports.
@Suite("batch with NTAG 424 DNA secure messages", .timeLimit(.minutes(10)))
struct BatchSDMTests {
    static let template = "https://x.example/t/{counter}?picc_data={picc}&cmac={mac}"
    static let master: [UInt8] = (0..<16).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 7) }

    /// The job code `--dry-run` shows.
    static func code(_ job: BatchFolder, _ arguments: [String]) async throws -> String {
        let dry = try await job.run(arguments + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.error)")
        let line = try #require(dry.output.split(separator: "\n").first { $0.hasPrefix("Job code (") })
        return String(try #require(line.split(separator: ": ").last))
    }

    /// The URL each tag file of `tags` gives on one read, by UID.
    static func urls(_ job: BatchFolder, tags: String) async throws -> [String: String] {
        var urls: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: tags) where name.hasSuffix(".t4t") {
            let read = try await job.run(["read", "--reader", "sim:ntag424?file=\(tags)\(name)", "--wait", "0"])
            #expect(read.status == 0, "\(read.error)")
            let line = read.output.split(separator: "\n").first { $0.contains("URI: ") }
            urls[String(name.dropLast(4))] = line.flatMap { $0.split(separator: "URI: ").last }.map(String.init)
        }
        return urls
    }

    @Test("50 tags: each tag's URL verifies with keys derived from the master, and with no other tag's keys")
    func fiftyTags() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keyFile = try job.file("master.hex", hexText(Self.master) + "\n")
        let arguments = [
            "batch", "uri", Self.template, "--from", "1", "--to", "50", "--journal", "sdm.journal",
            "--sdm-master-key-file", keyFile, "--reader", "sim:ntag424?supply=50&seed=7&file=\(tags)", "-q",
        ]
        let unconfirmed = try await job.run(arguments)
        #expect(unconfirmed.status == 79, "changing keys needs the job's code: \(unconfirmed.error)")
        let code = try await Self.code(job, arguments)
        let run = try await job.run(arguments + ["--confirm", code])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("sdm.journal"), rows: 50)

        let urls = try await Self.urls(job, tags: tags)
        #expect(urls.count == 50)
        let uids = urls.keys.sorted()
        let lines = uids.compactMap { urls[$0] }.joined(separator: "\n") + "\n"
        let checked = try await BinaryRunner.run(
            ["sdm", "verify", "-", "--json", "--master-key-file", keyFile], input: Array(lines.utf8))
        #expect(checked.status == 0, "\(checked.outputText)")
        let results = checked.outputText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(results.map { $0["uid"] as? String } == uids.map { $0 })
        #expect(results.allSatisfy { $0["valid"] as? Bool == true && $0["counter"] as? Int == 2 })
        for (row, uid) in byRow {
            #expect(urls[uid]?.hasPrefix("https://x.example/t/\(row)?picc_data=") == true, "row \(row)")
        }

        // Another tag's keys: PICCData decrypts (the meta-read key is shared), the SDMMAC does not verify.
        let masterKey = try NTAG424MasterKey(Self.master)
        for (index, uid) in uids.enumerated() {
            let url = try NTAG424SUNURL(try #require(urls[uid]))
            let own = try NTAG424SUNVerifier(
                metaReadKey: masterKey.sharedMetaReadKey, fileReadKey: try masterKey.tagKey(2, uid: hex(uid)))
            #expect(url.verify(with: own).isValid, "\(uid)")
            let other = hex(uids[(index + 1) % uids.count])
            let foreign = try NTAG424SUNVerifier(
                metaReadKey: masterKey.sharedMetaReadKey, fileReadKey: try masterKey.tagKey(2, uid: other))
            #expect(!url.verify(with: foreign).isValid, "\(uid)'s URL with \(hexText(other))'s keys")
        }

        // No key in the journal or the reports: not the master, not any tag's.
        var secrets = [hexText(Self.master)]
        for uid in uids.prefix(5) {
            secrets += try masterKey.keys(uid: hex(uid)).map { hexText($0) }
        }
        for file in ["sdm.journal", "sdm.report.csv", "sdm.report.json"] {
            let text = try String(contentsOfFile: job.path(file), encoding: .utf8).uppercased()
            #expect(!secrets.contains { text.contains($0.uppercased()) }, "\(file) holds a key")
        }
    }

    @Test("Every tag leaves mid-set-up: the rows wait for their tags (80); the resume finishes them, and they verify")
    func interruptedAndResumed() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keyFile = try job.file("master.hex", hexText(Self.master))
        let arguments = [
            "batch", "uri", Self.template, "--from", "1", "--to", "3", "--journal", "cut.journal",
            "--sdm-master-key-file", keyFile, "-q",
        ]
        let code = try await Self.code(job, arguments)
        let cut = try await job.run(
            arguments + ["--reader", "sim:ntag424?supply=3&seed=3&file=\(tags)&remove-after=25", "--confirm", code])
        #expect(cut.status == 80, "\(cut.output)\(cut.error)")
        #expect(cut.output.contains("--sdm-master-key-file"), "the resume line names the key file: \(cut.output)")
        let withoutKey = try await job.run(["batch", "--resume", job.path("cut.journal")])
        #expect(withoutKey.status == 64 && withoutKey.error.contains("--sdm-master-key-file"), "\(withoutKey.error)")
        let otherKey = try job.file("other.hex", String(repeating: "5", count: 32))
        let wrongKey = try await job.run([
            "batch", "--resume", job.path("cut.journal"), "--sdm-master-key-file", otherKey, "--reader",
            "sim:ntag424?supply=3&seed=3&file=\(tags)", "--confirm", code,
        ])
        #expect(
            wrongKey.status == 65 && wrongKey.error.contains("not the one this job started with"), "\(wrongKey.error)")
        let resumed = try await job.run([
            "batch", "--resume", job.path("cut.journal"), "--sdm-master-key-file", keyFile, "--reader",
            "sim:ntag424?supply=3&seed=3&file=\(tags)", "--confirm", code, "-q",
        ])
        #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
        try BatchFiles.expectEveryRowDoneOnce(job.path("cut.journal"), rows: 3)
        let urls = try await Self.urls(job, tags: tags)
        #expect(urls.count == 3)
        for (uid, url) in urls {
            let checked = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", keyFile, url])
            #expect(checked.outputText.hasPrefix("valid: UID \(uid),"), "\(checked.outputText)")
        }
    }

    @Test(
        "--sdm-from-master-key-file: tags set up with one master moved to another's keys and a new URL; cut, resumed"
    )
    func rotation() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let first = try job.file("first.hex", hexText(Self.master))
        let second = try job.file("second.hex", String(repeating: "7c", count: 16))
        let reader = "sim:ntag424?supply=4&seed=9&file=\(tags)"
        let setUp = [
            "batch", "uri", Self.template, "--from", "1", "--to", "4", "--journal", "first.journal",
            "--sdm-master-key-file", first, "-q",
        ]
        let done = try await job.run(setUp + ["--reader", reader, "--confirm", try await Self.code(job, setUp)])
        #expect(done.status == 0, "\(done.output)\(done.error)")
        // The second job: the same tags, a new URL, the second master's keys at the same version
        // (1): which key a tag holds is proven by authenticating.
        let move = [
            "batch", "uri", "https://y.example/v2/{counter}?picc_data={picc}&cmac={mac}", "--from", "1", "--to", "4",
            "--journal", "move.journal", "--sdm-master-key-file", second, "--sdm-from-master-key-file", first, "-q",
        ]
        let code = try await Self.code(job, move)
        #expect(code != (try await Self.code(job, setUp)))
        let cut = try await job.run(move + ["--reader", reader + "&remove-after=30", "--confirm", code])
        #expect(cut.status == 80, "\(cut.output)\(cut.error)")
        #expect(cut.output.contains("--sdm-from-master-key-file"), "the resume line names the key: \(cut.output)")
        let resume = ["batch", "--resume", job.path("move.journal"), "--sdm-master-key-file", second]
        let withoutOld = try await job.run(resume + ["--reader", reader, "--confirm", code])
        #expect(
            withoutOld.status == 64 && withoutOld.error.contains("--sdm-from-master-key-file"), "\(withoutOld.error)")
        let otherOld = try job.file("other.hex", String(repeating: "5", count: 32))
        let wrongOld = try await job.run(
            resume + ["--sdm-from-master-key-file", otherOld, "--reader", reader, "--confirm", code])
        #expect(
            wrongOld.status == 65 && wrongOld.error.contains("not the one this job started with"), "\(wrongOld.error)")
        let resumed = try await job.run(
            resume + ["--sdm-from-master-key-file", first, "--reader", reader, "--confirm", code])
        #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
        try BatchFiles.expectEveryRowDoneOnce(job.path("move.journal"), rows: 4)
        let urls = try await Self.urls(job, tags: tags)
        #expect(urls.count == 4)
        for (uid, url) in urls {
            #expect(url.hasPrefix("https://y.example/v2/"), "\(uid): \(url)")
            let new = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", second, url])
            #expect(new.outputText.hasPrefix("valid: UID \(uid),"), "\(new.outputText)")
            let old = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", first, url])
            #expect(old.status == 83, "\(old.outputText)")
        }
        let journal = try String(contentsOfFile: job.path("move.journal"), encoding: .utf8).uppercased()
        #expect(
            !journal.contains(hexText(Self.master).uppercased())
                && !journal.contains(String(repeating: "7C", count: 16)))
    }

    @Test(
        "--require-genuine: tags whose Read_Sig verifies (a test key on secp224r1) are set up; copied signatures are not"
    )
    func requireGenuine() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keyFile = try job.file("master.hex", hexText(Self.master))
        let key = try ECDSAPrivateKey(generatingOn: "secp224r1")
        let privateKey = try job.folder.file("k224.pem", text: key.pemRepresentation)
        let publicKey = try job.folder.file("k224.der", try key.publicKey.derRepresentation)
        let arguments = [
            "batch", "uri", Self.template, "--from", "1", "--to", "2", "--sdm-master-key-file", keyFile,
            "--require-genuine", "--signature-key", publicKey, "-q",
        ]
        let code = try await Self.code(job, arguments)
        // Every tag of this supply answers AN12196's signature, which is 04518DFAA96180's only.
        let copied = try await job.run(
            arguments + [
                "--journal", "copied.journal", "--confirm", code, "--reader",
                "sim:ntag424?supply=2&seed=4&signature=" + NTAG424OriginalityFixture.signature, "--wait", "1",
            ])
        #expect(copied.status == 75, "\(copied.output)\(copied.error)")
        #expect(copied.output.contains("0 of 2 rows") && copied.output.contains("2 tags refused"), "\(copied.output)")
        let journal = try String(contentsOfFile: job.path("copied.journal"), encoding: .utf8)
        #expect(!journal.contains("\"writing\""), "no tag was bound to a row")
        let signed = try await job.run(
            arguments + [
                "--journal", "signed.journal", "--confirm", code, "--reader",
                "sim:ntag424?supply=2&seed=4&file=\(tags)&signing-key=\(privateKey)",
            ])
        #expect(signed.status == 0, "\(signed.output)\(signed.error)")
        #expect(try await Self.urls(job, tags: tags).count == 2)
    }
}

/// AN12196 7.2's originality signature of UID 04518DFAA96180.
enum NTAG424OriginalityFixture {
    static let signature =
        "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"
}

extension BatchSDMTests {
    @Test(
        "{enc:FIELD}: each tag encrypts its row's field as file data; sdm verify decrypts it; a field of none refused")
    func encryptedFileData() async throws {
        let job = try BatchFolder()
        defer { job.folder.remove() }
        let tags = try job.tagDirectory()
        let keyFile = try job.file("master.hex", hexText(Self.master) + "\n")
        let arguments = [
            "batch", "uri", "https://x.example/t?picc_data={picc}&enc={enc:counter}&cmac={mac}", "--from", "1",
            "--to", "5", "--journal", "sdm-enc.journal", "--sdm-master-key-file", keyFile,
            "--reader", "sim:ntag424?supply=5&seed=9&file=\(tags)", "-q",
        ]
        let code = try await Self.code(job, arguments)
        let run = try await job.run(arguments + ["--confirm", code])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("sdm-enc.journal"), rows: 5)
        let urls = try await Self.urls(job, tags: tags)
        for (row, uid) in byRow {
            let url = try #require(urls[uid], "row \(row)")
            let checked = try await BinaryRunner.run(["sdm", "verify", "--json", "--master-key-file", keyFile, url])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.output)) as? [String: Any])
            #expect(object["valid"] as? Bool == true, "\(checked.outputText)")
            let data = String(row) + String(repeating: " ", count: 16 - String(row).count)
            #expect(object["fileData"] as? String == data, "row \(row): \(checked.outputText)")
        }
        // A field the plan does not have: refused before any tag, naming it.
        let unknown = try await job.run([
            "batch", "uri", "https://x.example/t?picc_data={picc}&enc={enc:nothing}&cmac={mac}", "--from", "1",
            "--to", "2", "--journal", "other.journal", "--sdm-master-key-file", keyFile, "--reader", "sim:ntag424",
            "--dry-run",
        ])
        #expect(unknown.status != 0 && unknown.error.contains("nothing"), "\(unknown.error)")
    }
}
