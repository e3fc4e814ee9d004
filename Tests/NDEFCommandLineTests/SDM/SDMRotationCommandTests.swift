import Foundation
import TagSimulator
import TestSupport
import Testing

/// `ndeftool sdm setup --from-keys-file OLD --keys-file NEW` (key rotation) and `--factory`
/// through the built binary on simulated NTAG 424 DNA tags kept in files, whose keys the tests
/// read from the file itself: every cut leaves each key old or new, the same command finishes,
/// and an operator's other reruns (fewer options, another new keys file) never leave a third key.
@Suite("sdm setup: key rotation and factory reset", .timeLimit(.minutes(10)))
struct SDMRotationCommandTests {
    typealias Setting = SDMSetupCommandTests.Setting
    static let newURL = "https://y.example/v2/tap?picc_data={picc}&cmac={mac}"
    static let run = SDMSetupCommandTests.run

    /// The chip as the tag file holds it.
    static func chip(_ setting: Setting) throws -> SimulatedNTAG424Chip {
        let text = try String(contentsOfFile: setting.folder.path("t424.t4t"), encoding: .utf8)
        return try #require(try SimulatedType4Tag(stateText: text).ntag424)
    }

    /// A tag set up with `setting`'s keys (the old ones).
    static func setUpOld(_ setting: Setting, environment: [String: String] = SDMSetupCommandTests.environment)
        async throws
    {
        let code = try await SDMSetupCommandTests.code(setting, reader: setting.reader)
        let setUp = try await run(setting.setUp + ["--confirm", code], setting.reader, environment)
        #expect(setUp.status == 0, "\(setUp.error)")
    }

    /// `sdm setup` moving the tag from `old`'s keys to `new`'s with the new URL at version 2.
    static func move(_ old: Setting, to new: Setting) -> [String] {
        [
            "sdm", "setup", "--url", newURL, "--from-keys-file", old.keysFile, "--keys-file", new.keysFile,
            "--key-version", "2",
        ]
    }

    /// The code a `--dry-run` of `arguments` shows on the line starting `label`.
    static func code(_ arguments: [String], _ setting: Setting, label: String = "Set-up code: ") async throws -> String
    {
        let dry = try await run(arguments + ["--dry-run"], setting.reader, SDMSetupCommandTests.environment)
        #expect(dry.status == 0, "\(dry.error)")
        let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix(label) }
        return try #require(line.map { String($0.dropFirst(label.count)) }, "\(dry.outputText)")
    }

    /// The keys of the files: old and new.
    static func keys(_ setting: Setting) throws -> [[UInt8]] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setting.keysFile)))
                as? [String: String])
        return try (0..<5).map { hex(try #require(object["k\($0)"])) }
    }

    @Test(
        "A set-up tag moved to new keys and a new URL: taps verify with the new keys, not the old; run again, nothing")
    func rotation() async throws {
        let old = try Setting("sdm-rotate")
        defer { old.folder.remove() }
        let new = try SDMSetupCommandTests.secondKeys(old)
        try await Self.setUpOld(old)
        let arguments = Self.move(old, to: new)
        let code = try await Self.code(arguments, old)
        let moved = try await Self.run(arguments + ["--confirm", code], old.reader, SDMSetupCommandTests.environment)
        #expect(moved.status == 0, "\(moved.error)")
        #expect(moved.outputText.contains("  changed key 0\nSet up: the URL the tag gives now verifies"))
        #expect(try Self.chip(old).keys == Self.keys(new) && Self.chip(old).keyVersions == [2, 2, 2, 2, 2])
        #expect(try await SDMSetupCommandTests.verifies(new))
        #expect(try await !SDMSetupCommandTests.verifies(old))
        let read = try await Self.run(["read"], old.reader, SDMSetupCommandTests.environment)
        #expect(read.outputText.contains("URI: https://y.example/v2/tap?picc_data="), "\(read.outputText)")
        let again = try await Self.run(arguments + ["--confirm", code], old.reader, SDMSetupCommandTests.environment)
        #expect(again.status == 0 && again.outputText.contains("Nothing to change"), "\(again.outputText)")
        // The code of the move stands for both key sets: the plain set-up's code is another.
        let plainCode = try await Self.code(
            ["sdm", "setup", "--url", Self.newURL, "--keys-file", new.keysFile, "--key-version", "2"], old)
        #expect(plainCode != code)
    }

    @Test(
        "A move cut at every command: each key old or new in the tag file; the same command finishes it",
        arguments: ["tear", "complete"])
    func everyCut(inFlight: String) async throws {
        var cut = 1
        while cut < 80 {
            let old = try Setting("sdm-rotate-cut")
            defer { old.folder.remove() }
            let new = try SDMSetupCommandTests.secondKeys(old)
            try await Self.setUpOld(old)
            let arguments = Self.move(old, to: new)
            let code = try await Self.code(arguments, old)
            let interrupted = try await Self.run(
                arguments + ["--confirm", code], old.reader + "&remove-after=\(cut)&in-flight=\(inFlight)",
                SDMSetupCommandTests.environment)
            if interrupted.status == 0 { break }
            let context = "cut at command \(cut) (\(inFlight))"
            #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
            let (oldKeys, newKeys) = (try Self.keys(old), try Self.keys(new))
            let cutKeys = try Self.chip(old).keys
            #expect(
                (0..<5).allSatisfy { cutKeys[$0] == oldKeys[$0] || cutKeys[$0] == newKeys[$0] },
                "\(context): a key is neither old nor new")
            let rerun = try await Self.run(
                arguments + ["--confirm", code], old.reader, SDMSetupCommandTests.environment)
            #expect(rerun.status == 0, "\(context), then run again: \(rerun.error)")
            #expect(try Self.chip(old).keys == newKeys, "\(context)")
            #expect(try await SDMSetupCommandTests.verifies(new), "\(context)")
            cut += 1
        }
        #expect(cut > 25, "the move was cut \(cut - 1) times")
    }

    @Test(
        "A move cut, then run with fewer options or another new keys file: refused (78) with nothing changed, or done alone; never a third key"
    )
    func otherRerunsAfterACut() async throws {
        var refusals = 0
        for cut in stride(from: 3, to: 60, by: 4) {
            let old = try Setting("sdm-rotate-rerun")
            defer { old.folder.remove() }
            let new = try SDMSetupCommandTests.secondKeys(old)
            let third = Setting.withKeys(
                try old.folder.file(
                    "third.json",
                    text: "{"
                        + (0..<5).map { "\"k\($0)\": \"\(String(repeating: "3\($0)", count: 16))\"" }
                        .joined(separator: ", ") + "}"), old)
            let machine = SDMSetupCommandTests.environment.merging(["XDG_STATE_HOME": old.folder.path("state")]) {
                $1
            }
            try await Self.setUpOld(old, environment: machine)
            let arguments = Self.move(old, to: new)
            let code = try await Self.code(arguments, old)
            let interrupted = try await Self.run(
                arguments + ["--confirm", code], old.reader + "&remove-after=\(cut)&in-flight=tear", machine)
            if interrupted.status == 0 { break }
            let context = "cut at command \(cut)"
            let before = try Self.chip(old)
            // Fewer options: the new keys alone, as if the tag came from the factory.
            let plain = ["sdm", "setup", "--url", Self.newURL, "--keys-file", new.keysFile, "--key-version", "2"]
            let plainRun = try await Self.run(
                plain + ["--confirm", try await Self.code(plain, old)], old.reader, machine)
            if plainRun.status != 0 {
                refusals += 1
                #expect(plainRun.status == 78, "\(context): \(plainRun.error)")
                // This machine's record names the old keys file: the move's, or (cut before it
                // began) the set-up's.
                #expect(
                    plainRun.error.contains("last changed the tag's keys with --from-keys-file \(old.keysFile)")
                        || plainRun.error.contains("last set the tag up with --keys-file \(old.keysFile) (complete"),
                    "\(context): \(plainRun.error)")
                #expect(try Self.chip(old).keys == before.keys, "\(context): the refused run changed keys")
            }
            // Another new keys file from the old keys: a key already new is neither.
            let other = [
                "sdm", "setup", "--url", Self.newURL, "--from-keys-file", old.keysFile, "--keys-file", third.keysFile,
            ]
            let otherRun = try await Self.run(
                other + ["--confirm", try await Self.code(other, old)], old.reader, machine)
            let (oldKeys, newKeys, thirdKeys) = (try Self.keys(old), try Self.keys(new), try Self.keys(third))
            let after = try Self.chip(old).keys
            if otherRun.status == 0 {
                #expect(after == thirdKeys, "\(context): done with the third file alone")
            } else {
                #expect(otherRun.status == 78, "\(context): \(otherRun.error)")
                #expect(
                    (0..<5).allSatisfy { after[$0] == oldKeys[$0] || after[$0] == newKeys[$0] },
                    "\(context): a third key after a refusal")
                let finished = try await Self.run(arguments + ["--confirm", code], old.reader, machine)
                #expect(finished.status == 0, "\(context): \(finished.error)")
                #expect(try Self.chip(old).keys == newKeys, "\(context)")
            }
        }
        #expect(refusals > 3, "\(refusals) refusals")
    }

    @Test("--factory from a set-up tag: factory keys and settings, empty file; cut anywhere, the same command finishes")
    func factoryReset() async throws {
        var cut = 1
        while cut < 80 {
            let setting = try Setting("sdm-factory")
            defer { setting.folder.remove() }
            try await Self.setUpOld(setting)
            let arguments = ["sdm", "setup", "--factory", "--from-keys-file", setting.keysFile]
            let code = try await Self.code(arguments, setting, label: "Reset code: ")
            let interrupted = try await Self.run(
                arguments + ["--confirm", code], setting.reader + "&remove-after=\(cut)&in-flight=tear",
                SDMSetupCommandTests.environment)
            let context = "cut at command \(cut)"
            if interrupted.status != 0 {
                #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
                let oldKeys = try Self.keys(setting)
                let cutKeys = try Self.chip(setting).keys
                #expect(
                    (0..<5).allSatisfy { cutKeys[$0] == oldKeys[$0] || cutKeys[$0] == Array(repeating: 0, count: 16) },
                    "\(context): a key is neither old nor factory")
                let rerun = try await Self.run(
                    arguments + ["--confirm", code], setting.reader, SDMSetupCommandTests.environment)
                #expect(rerun.status == 0, "\(context), then run again: \(rerun.error)")
            }
            let chip = try Self.chip(setting)
            let factory = SimulatedNTAG424Chip()
            #expect(chip.keys == factory.keys && chip.keyVersions == factory.keyVersions, "\(context)")
            #expect(chip.fileSettings == factory.fileSettings, "\(context)")
            if interrupted.status == 0 {
                let json = try await Self.run(
                    arguments + ["--confirm", code, "--json"], setting.reader, SDMSetupCommandTests.environment)
                var validator = JSONSchemaValidator()
                #expect(try validator.problems(json.outputText, schema: "sdm-setup.schema.json").isEmpty)
                #expect(json.outputText.contains("\"steps\" : [\n\n  ]"), "\(json.outputText)")
                // A factory tag again: the plain set-up takes it.
                try await Self.setUpOld(setting)
                #expect(try await SDMSetupCommandTests.verifies(setting))
                break
            }
            cut += 1
        }
        #expect(cut > 20, "the reset was cut \(cut - 1) times")
    }

    @Test("Master keys: moved from one master to another; the URLs verify with the new master only")
    func masterKeys() async throws {
        let setting = try Setting("sdm-rotate-master")
        defer { setting.folder.remove() }
        let first = try setting.folder.file("m1.hex", text: String(repeating: "1f", count: 16) + "\n")
        let second = try setting.folder.file("m2.hex", text: String(repeating: "2e", count: 16) + "\n")
        let setUp = ["sdm", "setup", "--url", SDMSetupCommandTests.url, "--master-key-file", first]
        #expect(
            try await Self.run(setUp + ["--confirm", try await Self.code(setUp, setting)], setting.reader, [:]).status
                == 0)
        let move = [
            "sdm", "setup", "--url", Self.newURL, "--from-master-key-file", first, "--master-key-file", second,
            "--key-version", "3",
        ]
        let moved = try await Self.run(
            move + ["--confirm", try await Self.code(move, setting)], setting.reader, SDMSetupCommandTests.environment)
        #expect(moved.status == 0, "\(moved.error)")
        let read = try await Self.run(["read"], setting.reader, SDMSetupCommandTests.environment)
        let url = try #require(
            read.outputText.split(separator: "\n").first { $0.contains("URI: ") }?.split(separator: "URI: ").last)
        let withSecond = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", second, String(url)])
        #expect(withSecond.status == 0, "\(withSecond.outputText)")
        let withFirst = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", first, String(url)])
        #expect(withFirst.status == 83, "\(withFirst.outputText)")
        let status = try await Self.run(
            ["sdm", "status", "--master-key-file", second], setting.reader, SDMSetupCommandTests.environment)
        #expect(status.outputText.contains("check: valid"), "\(status.outputText)")
        #expect(status.outputText.contains("key versions: k0 3, k1 3, k2 3, k3 3, k4 3"), "\(status.outputText)")
    }

    /// Through `reader` (a served simulator: pcscd or libnfc): a factory tag set up with
    /// `old`'s keys, moved to the second keys and a new URL, whose taps verify with the new keys
    /// only; then returned to the factory (versions 0, SDM off, no message) and set up again.
    /// Sets `old` up, moves it to the second keys and another URL, returns it to the factory and
    /// sets it up again; with `lrp`, the first set-up switches the tag to LRP, the others keep it
    /// (and the reset leaves it in LRP).
    static func setUpMoveAndReset(
        _ old: Setting, reader: String, environment: [String: String], lrp: Bool = false
    ) async throws {
        let new = try SDMSetupCommandTests.secondKeys(old)
        let mode = lrp ? ["--lrp"] : []
        func coded(_ arguments: [String], label: String = "Set-up code: ") async throws -> RunResult {
            let dry = try await run(arguments + ["--dry-run"], reader, environment)
            let line = dry.outputText.split(separator: "\n").first { $0.hasPrefix(label) }
            let code = try #require(line.map { String($0.dropFirst(label.count)) }, "\(dry.outputText)\(dry.error)")
            return try await run(arguments + ["--confirm", code], reader, environment)
        }
        func url() async throws -> String {
            let read = try await run(["read"], reader, environment)
            let line = read.outputText.split(separator: "\n").first { $0.contains("URI: ") }
            return String(try #require(line?.split(separator: "URI: ").last, "\(read.outputText)\(read.error)"))
        }
        let setUp = try await coded(old.setUp + mode)
        #expect(setUp.status == 0, "\(setUp.error)")
        #expect(setUp.outputText.contains("switched the tag to LRP") == lrp, "\(setUp.outputText)")
        let moved = try await coded(move(old, to: new) + mode)
        #expect(moved.status == 0, "\(moved.error)")
        let tap = try await url()
        #expect(tap.hasPrefix("https://y.example/v2/tap?picc_data="), "\(tap)")
        let piccData = tap.split(separator: "picc_data=").last?.prefix { $0 != "&" }
        #expect(piccData?.count == (lrp ? 48 : 32), "\(tap)")
        #expect(try await BinaryRunner.run(new.verify([tap])).status == 0)
        #expect(try await BinaryRunner.run(old.verify([tap])).status == 83)
        let reset = try await coded(
            ["sdm", "setup", "--factory", "--from-keys-file", new.keysFile], label: "Reset code: ")
        #expect(reset.status == 0, "\(reset.error)")
        let status = try await run(["sdm", "status", "--json"], reader, environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output)) as? [String: Any])
        #expect(object["keyVersions"] as? [Int] == [0, 0, 0, 0, 0], "\(status.outputText)")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 3 && files[1]["sdm"] is NSNull, "\(status.outputText)")
        #expect(object["url"] is NSNull, "\(status.outputText)")
        let again = try await coded(old.setUp + mode)
        #expect(again.status == 0, "\(again.error)")
        #expect(try await BinaryRunner.run(old.verify([try await url()])).status == 0)
    }

    @Test(
        "Options that do not go together: 64 before any reader is opened",
        arguments: [
            ["--factory"],
            ["--factory", "--from-keys-file", "KEYS", "--url", "https://x.example/{picc}{mac}"],
            ["--factory", "--from-keys-file", "KEYS", "--keys-file", "KEYS"],
            ["--url", "https://x.example/?p={picc}&m={mac}", "--keys-file", "KEYS", "--from-meta-read-key", "2"],
            [
                "--url", "https://x.example/?p={picc}&m={mac}", "--keys-file", "KEYS", "--from-keys-file", "KEYS",
                "--from-master-key-file", "KEYS",
            ],
        ])
    func usage(arguments: [String]) async throws {
        let setting = try Setting("sdm-rotate-usage")
        defer { setting.folder.remove() }
        let result = try await BinaryRunner.run(
            ["sdm", "setup"] + arguments.map { $0 == "KEYS" ? setting.keysFile : $0 } + ["--reader", "pcsc:none"])
        #expect(result.status == 64, "\(result.error)")
    }
}
