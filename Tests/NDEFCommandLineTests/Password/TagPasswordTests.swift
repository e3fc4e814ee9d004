import Foundation
import TestSupport
import Testing

/// `ndeftool password` against simulated NTAG215 and MIFARE Ultralight EV1 (MF0UL11) tags:
/// NTAG213/215/216 datasheet 8.8 (PWD_AUTH, AUTH0, PROT, AUTHLIM, CFGLCK), 8.5.7 (the
/// configuration pages) and MF0ULX1 8.6.
@Suite(.timeLimit(.minutes(5))) struct TagPasswordTests {
    /// PWD and PACK pages: NTAG215 133 and 134 (8.5.7, table 11); MF0UL11 18 and 19 (MF0ULX1 8.5.7).
    static let pages = [
        "ntag215": (password: 133, acknowledge: 134), "ultralight-ev1": (password: 18, acknowledge: 19),
    ]

    /// 8.8: set, authenticate with the PACK checked, remove; PWD and PACK back to FF FF FF FF / 00 00.
    @Test(arguments: ["ntag215", "ultralight-ev1"])
    func setAuthRemoveRoundTrip(chip: String) async throws {
        let tag = try PasswordTagFile(chip: chip)
        let pages = try #require(Self.pages[chip])
        if chip != "ntag215" { #expect(try await tag.run(["format"]).status == 0) }
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = try PasswordTagFile.object(try await tag.run(["password", "status", "--json"]))
        #expect(before["protected"] as? Bool == false)
        #expect(before["mechanism"] as? String == "password")

        let file = try tag.passwordFile("DEADBEEF")
        let set = try await tag.run(["password", "set", "--password-file", file, "--pack", "8080", "--json"])
        #expect(set.status == 0, "\(set.error)")
        let report = try PasswordTagFile.object(set)
        #expect(report["protected"] as? Bool == true)
        #expect(report["fromPage"] as? Int == 4)
        #expect(report["readProtected"] as? Bool == false)
        #expect(report["attemptLimit"] as? Int == 0)
        #expect(tag.page(pages.password) == "DE AD BE EF")
        #expect(tag.page(pages.acknowledge) == "80 80 00 00")

        // Writing from page 4 on needs the password now (8.8.1).
        #expect(try await tag.run(["write", "uri", "https://example.org"]).status == 78)
        #expect(try await tag.run(["read", "--hex"]).outputText == "d1010c55046578616d706c652e636f6d\n")

        let auth = try await tag.run(
            ["password", "auth", "--pack", "8080", "--json"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(auth.status == 0, "\(auth.error)")
        let authReport = try PasswordTagFile.object(auth)
        #expect(authReport["action"] as? String == "authenticated")
        #expect(authReport["acknowledgeCheck"] as? String == "matches --pack")
        #expect(authReport["passwordDisabled"] as? Bool == false)
        let otherPack = try await tag.run(["password", "auth", "--password-file", file, "--pack", "0000"])
        #expect(otherPack.status == 78)
        #expect(otherPack.error.contains("may not be genuine"))

        let remove = try await tag.run(["password", "remove", "--password-file", file, "--json"])
        #expect(remove.status == 0, "\(remove.error)")
        #expect(try PasswordTagFile.object(remove)["protected"] as? Bool == false)
        #expect(tag.page(pages.password) == "FF FF FF FF")
        #expect(tag.page(pages.acknowledge) == "00 00 00 00")
        #expect(try await tag.run(["write", "uri", "https://example.org"]).status == 0)
    }

    /// 8.8.2: a wrong password is one PWD_AUTH, counted against AUTHLIM, never retried.
    @Test func wrongPasswordIsOnePasswordAuthentication() async throws {
        let tag = try PasswordTagFile()
        let set = try await tag.run(
            ["password", "set", "--attempt-limit", "3"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(set.status == 0, "\(set.error)")
        #expect(set.error.contains("Warning: after 3 wrong passwords the password is disabled for good"))
        let wrong = try await tag.run(
            ["password", "auth", "-v"], environment: tag.elsewhere.merging(["NDEFTOOL_PASSWORD": "00000000"]) { $1 })
        #expect(wrong.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(wrong) == 1)
        #expect(wrong.error.contains("not retried"))
        #expect(wrong.error.contains("The attempt limit is 3 (AUTHLIM): this attempt counted"))
        #expect(tag.failedAttempts == 1)
        #expect(wrong.output.isEmpty)
    }

    /// 8.8.2: once AUTHLIM failed attempts are used up, PWD_AUTH answers NAK 4h, the right
    /// password too; `auth` reports the password disabled.
    @Test(arguments: ["ntag215", "ultralight-ev1"])
    func attemptLimitReachedDisablesThePassword(chip: String) async throws {
        let tag = try PasswordTagFile(chip: chip)
        let file = try tag.passwordFile("n0tE")
        #expect(try await tag.run(["password", "set", "--password-file", file, "--attempt-limit", "1"]).status == 0)
        let wrong = tag.elsewhere.merging(["NDEFTOOL_PASSWORD": "n0te"]) { $1 }
        #expect(try await tag.run(["password", "auth"], environment: wrong).status == 78)
        let right = try await tag.run(["password", "auth", "--password-file", file, "--json", "-v"])
        #expect(right.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(right) == 1)
        #expect(right.error.contains("disabled for good"))
        let report = try PasswordTagFile.object(right)
        #expect(report["passwordDisabled"] as? Bool == true)
        #expect(report["action"] as? String == "disabled")
        #expect(try await tag.run(["password", "remove", "--password-file", file]).status == 78)
    }

    /// Passwords on the command line are refused in every form, before the tag is touched.
    @Test(arguments: [
        ["password", "set", "--password", "C0FFEE42"], ["password", "set", "--password=C0FFEE42"],
        ["password", "auth", "C0FFEE42"], ["password", "auth", "--pwd", "C0FFEE42"],
        ["password", "set", "--old-password", "C0FFEE42"], ["password", "set", "--new-password=C0FFEE42"],
        ["password", "remove", "-p", "C0FFEE42"], ["password", "set", "--", "C0FFEE42"], ["password", "C0FFEE42"],
        ["password", "auth", "--pin", "C0FFEE42"], ["password", "set", "--passwd", "C0FFEE42"],
        ["password", "auth", "--key=C0FFEE42"], ["password", "status", "C0FFEE42"],
        ["password", "set", "--from-page", "4", "C0FFEE42"],
    ])
    func passwordOnTheCommandLineIsRefused(arguments: [String]) async throws {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let result = try await tag.run(arguments)
        #expect(result.status == 64)
        #expect(result.error.contains("--password-file"))
        #expect(result.error.contains("NDEFTOOL_PASSWORD"))
        #expect(!result.error.contains("C0FFEE42"))
        #expect(tag.contents() == before)
    }

    /// The password and the PACK never appear in output, errors or the -v trace.
    @Test func secretsAreNeverShown() async throws {
        let tag = try PasswordTagFile()
        let file = try tag.passwordFile("C0 FF EE 42")
        let old = try tag.passwordFile("Zq9!", name: "old.txt")
        #expect(try await tag.run(["password", "set", "--password-file", old, "--pack", "5A71"]).status == 0)
        let runs = [
            try await tag.run([
                "password", "set", "--password-file", file, "--old-password-file", old, "--pack", "5A71", "-v",
            ]),
            try await tag.run(["password", "auth", "--password-file", file, "--pack", "5A71", "-v", "--json"]),
            try await tag.run(["password", "auth", "-v"], environment: ["NDEFTOOL_PASSWORD": "Zq9!"]),
            try await tag.run(["password", "remove", "--password-file", file, "-v"]),
        ]
        for run in runs {
            let text = (run.outputText + run.error).uppercased()
            for secret in ["C0 FF EE 42", "C0FFEE42", "ZQ9!", "5A 71", "5A71", "5A 71 00 00", "7A 71 39 21"] {
                #expect(!text.contains(secret), "\(secret) shown")
            }
        }
        #expect(runs[0].status == 0 && runs[1].status == 0 && runs[2].status == 78 && runs[3].status == 0)
        #expect(runs[0].error.contains("> A2 85 ** ** ** **  WRITE"))
        #expect(runs[0].error.contains("> A2 86 ** ** ** **  WRITE"))
        #expect(runs[0].error.contains("> 1B ** ** ** **  PWD_AUTH"))
        #expect(runs[1].error.contains("< 2 bytes: ** **"))
    }

    /// 8.5.7: CFGLCK is permanent, so --lock-config needs the code typed back or --confirm.
    @Test func lockConfigNeedsTheConfirmationCode() async throws {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let file = try tag.passwordFile("DEADBEEF")
        let before = tag.contents()
        let refused = try await tag.run(["password", "set", "--password-file", file, "--lock-config"])
        #expect(refused.status == 79)
        #expect(refused.error.contains("no terminal to ask on"))
        #expect(tag.contents() == before)
        let line = try #require(refused.error.split(separator: "\n").last)
        let code = String(try #require(line.split(separator: " ").last))
        let wrong = code == "000-000" ? "000-001" : "000-000"
        let wrongRun = try await tag.run([
            "password", "set", "--password-file", file, "--lock-config", "--confirm", wrong,
        ])
        #expect(wrongRun.status == 79)
        #expect(tag.contents() == before)
        // Other settings, other code.
        let other = try await tag.run(
            ["password", "set", "--password-file", file, "--lock-config", "--attempt-limit", "2", "--confirm", code])
        #expect(other.status == 79)
        #expect(tag.contents() == before)

        let locked = try await tag.run([
            "password", "set", "--password-file", file, "--lock-config", "--confirm", code, "--json",
        ])
        #expect(locked.status == 0, "\(locked.error)")
        #expect(try PasswordTagFile.object(locked)["configurationLocked"] as? Bool == true)
        #expect(tag.page(132) == "40 00 00 00")
        #expect(try await tag.run(["password", "remove", "--password-file", file]).status == 77)
        let change = try await tag.run(
            ["password", "set", "--old-password-file", file, "--attempt-limit", "2"],
            environment: ["NDEFTOOL_PASSWORD": "11223344"])
        #expect(change.status == 77)
        #expect(try await tag.run(["password", "auth", "--password-file", file]).status == 0)
    }

    /// Changing a password needs the old one first: one PWD_AUTH with it. No password is tried
    /// that is not known to be on the tag while attempts count: not the new one because the tag
    /// shows the settings asked for, not an old one this machine's record says the tag no longer
    /// holds.
    @Test func changingNeedsTheOldPassword() async throws {
        let tag = try PasswordTagFile()
        let first = try tag.passwordFile("DEADBEEF")
        let second = try tag.passwordFile("11223344", name: "new.txt")
        #expect(try await tag.run(["password", "set", "--password-file", first, "--attempt-limit", "7"]).status == 0)
        let missing = try await tag.run(["password", "set", "--password-file", second, "-v"])
        #expect(missing.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(missing) == 0)
        #expect(missing.error.contains("current (old) password is needed"))
        let same = try await tag.run(["password", "set", "--password-file", second, "--attempt-limit", "7", "-v"])
        #expect(same.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(same) == 0)
        let wrong = try await tag.run(
            ["password", "set", "--password-file", second, "--attempt-limit", "7", "-v"],
            environment: ["NDEFTOOL_OLD_PASSWORD": "00000000"])
        #expect(wrong.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(wrong) == 0)
        #expect(wrong.error.contains("says the tag holds neither the old password given nor the new one"))
        #expect(tag.failedAttempts == 0)
        // Without the record, and other settings asked for: the old password given is tried, once.
        try FileManager.default.removeItem(atPath: tag.folder.path("state"))
        let unrecorded = try await tag.run(
            ["password", "set", "--password-file", second, "--attempt-limit", "6", "-v"],
            environment: ["NDEFTOOL_OLD_PASSWORD": "00000000"])
        #expect(unrecorded.status == 78)
        #expect(PasswordTagFile.passwordAuthCount(unrecorded) == 1)
        #expect(unrecorded.error.contains("this attempt counted, so at most 6 remain"), "\(unrecorded.error)")
        #expect(tag.failedAttempts == 1)
        #expect(tag.page(133) == "DE AD BE EF")
        // The settings kept, no record: either password could be on the tag; --tag-holds says which.
        let ambiguous = try await tag.run(
            ["password", "set", "--password-file", second, "-v"], environment: ["NDEFTOOL_OLD_PASSWORD": "DEADBEEF"])
        #expect(ambiguous.status == 64)
        #expect(PasswordTagFile.passwordAuthCount(ambiguous) == 0)
        let changed = try await tag.run(
            ["password", "set", "--password-file", second, "--tag-holds", "old"],
            environment: ["NDEFTOOL_OLD_PASSWORD": "DEADBEEF"])
        #expect(changed.status == 0, "\(changed.error)")
        #expect(changed.error.contains("Kept from the tag: attempt limit 7 (AUTHLIM)"), "\(changed.error)")
        #expect(try await tag.run(["password", "auth", "--password-file", second]).status == 0)
        #expect(try await tag.run(["password", "auth", "--password-file", first]).status == 78)
    }

    /// --read-protect (PROT) and --from-page (AUTH0): status shows them; reading needs the password.
    @Test func readProtectionFromAPage() async throws {
        let tag = try PasswordTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let set = try await tag.run(
            ["password", "set", "--password-file", "-", "--read-protect", "--from-page", "16"],
            input: Array("DEADBEEF\nignored\n".utf8))
        #expect(set.status == 0, "\(set.error)")
        #expect(set.outputText.contains("Protected: from page 16, reading and writing"))
        #expect(tag.page(131) == "04 00 00 10")
        #expect(tag.page(132) == "80 00 00 00")
        // CFG0 and CFG1 (pages 131-132) are read-protected now: status cannot tell the details.
        let status = try PasswordTagFile.object(try await tag.run(["password", "status", "--json"]))
        #expect(status["protected"] as? Bool == true)
        #expect(status["readProtected"] as? Bool == true)
        #expect(status["attemptLimit"] is NSNull)
        #expect(try await tag.run(["read", "--hex"]).status == 78)
    }

    /// Chips without PWD_AUTH: exit status 69, nothing written.
    @Test func chipWithoutPasswordIsUnavailable() async throws {
        let tag = try PasswordTagFile(chip: "ultralight")
        #expect(try await tag.run(["format"]).status == 0)
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let before = tag.contents()
        let set = try await tag.run(["password", "set"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(set.status == 69)
        #expect(try await tag.run(["password", "auth"], environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"]).status == 69)
        #expect(tag.contents() == before)
        let status = try PasswordTagFile.object(try await tag.run(["password", "status", "--json"]))
        #expect(status["mechanism"] as? String == "none")
    }

    /// Options out of range are usage errors; nothing is written.
    @Test(arguments: [
        ["--attempt-limit", "8"], ["--attempt-limit", "-1"], ["--from-page", "256"], ["--pack", "80"],
        ["--pack", "zzzz"], ["--confirm", "123-456"], ["--lock-config", "--confirm", "12"],
        ["--password-file", "-", "--old-password-file", "-"],
    ])
    func badOptionsAreUsageErrors(options: [String]) async throws {
        let tag = try PasswordTagFile()
        let result = try await tag.run(["password", "set"] + options, environment: ["NDEFTOOL_PASSWORD": "DEADBEEF"])
        #expect(result.status == 64)
        #expect(tag.contents().isEmpty)
    }
}
