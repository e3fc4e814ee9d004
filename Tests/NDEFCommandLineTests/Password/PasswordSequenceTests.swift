import Foundation
import TestSupport
import Testing

/// Sequences of `password` commands an operator runs on one tag (a second change, a rerun after
/// a cut with other options, a record missing), through the built binary on a simulated NTAG215
/// kept in a file: none may send a PWD_AUTH that could use up the last attempt, and none may
/// drop a protection setting the command line did not name.
@Suite("Password sequences: a change never guesses with the last attempt", .timeLimit(.minutes(10)))
struct PasswordSequenceTests {
    static let old = "DEADBEEF"
    static let new = "CAFEBABE"

    /// An NTAG215 holding a URI, protected by `old.txt` with `settings`, with `new.txt` beside it.
    static func protected(_ settings: [String]) async throws -> PasswordTagFile {
        let tag = try PasswordTagFile()
        _ = try tag.passwordFile(old, name: "old.txt")
        _ = try tag.passwordFile(new, name: "new.txt")
        #expect(try await tag.run(["write", "uri", "https://example.com/a"]).status == 0)
        let set = try await tag.run(["password", "set", "--password-file", tag.resolving("old.txt")] + settings)
        #expect(set.status == 0, "\(set.error)")
        return tag
    }

    /// `password set` from old.txt to new.txt with `options`.
    static func change(_ tag: PasswordTagFile, _ options: [String] = [], faults: String = "") async throws
        -> RunResult
    {
        try await tag.run(
            [
                "password", "set", "--password-file", tag.resolving("new.txt"), "--old-password-file",
                tag.resolving("old.txt"), "-v",
            ] + options, faults: faults)
    }

    /// Whether `password` opens the tag now (one PWD_AUTH, through the binary).
    static func opens(_ tag: PasswordTagFile, _ name: String) async throws -> Bool {
        try await tag.run(["password", "auth", "--password-file", tag.resolving(name)]).status == 0
    }

    @Test("Item 1: a first change with AUTHLIM 1 and the same settings tries the old password only, and works")
    func firstChangeWithLimitOne() async throws {
        let tag = try await Self.protected(["--pack", "8080", "--attempt-limit", "1"])
        let change = try await Self.change(tag, ["--pack", "8080", "--attempt-limit", "1"])
        #expect(change.status == 0, "\(change.error)")
        // The old password to open it, then the check of the new one: nothing wrong was sent.
        #expect(PasswordTagFile.passwordAuthCount(change) == 2, "\(change.error)")
        #expect(tag.failedAttempts == 0)
        #expect(try await Self.opens(tag, "new.txt"))
        // A second change back, and a rerun of it: each time the password the tag holds.
        let back = try await tag.run([
            "password", "set", "--password-file", tag.resolving("old.txt"), "--old-password-file",
            tag.resolving("new.txt"),
        ])
        #expect(back.status == 0, "\(back.error)")
        let again = try await tag.run([
            "password", "set", "--password-file", tag.resolving("old.txt"), "--old-password-file",
            tag.resolving("new.txt"), "-v",
        ])
        #expect(again.status == 0, "\(again.error)")
        #expect(PasswordTagFile.passwordAuthCount(again) == 2, "\(again.error)")
        #expect(tag.failedAttempts == 0)
        #expect(try await Self.opens(tag, "old.txt"))
    }

    @Test("Item 1: AUTHLIM 2 after one wrong `password auth`: the change sends no wrong password")
    func limitTwoAfterAWrongAttempt() async throws {
        let tag = try await Self.protected(["--attempt-limit", "2"])
        _ = try tag.passwordFile("01020304", name: "wrong.txt")
        // The wrong attempt from another machine (this one refuses a password its record says
        // the tag does not hold, before sending it).
        let wrong = try await tag.run(
            ["password", "auth", "--password-file", tag.resolving("wrong.txt")], environment: tag.elsewhere)
        #expect(wrong.status == 78)
        #expect(tag.failedAttempts == 1)
        let change = try await Self.change(tag, ["--attempt-limit", "2"])
        #expect(change.status == 0, "\(change.error)")
        #expect(try await Self.opens(tag, "new.txt"))
    }

    @Test(
        "Item 2: a change from AUTHLIM 1 to 2 with any write lost, then the same command: it completes",
        arguments: 1...7)
    func lostWriteThenRerun(write: Int) async throws {
        let tag = try await Self.protected(["--attempt-limit", "1"])
        let cut = try await Self.change(tag, ["--attempt-limit", "2"], faults: "&lose-write=\(write)")
        #expect([0, 75, 80].contains(cut.status), "\(cut.error)")
        let rerun = try await Self.change(tag, ["--attempt-limit", "2"])
        #expect(rerun.status == 0, "lose-write=\(write), then again: \(rerun.error)")
        #expect(try await Self.opens(tag, "new.txt"))
        #expect(tag.failedAttempts == 0)
    }

    @Test("Item 2: from AUTHLIM 2 to 1 with the second write lost: the check does not disable the password")
    func twoToOneLostWrite() async throws {
        let tag = try await Self.protected(["--attempt-limit", "2"])
        let cut = try await Self.change(tag, ["--attempt-limit", "1"], faults: "&lose-write=2")
        #expect([0, 80].contains(cut.status), "\(cut.error)")
        let rerun = try await Self.change(tag, ["--attempt-limit", "1"])
        #expect(rerun.status == 0, "\(rerun.error)")
        #expect(try await Self.opens(tag, "new.txt"))
    }

    @Test("Item 3: AUTHLIM 0, the CFG1 write lost, then the same command: it completes")
    func lostConfigurationWrite() async throws {
        let tag = try await Self.protected([])
        for write in 1...5 {
            let cut = try await Self.change(tag, ["--attempt-limit", "2"], faults: "&lose-write=\(write)")
            #expect([0, 75, 80].contains(cut.status), "\(cut.error)")
            let rerun = try await Self.change(tag, ["--attempt-limit", "2"])
            #expect(rerun.status == 0, "lose-write=\(write): \(rerun.error)")
            // Back to the old password for the next round.
            let back = try await tag.run([
                "password", "set", "--password-file", tag.resolving("old.txt"), "--old-password-file",
                tag.resolving("new.txt"), "--attempt-limit", "0",
            ])
            #expect(back.status == 0, "\(back.error)")
        }
    }

    @Test(
        "A change cut after it lifted AUTHLIM (the tag shows 0 for its time), rerun without the options: the record's AUTHLIM and PACK are set back"
    )
    func rerunTakesSettingsFromTheRecord() async throws {
        // Found by the exploration (Scripts/explore --seed 1): the rerun kept the passing AUTHLIM 0.
        let tag = try await Self.protected(["--attempt-limit", "2", "--pack", "8080"])
        for cut in 1...9 {
            let first = try await Self.change(tag, faults: "&remove-after=\(4 + cut)&in-flight=none")
            #expect([0, 75, 80].contains(first.status), "\(first.error)")
            let rerun = try await Self.change(tag)
            #expect(rerun.status == 0, "cut \(cut): \(rerun.error)")
            let cfg1 = tag.page(132)?.split(separator: " ").first.flatMap { Int($0, radix: 16) }
            #expect(cfg1 == 0x02, "cut \(cut): AUTHLIM 2 back: \(tag.page(132) ?? "?")")
            #expect(tag.page(134)?.hasPrefix("80 80") == true, "cut \(cut): PACK: \(tag.page(134) ?? "?")")
            let back = try await tag.run([
                "password", "set", "--password-file", tag.resolving("old.txt"), "--old-password-file",
                tag.resolving("new.txt"),
            ])
            #expect(back.status == 0, "\(back.error)")
        }
    }

    @Test("A wrong password file for auth, write or remove on an AUTHLIM 1 tag with a record: 78, no PWD_AUTH sent")
    func wrongFileRefusedByTheRecord() async throws {
        // Found by the exploration (Scripts/explore --seed 2): auth with another file disabled the tag.
        let tag = try await Self.protected(["--attempt-limit", "1"])
        for command in [
            ["password", "auth", "--password-file", tag.resolving("new.txt")],
            ["write", "uri", "https://example.com/b", "--password-file", tag.resolving("new.txt")],
            ["password", "remove", "--password-file", tag.resolving("new.txt")],
        ] {
            let before = tag.contents()
            let result = try await tag.run(command)
            #expect(result.status == 78, "\(command): \(result.error)")
            #expect(result.error.contains("Nothing was sent to the tag"), "\(result.error)")
            #expect(tag.failedAttempts == 0 && tag.contents() == before, "\(command)")
        }
        #expect(try await Self.opens(tag, "old.txt"))
        // Without the record (the tag changed elsewhere, say), the password is sent, once.
        try FileManager.default.removeItem(atPath: tag.folder.path("state"))
        let sent = try await tag.run(["password", "auth", "--password-file", tag.resolving("new.txt")])
        #expect(sent.status == 78 && tag.failedAttempts == 1, "\(sent.error)")
    }

    @Test(
        "remove with its AUTH0 write lost: 80, the tag keeps the old password (never the factory one); the rerun removes it"
    )
    func removalWithTheProtectionWriteLost() async throws {
        // Found by the exploration (seed 777052): PWD went back to FFFFFFFF on a tag still protected.
        let tag = try await Self.protected([])
        let cut = try await tag.run(
            ["password", "remove", "--password-file", tag.resolving("old.txt")], faults: "&lose-write=1")
        #expect(cut.status == 80, "\(cut.error)")
        #expect(tag.page(133) == "DE AD BE EF", "PWD: \(tag.page(133) ?? "?")")
        let rerun = try await tag.run(["password", "remove", "--password-file", tag.resolving("old.txt")])
        #expect(rerun.status == 0, "\(rerun.error)")
        #expect(tag.page(131)?.hasSuffix("FF") == true, "AUTH0: \(tag.page(131) ?? "?")")
    }

    @Test(
        "A removal cut with AUTHLIM left set, then auth with any file: nothing sent to a tag that protects no page"
    )
    func authOnAnUnprotectedTagWithALimit() async throws {
        // Found by the exploration (seed 7000056): a removal lost its CFG1 write, leaving AUTH0 FFh
        // and AUTHLIM 2; two auths with files that were not the factory password disabled it.
        let tag = try await Self.protected(["--attempt-limit", "2"])
        let cut = try await tag.run(
            ["password", "remove", "--password-file", tag.resolving("old.txt")], faults: "&lose-write=2")
        #expect(cut.status == 80, "\(cut.error)")
        #expect(tag.page(131)?.hasSuffix("FF") == true, "AUTH0: \(tag.page(131) ?? "?")")
        #expect(tag.page(132)?.hasPrefix("02") == true, "AUTHLIM: \(tag.page(132) ?? "?")")
        for name in ["new.txt", "old.txt", "new.txt"] {
            let auth = try await tag.run([
                "password", "auth", "--password-file", tag.resolving(name), "--json", "-v",
            ])
            #expect(auth.status == 0, "\(auth.error)")
            #expect(auth.outputText.contains("\"action\" : \"notNeeded\""), "\(auth.outputText)")
            #expect(PasswordTagFile.passwordAuthCount(auth) == 0)
        }
        #expect(tag.failedAttempts == 0)
        let rerun = try await tag.run(["password", "remove", "--password-file", tag.resolving("old.txt")])
        #expect(rerun.status == 0, "\(rerun.error)")
        #expect(tag.page(132)?.hasPrefix("00") == true, "AUTHLIM: \(tag.page(132) ?? "?")")
    }

    @Test("Item 4: a change keeps AUTHLIM, PROT and the PACK it was not given, and says so")
    func changeKeepsSettings() async throws {
        let tag = try await Self.protected(["--attempt-limit", "3", "--read-protect", "--pack", "8080"])
        let change = try await Self.change(tag)
        #expect(change.status == 0, "\(change.error)")
        #expect(change.error.contains("Kept from the tag: read protection (PROT), attempt limit 3 (AUTHLIM), PACK"))
        let cfg1 = tag.page(132)?.split(separator: " ").first.flatMap { Int($0, radix: 16) }
        #expect(cfg1 == 0x83, "PROT and AUTHLIM 3: \(tag.page(132) ?? "?")")
        #expect(tag.page(134)?.hasPrefix("80 80") == true, "PACK: \(tag.page(134) ?? "?")")
        let checked = try await tag.run([
            "password", "auth", "--password-file", tag.resolving("new.txt"), "--pack", "8080",
        ])
        #expect(checked.status == 0, "\(checked.error)")
        // Given on the command line, a setting changes.
        let off = try await tag.run([
            "password", "set", "--password-file", tag.resolving("new.txt"), "--old-password-file",
            tag.resolving("new.txt"), "--no-read-protect", "--attempt-limit", "0",
        ])
        #expect(off.status == 0, "\(off.error)")
        #expect(tag.page(132)?.hasPrefix("00") == true, "\(tag.page(132) ?? "?")")
    }

    @Test("No record of the change on this machine and the same settings: nothing sent, --tag-holds settles it")
    func noRecordAsks() async throws {
        let tag = try await Self.protected(["--attempt-limit", "1"])
        #expect(try await Self.change(tag).status == 0)
        try FileManager.default.removeItem(atPath: tag.folder.path("state"))
        // The careless rerun: the tag holds the new password, the command says old; nothing sent.
        let before = tag.contents()
        let rerun = try await Self.change(tag)
        #expect(rerun.status == 64, "\(rerun.error)")
        #expect(rerun.error.contains("--tag-holds old"), "\(rerun.error)")
        #expect(PasswordTagFile.passwordAuthCount(rerun) == 0)
        #expect(tag.contents() == before)
        let settled = try await Self.change(tag, ["--tag-holds", "new"])
        #expect(settled.status == 0, "\(settled.error)")
        #expect(tag.failedAttempts == 0)
        #expect(try await Self.opens(tag, "new.txt"))
    }

    @Test("A record the tag contradicts (changed elsewhere since) is not trusted")
    func staleRecord() async throws {
        let tag = try await Self.protected(["--attempt-limit", "1"])
        let saved = tag.contents()
        #expect(try await Self.change(tag, ["--attempt-limit", "2"]).status == 0)
        // The tag goes back to its state before the change, as another machine could leave it:
        // the record (AUTHLIM 2, the new password) no longer describes it (AUTHLIM 1).
        try saved.write(toFile: tag.path, atomically: true, encoding: .utf8)
        let again = try await Self.change(tag, ["--attempt-limit", "2"])
        #expect(again.status == 0, "\(again.error)")
        #expect(tag.failedAttempts == 0)
        #expect(try await Self.opens(tag, "new.txt"))
    }

    @Test("Every cut of a same-settings change with AUTHLIM 1, then the same command: done, nothing wrong sent")
    func everyCutSameSettings() async throws {
        for inFlight in ["tear", "none", "complete"] {
            var cut = 1
            while cut < 30 {
                let tag = try await Self.protected(["--attempt-limit", "1", "--pack", "8080"])
                let first = try await Self.change(tag, faults: "&remove-after=\(cut)&in-flight=\(inFlight)")
                if first.status == 0 { break }
                let rerun = try await Self.change(tag)
                #expect(rerun.status == 0, "cut \(cut) (\(inFlight)): \(rerun.error)")
                #expect(tag.failedAttempts == 0, "cut \(cut) (\(inFlight))")
                let checked = try await tag.run([
                    "password", "auth", "--password-file", tag.resolving("new.txt"), "--pack", "8080",
                ])
                #expect(checked.status == 0, "cut \(cut) (\(inFlight)): \(checked.error)")
                cut += 1
            }
            #expect(cut > 8, "\(inFlight): cut \(cut - 1) times")
        }
    }
}
