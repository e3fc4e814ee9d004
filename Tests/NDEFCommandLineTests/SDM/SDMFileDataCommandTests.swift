import Foundation
import TestSupport
import Testing

/// `sdm setup` with `{enc}` and `--enc-data` (SDMENCFileData, NT4H2421Gx 9.3.6) through the
/// built binary on simulated NTAG 424 DNA tags: every read encrypts the data afresh, `sdm verify`
/// decrypts it, cuts and reruns with other data finish with the plan's data.
@Suite("sdm setup with encrypted file data", .timeLimit(.minutes(10)))
struct SDMFileDataCommandTests {
    static let url = "https://x.example/t?picc_data={picc}&enc={enc}&cmac={mac}"

    static func setUp(_ setting: SDMSetupCommandTests.Setting, data: String = "lot 2026-12") -> [String] {
        ["sdm", "setup", "--url", url, "--enc-data", data, "--keys-file", setting.keysFile]
    }

    /// Runs `arguments` after taking its code from `--dry-run`.
    static func confirmed(
        _ arguments: [String], reader: String, cut: String = "",
        environment: [String: String] = SDMSetupCommandTests.environment
    ) async throws -> RunResult {
        let dry = try await SDMSetupCommandTests.run(
            arguments + ["--dry-run"], reader: reader, environment: environment)
        let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
        let code = try #require(line.map { String($0.dropFirst("Set-up code: ".count)) }, "\(dry.outputText)")
        return try await SDMSetupCommandTests.run(
            arguments + ["--confirm", code], reader: reader + cut, environment: environment)
    }

    /// The URLs of `count` reads, checked by `sdm verify --json`: the objects.
    static func taps(_ count: Int, _ setting: SDMSetupCommandTests.Setting) async throws -> [[String: Any]] {
        var urls: [String] = []
        for _ in 0..<count {
            let read = try await SDMSetupCommandTests.run(["read"], reader: setting.reader)
            let line = read.outputText.split(separator: "\n").first { $0.contains("URI: ") }
            urls.append(String(try #require(line?.split(separator: "URI: ").last, "\(read.outputText)")))
        }
        #expect(Set(urls).count == count)
        let checked = try await BinaryRunner.run(
            setting.verify(["-", "--json"]), input: Array((urls.joined(separator: "\n") + "\n").utf8))
        return try checked.outputText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("Set up with {enc}: the plan names the window; 5 reads give 5 ciphertexts that decrypt to the data")
    func taps() async throws {
        let setting = try SDMSetupCommandTests.Setting("sdm-enc")
        defer { setting.folder.remove() }
        let dry = try await SDMSetupCommandTests.run(Self.setUp(setting) + ["--dry-run"], reader: setting.reader)
        #expect(
            dry.outputText.contains(
                "SDM: PICCData at 29 (key 1), file data at 66 (16 bytes encrypted, key 2), SDMMAC at 104 (key 2, "
                    + "input from 66)"), "\(dry.outputText)")
        let json = try await SDMSetupCommandTests.run(
            Self.setUp(setting) + ["--dry-run", "--json"], reader: setting.reader)
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "sdm-setup.schema.json").isEmpty)
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(plan["fileDataOffset"] as? Int == 66 && plan["fileDataLength"] as? Int == 16)
        #expect(plan["macInputOffset"] as? Int == 66 && plan["mode"] as? String == "AES")
        let done = try await Self.confirmed(Self.setUp(setting), reader: setting.reader)
        #expect(done.status == 0, "\(done.error)")
        let objects = try await Self.taps(5, setting)
        #expect(objects.count == 5)
        #expect(objects.allSatisfy { $0["valid"] as? Bool == true && $0["fileData"] as? String == "lot 2026-12     " })
        #expect(objects.compactMap { $0["counter"] as? Int } == Array(2...6))
        #expect(objects.allSatisfy { $0["macInput"] as? String == "from enc" })
        // The status check of a tag with file data verifies too.
        let status = try await SDMSetupCommandTests.run(
            ["sdm", "status", "--keys-file", setting.keysFile, "--json"], reader: setting.reader)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output)) as? [String: Any])
        #expect((object["check"] as? [String: Any])?["valid"] as? Bool == true, "\(status.outputText)")
    }

    @Test("Other --enc-data on a set-up tag rewrites the message; a move to other keys keeps the new data")
    func otherData() async throws {
        let setting = try SDMSetupCommandTests.Setting("sdm-enc-other")
        defer { setting.folder.remove() }
        #expect(try await Self.confirmed(Self.setUp(setting), reader: setting.reader).status == 0)
        // The same length: a plain read cannot tell the data apart (it shows ciphertext); the
        // data decrypted with the tag's keys can.
        let sameLength = Self.setUp(setting, data: "lot 2026-99")
        let same = try await SDMSetupCommandTests.run(sameLength + ["--dry-run"], reader: setting.reader)
        #expect(same.outputText.contains("To do: write the message"), "\(same.outputText)")
        #expect(try await Self.confirmed(sameLength, reader: setting.reader).status == 0)
        #expect(try await Self.taps(1, setting).first?["fileData"] as? String == "lot 2026-99     ")
        let again = try await SDMSetupCommandTests.run(sameLength + ["--dry-run"], reader: setting.reader)
        #expect(again.outputText.contains("To do: nothing"), "\(again.outputText)")
        let other = Self.setUp(setting, data: "second lot, 20 bytes")
        let dry = try await SDMSetupCommandTests.run(other + ["--dry-run"], reader: setting.reader)
        #expect(dry.outputText.contains("To do: write the message"), "\(dry.outputText)")
        let rewritten = try await Self.confirmed(other, reader: setting.reader)
        #expect(rewritten.status == 0, "\(rewritten.error)")
        let after = try await Self.taps(1, setting)
        #expect(after.first?["fileData"] as? String == "second lot, 20 bytes" + String(repeating: " ", count: 12))
        // Moved to other keys with the data kept: the file bytes hidden under the window are
        // checked by decrypting them with the new keys.
        let second = try SDMSetupCommandTests.secondKeys(setting)
        let move = [
            "sdm", "setup", "--url", Self.url, "--enc-data", "moved", "--from-keys-file", setting.keysFile,
            "--keys-file", second.keysFile, "--key-version", "2",
        ]
        let moved = try await Self.confirmed(move, reader: setting.reader)
        #expect(moved.status == 0, "\(moved.error)")
        let last = try await Self.taps(1, second)
        #expect(last.first?["valid"] as? Bool == true && last.first?["fileData"] as? String == "moved           ")
    }

    @Test("Every cut of a set-up with file data is finished by the same command, the data intact")
    func everyCut() async throws {
        var cut = 1
        while cut < 80 {
            let setting = try SDMSetupCommandTests.Setting("sdm-enc-cut")
            defer { setting.folder.remove() }
            let interrupted = try await Self.confirmed(
                Self.setUp(setting), reader: setting.reader, cut: "&remove-after=\(cut)&in-flight=tear")
            if interrupted.status == 0 { break }
            #expect([75, 80].contains(interrupted.status), "cut \(cut): \(interrupted.error)")
            let rerun = try await Self.confirmed(Self.setUp(setting), reader: setting.reader)
            #expect(rerun.status == 0, "cut \(cut), then run again: \(rerun.error)")
            let objects = try await Self.taps(1, setting)
            #expect(objects.first?["fileData"] as? String == "lot 2026-12     ", "cut \(cut)")
            cut += 1
        }
        #expect(cut > 20, "the set-up was cut \(cut - 1) times")
    }

    @Test("{enc} without --enc-data, data without {enc}, 65 bytes, {enc} after {mac}: usage errors (64)")
    func usage() async throws {
        let setting = try SDMSetupCommandTests.Setting("sdm-enc-usage")
        defer { setting.folder.remove() }
        let keys = ["--keys-file", setting.keysFile, "--dry-run"]
        let cases: [([String], String)] = [
            (["--url", Self.url], "--enc-data"),
            (["--url", SDMSetupCommandTests.url, "--enc-data", "x"], "needs {enc}"),
            (["--url", Self.url, "--enc-data", String(repeating: "x", count: 65)], "1 to 64 bytes"),
            (["--url", "https://x.example/?p={picc}&m={mac}&e={enc}", "--enc-data", "x"], "{picc}, {enc}, {mac}"),
        ]
        for (arguments, message) in cases {
            let result = try await SDMSetupCommandTests.run(
                ["sdm", "setup"] + arguments + keys, reader: setting.reader)
            #expect(result.status == 64 && result.error.contains(message), "\(arguments): \(result.error)")
        }
    }
}
