import Foundation
import NDEF
import TestSupport
import Testing

/// `ndeftool sdm setup` through the built binary on simulated NTAG 424 DNA tags kept in files:
/// the plan and its code, the confirmation, taps verified end to end, and every cut of the
/// set-up finished by running the same command again.
@Suite("sdm setup", .timeLimit(.minutes(10)))
struct SDMSetupCommandTests {
    static let url = "https://x.example/t?picc_data={picc}&cmac={mac}"
    static let keys = (0..<5).map { number in (0..<16).map { UInt8(0x11 * number + $0) } }

    /// A folder with the keys file and the SDM key files, and a tag file in it.
    struct Setting {
        let folder: TemporaryDirectory
        let keysFile: String
        let metaReadKeyFile: String
        let fileReadKeyFile: String

        init(_ name: String = "sdm-setup") throws {
            folder = try TemporaryDirectory(name)
            let entries = SDMSetupCommandTests.keys.enumerated().map { "\"k\($0.offset)\": \"\(hexText($0.element))\"" }
            keysFile = try folder.file("keys.json", text: "{" + entries.joined(separator: ", ") + "}\n")
            metaReadKeyFile = try folder.file("k1.hex", text: hexText(SDMSetupCommandTests.keys[1]) + "\n")
            fileReadKeyFile = try folder.file("k2.hex", text: hexText(SDMSetupCommandTests.keys[2]) + "\n")
        }

        /// The same folder with another keys file.
        static func withKeys(_ keysFile: String, _ setting: Setting) -> Setting {
            Setting(
                folder: setting.folder, keysFile: keysFile, metaReadKeyFile: setting.metaReadKeyFile,
                fileReadKeyFile: setting.fileReadKeyFile)
        }

        init(folder: TemporaryDirectory, keysFile: String, metaReadKeyFile: String, fileReadKeyFile: String) {
            self.folder = folder
            self.keysFile = keysFile
            self.metaReadKeyFile = metaReadKeyFile
            self.fileReadKeyFile = fileReadKeyFile
        }

        var reader: String { "sim:ntag424?uid=04518DFAA96180&file=\(folder.path("t424.t4t"))" }

        var setUp: [String] { ["sdm", "setup", "--url", SDMSetupCommandTests.url, "--keys-file", keysFile] }

        func verify(_ extra: [String]) -> [String] {
            ["sdm", "verify", "--meta-read-key-file", metaReadKeyFile, "--file-read-key-file", fileReadKeyFile] + extra
        }
    }

    static let environment = ["NDEFTOOL_READER": ""]

    /// Runs with `--reader` and `--wait 0` (a simulated reader has its tag at once; through
    /// pcscd the card event may come later: `--wait 60`, which ends when the tag is seen).
    static func run(_ arguments: [String], reader: String, environment: [String: String] = environment)
        async throws -> RunResult
    {
        let wait = reader.hasPrefix("sim:") ? "0" : "60"
        return try await BinaryRunner.run(arguments + ["--reader", reader, "--wait", wait], environment: environment)
    }

    /// The set-up code `--dry-run` shows.
    static func code(_ setting: Setting, reader: String, environment: [String: String] = environment)
        async throws -> String
    {
        let dry = try await run(setting.setUp + ["--dry-run"], reader: reader, environment: environment)
        #expect(dry.status == 0, "\(dry.error)")
        let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
        return try #require(line.map { String($0.dropFirst("Set-up code: ".count)) }, "\(dry.outputText)")
    }

    /// Sets the tag up, then reads it 20 times with separate `ndeftool read` processes: each URL
    /// verifies with the keys (UID 04518DFAA96180, counters one more per read); a changed
    /// character, a replayed counter and a wrong key are refused.
    static func twentyTaps(_ setting: Setting, reader: String, environment: [String: String] = environment)
        async throws
    {
        let code = try await Self.code(setting, reader: reader, environment: environment)
        let setUp = try await run(setting.setUp + ["--confirm", code], reader: reader, environment: environment)
        #expect(setUp.status == 0, "\(setUp.error)")
        #expect(setUp.outputText.contains("  changed key 0\nSet up: the URL the tag gives now verifies"))
        var urls: [String] = []
        for _ in 0..<20 {
            let read = try await run(["read"], reader: reader, environment: environment)
            #expect(read.status == 0, "\(read.error)")
            let line = read.outputText.split(separator: "\n").first { $0.contains("URI: ") }
            urls.append(String(try #require(line?.split(separator: "URI: ").last, "\(read.outputText)")))
        }
        #expect(Set(urls).count == 20)
        let checked = try await BinaryRunner.run(
            setting.verify(["-", "--json"]), input: Array((urls.joined(separator: "\n") + "\n").utf8))
        #expect(checked.status == 0, "\(checked.outputText)")
        let objects = try checked.outputText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 20)
        #expect(objects.allSatisfy { $0["valid"] as? Bool == true && $0["uid"] as? String == "04518DFAA96180" })
        let counters = objects.compactMap { $0["counter"] as? Int }
        // The set-up's own check read the URL once: the first tap after it is counter 2.
        #expect(counters == Array(2...21), "\(counters)")

        let last = try #require(urls.last)
        let one = try await BinaryRunner.run(setting.verify([last, "--last-counter", "20"]))
        #expect(one.status == 0 && one.outputText == "valid: UID 04518DFAA96180, counter 21\n", "\(one.outputText)")
        let replayed = try await BinaryRunner.run(setting.verify([last, "--last-counter", "21"]))
        #expect(replayed.status == 83 && replayed.outputText.hasPrefix("NOT VALID: replayed"), "\(replayed.outputText)")
        var changed = Array(last)
        let index = try #require(changed.lastIndex(of: "="))
        let position = changed.index(after: index)
        changed[position] = changed[position] == "0" ? "1" : "0"
        let tampered = try await BinaryRunner.run(setting.verify([String(changed)]))
        #expect(tampered.status == 83, "\(tampered.outputText)")
        let wrongKey = try setting.folder.file("k3.hex", text: hexText(keys[3]))
        let wrong = try await BinaryRunner.run([
            "sdm", "verify", "--meta-read-key-file", setting.metaReadKeyFile, "--file-read-key-file", wrongKey, last,
        ])
        #expect(wrong.status == 83 && wrong.outputText.hasPrefix("NOT VALID: the SDMMAC"), "\(wrong.outputText)")
    }

    @Test("A factory tag set up, then 20 reads by separate processes give 20 URLs that verify, counters 2-21")
    func taps() async throws {
        let setting = try Setting()
        defer { setting.folder.remove() }
        try await Self.twentyTaps(setting, reader: setting.reader)
    }

    @Test("Without --confirm nothing changes (79); a wrong code, other keys' code: 79; --dry-run JSON; rerun: nothing")
    func confirmation() async throws {
        let setting = try Setting()
        defer { setting.folder.remove() }
        let reader = setting.reader
        let code = try await Self.code(setting, reader: reader)
        let unconfirmed = try await Self.run(setting.setUp, reader: reader)
        #expect(unconfirmed.status == 79, "\(unconfirmed.error)")
        #expect(unconfirmed.error.contains("--confirm \(code)"), "\(unconfirmed.error)")
        let wrong = code == "000-000" ? "000-001" : "000-000"
        let refused = try await Self.run(setting.setUp + ["--confirm", wrong], reader: reader)
        #expect(refused.status == 79 && refused.error.contains("nothing was changed"), "\(refused.error)")
        var otherKeys = Self.keys
        otherKeys[2][15] ^= 1
        let otherFile = try setting.folder.file(
            "other.json",
            text: "{"
                + otherKeys.enumerated().map { "\"k\($0.offset)\": \"\(hexText($0.element))\"" }
                .joined(separator: ", ") + "}")
        let otherPlan = ["sdm", "setup", "--url", Self.url, "--keys-file", otherFile, "--confirm", code]
        let other = try await Self.run(otherPlan, reader: reader)
        #expect(other.status == 79, "the code of one keys file confirms no other: \(other.error)")
        let plainType4 = try await Self.run(
            setting.setUp + ["--dry-run"], reader: "sim:type4?file=\(setting.folder.path("t4.t4t"))")
        #expect(plainType4.status == 76 && plainType4.error.contains("not an NTAG 424 DNA"), "\(plainType4.error)")
        let status = try await Self.run(["sdm", "status"], reader: reader)
        #expect(status.outputText.contains("key versions: k0 0, k1 0, k2 0, k3 0, k4 0"), "\(status.outputText)")

        let dry = try await Self.run(setting.setUp + ["--dry-run", "--json", "--lock-ndef"], reader: reader)
        #expect(dry.status == 0, "\(dry.error)")
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(dry.outputText, schema: "sdm-setup.schema.json").isEmpty)
        #expect(!dry.outputText.contains(hexText(Self.keys[0])), "no key is ever shown")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.output)) as? [String: Any])
        #expect(object["piccDataOffset"] as? Int == 29 && object["macOffset"] as? Int == 67)
        #expect(
            (object["left"] as? [String])?.count == 7 && object["code"] as? String != code, "--lock-ndef: another plan")

        #expect(try await Self.run(setting.setUp + ["--confirm", code], reader: reader).status == 0)
        let again = try await Self.run(setting.setUp + ["--confirm", code, "--json"], reader: reader)
        #expect(again.status == 0, "\(again.error)")
        #expect(try validator.problems(again.outputText, schema: "sdm-setup.schema.json").isEmpty)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(again.output)) as? [String: Any])
        #expect((after["steps"] as? [String]) == [] && after["complete"] as? Bool == true)
        // Another keys file with the same URL and key version: nothing to send, but the URL does
        // not verify with those keys; refused as a wrong key, not as a set-up to finish.
        let otherCode = try await Self.code(
            Setting.withKeys(otherFile, setting), reader: reader)
        let foreign = try await Self.run(otherPlan.dropLast() + [otherCode], reader: reader)
        #expect(foreign.status == 78, "\(foreign.error)")
    }

    @Test("--lock-ndef: the NDEF file's write access goes to key 0; a plain write is refused and the URL stays")
    func lockNDEF() async throws {
        let setting = try Setting()
        defer { setting.folder.remove() }
        let reader = setting.reader
        let arguments = setting.setUp + ["--lock-ndef"]
        let dry = try await Self.run(arguments + ["--dry-run"], reader: reader)
        let code = try #require(
            dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }?.split(separator: " ").last)
        let setUp = try await Self.run(arguments + ["--confirm", String(code)], reader: reader)
        #expect(setUp.status == 0, "\(setUp.error)")
        let status = try await Self.run(["sdm", "status"], reader: reader)
        #expect(
            status.outputText.contains(
                "file 2 NDEF (E104): 256 bytes, CommMode Plain; read free, write key 0, read-write key 0, change key 0"),
            "\(status.outputText)")
        let write = try await Self.run(["write", "uri", "https://evil.example/"], reader: reader)
        #expect(write.status != 0, "\(write.outputText)")
        let read = try await Self.run(["read"], reader: reader)
        #expect(read.outputText.contains("URI: https://x.example/t?picc_data="), "\(read.outputText)")
    }

    @Test(
        "Every cut of the set-up leaves a tag the same command finishes, with the plan's keys",
        arguments: ["none", "complete", "tear"])
    func everyCut(inFlight: String) async throws {
        var cut = 1
        while cut < 80 {
            let setting = try Setting("sdm-cut")
            defer { setting.folder.remove() }
            let code = try await Self.code(setting, reader: setting.reader)
            let interrupted = try await Self.run(
                setting.setUp + ["--confirm", code],
                reader: setting.reader + "&remove-after=\(cut)&in-flight=\(inFlight)")
            if interrupted.status == 0 { break }
            let context = "cut at command \(cut) (\(inFlight))"
            #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
            if interrupted.status == 80 {
                #expect(interrupted.error.contains("--confirm \(code)"), "\(context): \(interrupted.error)")
            }
            let rerun = try await Self.run(setting.setUp + ["--confirm", code], reader: setting.reader)
            #expect(rerun.status == 0, "\(context), then run again: \(rerun.error)")
            let status = try await Self.run(
                ["sdm", "status", "--keys-file", setting.keysFile, "--json"], reader: setting.reader)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.output)) as? [String: Any], "\(context)")
            #expect(object["keyVersions"] as? [Int] == [1, 1, 1, 1, 1], "\(context)")
            let check = object["check"] as? [String: Any]
            #expect(check?["valid"] as? Bool == true, "\(context): \(status.outputText)")
            cut += 1
        }
        #expect(cut > 20, "the set-up was cut \(cut - 1) times")
    }
}

extension SDMSetupCommandTests {
    /// Another set of five keys, as a second keys file of the same folder, with its SDM key files.
    static func secondKeys(_ setting: Setting) throws -> Setting {
        let keys = (0..<5).map { number in (0..<16).map { UInt8(0xA0 + 0x05 * number + $0) } }
        let entries = keys.enumerated().map { "\"k\($0.offset)\": \"\(hexText($0.element))\"" }
        let file = try setting.folder.file("keys2.json", text: "{" + entries.joined(separator: ", ") + "}\n")
        return Setting(
            folder: setting.folder, keysFile: file,
            metaReadKeyFile: try setting.folder.file("k1-2.hex", text: hexText(keys[1]) + "\n"),
            fileReadKeyFile: try setting.folder.file("k2-2.hex", text: hexText(keys[2]) + "\n"))
    }

    /// The versions of keys 0-4 (`sdm status --json`).
    static func keyVersions(_ setting: Setting) async throws -> [Int] {
        let status = try await run(["sdm", "status", "--json"], reader: setting.reader)
        let object = try JSONSerialization.jsonObject(with: Data(status.output)) as? [String: Any]
        return (object?["keyVersions"] as? [Int]) ?? []
    }

    /// Whether the URL the tag gives now verifies with `setting`'s SDM keys.
    static func verifies(_ setting: Setting) async throws -> Bool {
        let read = try await run(["read"], reader: setting.reader)
        guard let line = read.outputText.split(separator: "\n").first(where: { $0.contains("URI: ") }),
            let url = line.split(separator: "URI: ").last
        else { return false }
        return try await BinaryRunner.run(setting.verify([String(url)])).status == 0
    }

    @Test(
        "A set-up cut anywhere, then run with another keys file: refused with nothing sent, or done with that file alone; never keys of both"
    )
    func otherKeysFileNeverMixes() async throws {
        var cut = 1
        var refusals = 0
        while cut < 30 {
            let first = try Setting("sdm-mix")
            let second = try Self.secondKeys(first)
            // One machine's state for the runs: the record of the set-up names its keys file.
            let machine = Self.environment.merging(["XDG_STATE_HOME": first.folder.path("state")]) { $1 }
            let code = try await Self.code(first, reader: first.reader)
            let interrupted = try await Self.run(
                first.setUp + ["--confirm", code], reader: first.reader + "&remove-after=\(cut)&in-flight=tear",
                environment: machine)
            if interrupted.status == 0 { break }
            let context = "cut at command \(cut)"
            let versionsBefore = try await Self.keyVersions(first)
            let dry = try await Self.run(second.setUp + ["--dry-run"], reader: first.reader)
            let otherCode = try await Self.code(second, reader: first.reader)
            let other = try await Self.run(
                second.setUp + ["--confirm", otherCode], reader: first.reader, environment: machine)
            if other.status == 0 {
                // Nothing of the first plan's keys was on the tag: the second file set it up alone.
                #expect(try await Self.verifies(second), "\(context)")
                #expect(!dry.outputText.contains("another set-up's keys"), "\(context)")
            } else {
                refusals += 1
                #expect(other.status == 78, "\(context): \(other.error)")
                #expect(other.error.contains("another set-up's key"), "\(context): \(other.error)")
                #expect(
                    other.error.contains("last set the tag up with --keys-file \(first.keysFile) (cut part way"),
                    "\(context): \(other.error)")
                #expect(dry.outputText.contains("another set-up's keys"), "\(context): \(dry.outputText)")
                #expect(!dry.outputText.contains("Done already: the message; SDM on the NDEF file; keys"), "\(context)")
                #expect(try await Self.keyVersions(first) == versionsBefore, "\(context): the refused run changed keys")
                let finished = try await Self.run(first.setUp + ["--confirm", code], reader: first.reader)
                #expect(finished.status == 0, "\(context): \(finished.error)")
                #expect(try await Self.verifies(first), "\(context)")
            }
            cut += 1
        }
        #expect(cut > 15, "the set-up was cut \(cut - 1) times")
        // The cuts after the first key change leave the first file's keys: those are refused.
        #expect(refusals > 5, "\(refusals) refusals")
    }

    @Test("A tag set up, given other SDM settings with the same keys: changed in one run, its URL verifies")
    func otherSettingsOnASetUpTag() async throws {
        let setting = try Setting("sdm-settings")
        let code = try await Self.code(setting, reader: setting.reader)
        #expect(try await Self.run(setting.setUp + ["--confirm", code], reader: setting.reader).status == 0)
        // Only ChangeFileSettings is left to do: key 0 opens a session that no ChangeKey of key 0
        // ends, so the read-back must end it first.
        let again = setting.setUp + ["--file-read-key", "3"]
        let dry = try await Self.run(again + ["--dry-run"], reader: setting.reader)
        #expect(dry.outputText.contains("To do: set SDM on the NDEF file\n"), "\(dry.outputText)")
        let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
        let newCode = try #require(line.map { String($0.dropFirst("Set-up code: ".count)) })
        let changed = try await Self.run(again + ["--confirm", newCode], reader: setting.reader)
        #expect(changed.status == 0, "\(changed.error)")
        let read = try await Self.run(["read"], reader: setting.reader)
        let url = try #require(
            read.outputText.split(separator: "\n").first { $0.contains("URI: ") }?.split(separator: "URI: ").last)
        let verify = try await BinaryRunner.run(
            [
                "sdm", "verify", "--meta-read-key-file", setting.metaReadKeyFile, "--file-read-key-file",
                try setting.folder.file("k3.hex", text: hexText(Self.keys[3]) + "\n"),
                String(url),
            ])
        #expect(verify.status == 0, "\(verify.outputText)\(verify.error)")
    }

    @Test(
        "A tag set up with --lock-ndef, given another URL: written with key 0, cut anywhere and finished by the same command"
    )
    func otherURLOnALockedTag() async throws {
        let other = "https://z.example/a/longer/path?picc_data={picc}&cmac={mac}"
        var cut = 1
        while cut < 40 {
            let setting = try Setting("sdm-locked-url")
            let locked = setting.setUp + ["--lock-ndef"]
            let dry = try await Self.run(locked + ["--dry-run"], reader: setting.reader)
            let code = try #require(
                dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
                    .map { String($0.dropFirst("Set-up code: ".count)) })
            #expect(try await Self.run(locked + ["--confirm", code], reader: setting.reader).status == 0)
            // The URL changes: ISOUpdateBinary is refused (the write right is key 0's), so the
            // message goes in with WriteData in a session with key 0.
            let again = ["sdm", "setup", "--url", other, "--keys-file", setting.keysFile, "--lock-ndef"]
            let otherDry = try await Self.run(again + ["--dry-run"], reader: setting.reader)
            let otherCode = try #require(
                otherDry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
                    .map { String($0.dropFirst("Set-up code: ".count)) })
            let interrupted = try await Self.run(
                again + ["--confirm", otherCode], reader: setting.reader + "&remove-after=\(cut)&in-flight=tear")
            if interrupted.status == 0 {
                #expect(try await Self.verifies(setting))
                break
            }
            #expect([75, 80].contains(interrupted.status), "cut \(cut): \(interrupted.error)")
            let finished = try await Self.run(again + ["--confirm", otherCode], reader: setting.reader)
            #expect(finished.status == 0, "cut \(cut): \(finished.error)")
            let read = try await Self.run(["read"], reader: setting.reader)
            #expect(read.outputText.contains("URI: https://z.example/a/longer/path?picc_data="), "cut \(cut)")
            #expect(try await Self.verifies(setting), "cut \(cut)")
            cut += 1
        }
        #expect(cut > 10, "the change was cut \(cut - 1) times")
    }

    @Test("A set-up cut, then run again with another --key-version: it finishes, every key at the new version")
    func otherKeyVersionFinishes() async throws {
        for cut in [16, 19, 22] {
            let setting = try Setting("sdm-version")
            let code = try await Self.code(setting, reader: setting.reader)
            let interrupted = try await Self.run(
                setting.setUp + ["--confirm", code], reader: setting.reader + "&remove-after=\(cut)&in-flight=tear")
            #expect(interrupted.status != 0, "cut \(cut)")
            let again = setting.setUp + ["--key-version", "2"]
            let dry = try await Self.run(again + ["--dry-run"], reader: setting.reader)
            let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix("Set-up code: ") }
            let newCode = try #require(line.map { String($0.dropFirst("Set-up code: ".count)) })
            let rerun = try await Self.run(again + ["--confirm", newCode], reader: setting.reader)
            #expect(rerun.status == 0, "cut \(cut): \(rerun.error)")
            #expect(try await Self.keyVersions(setting) == [2, 2, 2, 2, 2], "cut \(cut)")
            #expect(try await Self.verifies(setting), "cut \(cut)")
        }
    }
}
