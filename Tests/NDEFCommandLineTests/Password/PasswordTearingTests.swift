import Foundation
import TestSupport
import Testing

/// The password commands cut after every tag command, through the built binary on a simulated
/// NTAG215 kept in a file: the tag leaves the field during command N, and the command in flight
/// is carried out (`complete`), not at all (`none`), or torn (`tear`: a page write leaves bytes
/// 0-1 new and 2-3 old, as an EEPROM write cut short; NTAG213/215/216 10.4 protects no
/// configuration page against it).
///
/// After every cut the tag opens with the old password, the new one, or needs none (it never
/// holds a half-written password behind AUTH0); the same command run again completes, with at
/// most one PWD_AUTH per candidate password, and no failed attempt where the state tells which
/// password is on the tag.
@Suite("Password tearing matrix: every cut leaves the old, the new or no password", .timeLimit(.minutes(10)))
struct PasswordTearingTests {
    static let oldPassword = "AABBCCDD"
    static let newPassword = "11223344"

    /// What is cut.
    enum Scenario: String, CaseIterable, CustomTestStringConvertible {
        /// `password set` on a tag without a password.
        case setOnFresh
        /// `password set` with another password, PACK and attempt limit on a protected tag.
        case change
        /// `password set` with the same password and a new attempt limit.
        case attemptLimitOnly
        /// `password set` with another password and the same settings: the tag's settings do
        /// not tell the old password from the new one.
        case changeSameSettings
        /// `password remove`.
        case remove

        var testDescription: String { rawValue }

        /// The password the tag has before the command, if any, and its settings.
        var before: [String]? {
            self == .setOnFresh ? nil : ["--password-file", "old.txt", "--pack", "0102", "--attempt-limit", "3"]
        }

        /// The command that is cut, and run again.
        var command: [String] {
            switch self {
            case .setOnFresh:
                ["password", "set", "--password-file", "new.txt", "--pack", "5566", "--attempt-limit", "3"]
            case .change:
                [
                    "password", "set", "--old-password-file", "old.txt", "--password-file", "new.txt", "--pack",
                    "5566", "--attempt-limit", "5",
                ]
            case .attemptLimitOnly:
                [
                    "password", "set", "--old-password-file", "old.txt", "--password-file", "old.txt", "--pack",
                    "0102", "--attempt-limit", "2",
                ]
            case .changeSameSettings:
                [
                    "password", "set", "--old-password-file", "old.txt", "--password-file", "new.txt", "--pack",
                    "5566", "--attempt-limit", "3",
                ]
            case .remove: ["password", "remove", "--password-file", "old.txt"]
            }
        }

        /// PWD, AUTH0 and AUTHLIM when the command is complete (nil AUTH0: no protection).
        var final: (password: String, auth0: Int?, limit: Int) {
            switch self {
            case .setOnFresh: (PasswordTearingTests.newPassword, 4, 3)
            case .change: (PasswordTearingTests.newPassword, 4, 5)
            case .attemptLimitOnly: (PasswordTearingTests.oldPassword, 4, 2)
            case .changeSameSettings: (PasswordTearingTests.newPassword, 4, 3)
            case .remove: ("FFFFFFFF", nil, 0)
            }
        }

        /// The most PWD_AUTH a rerun may send: one per candidate password, plus the check of a
        /// new password before protection starts.
        var rerunLimit: Int {
            switch self {
            case .setOnFresh: 2
            case .change, .changeSameSettings: 3
            case .attemptLimitOnly: 2
            case .remove: 1
            }
        }
    }

    /// Who opens the tag as its file holds it: `"none"` (AUTH0 past the last page), `"old"` or
    /// `"new"` (PWD, the whole page), or nil for a PWD that is neither behind protection.
    static func opener(_ tag: PasswordTagFile) -> String? {
        guard let cfg0 = tag.page(131), let pwd = tag.page(133) else { return nil }
        let auth0 = Int(cfg0.split(separator: " ").last ?? "", radix: 16) ?? 0
        if auth0 > 134 { return "none" }
        switch pwd.replacingOccurrences(of: " ", with: "") {
        case oldPassword: return "old"
        case newPassword: return "new"
        default: return nil
        }
    }

    /// A protected-or-not NTAG215 holding a URI, with `old.txt` and `new.txt` beside it.
    static func prepared(_ scenario: Scenario) async throws -> PasswordTagFile {
        let tag = try PasswordTagFile()
        _ = try tag.passwordFile(oldPassword, name: "old.txt")
        _ = try tag.passwordFile(newPassword, name: "new.txt")
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        if let before = scenario.before {
            let set = try await tag.run(["password", "set"] + before.map(tag.resolving))
            #expect(set.status == 0, "\(set.error)")
        }
        return tag
    }

    @Test(
        "NTAG213/215/216 8.8, 10.4: every cut leaves the old, the new or no password; running again completes",
        arguments: Scenario.allCases, ["tear", "none", "complete"])
    func everyCut(scenario: Scenario, inFlight: String) async throws {
        var cut = 1
        while cut < 40 {
            let tag = try await Self.prepared(scenario)
            let command = scenario.command.map(tag.resolving)
            let interrupted = try await tag.run(command, faults: "&remove-after=\(cut)&in-flight=\(inFlight)")
            if interrupted.status == 0 { break }  // the run needs fewer commands: every cut was tried
            let context = "\(scenario) cut at command \(cut) (\(inFlight))"
            #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
            let opener = Self.opener(tag)
            #expect(opener != nil, "\(context): PWD \(tag.page(133) ?? "?") behind AUTH0 \(tag.page(131) ?? "?")")

            let rerun = try await tag.run(command + ["-v"])
            #expect(rerun.status == 0, "\(context), then run again (tag opened by \(opener ?? "?")): \(rerun.error)")
            let auths = PasswordTagFile.passwordAuthCount(rerun)
            #expect(auths <= scenario.rerunLimit, "\(context): \(auths) PWD_AUTH")
            if opener == "none" {
                #expect(auths == (scenario == .remove ? 0 : 1), "\(context): only the check of the new password")
            }
            if scenario != .changeSameSettings && scenario != .remove && opener != "none" {
                #expect(auths == 2, "\(context): the right password first, then the check")
            }
            let final = scenario.final
            #expect(tag.page(133)?.replacingOccurrences(of: " ", with: "") == final.password, "\(context)")
            let cfg0 = tag.page(131)?.split(separator: " ").last.flatMap { Int($0, radix: 16) }
            #expect(cfg0 == (final.auth0 ?? 0xFF), "\(context)")
            let cfg1 = tag.page(132)?.split(separator: " ").first.flatMap { Int($0, radix: 16) }
            #expect(cfg1.map { $0 & 0x07 } == final.limit, "\(context)")
            #expect(tag.failedAttempts == 0, "\(context)")
            cut += 1
        }
        #expect(cut > 5, "the command was cut \(cut - 1) times")
    }

    /// The lockouts the order prevents: a change that wrote PWD while AUTH0 kept the pages
    /// protected left a torn PWD (`12 34 BE EF`) that opened nothing; a change that checked the
    /// new password while AUTHLIM counted could use up the last attempt on a torn PWD. AUTHLIM 0
    /// and AUTH0 FFh now come first, the PWD_AUTH of the new password before CFG1 and AUTH0 are
    /// set as asked.
    @Test("8.8: a change lifts AUTHLIM and AUTH0 first and checks the new password before either is set")
    func changeOrder() async throws {
        let tag = try await Self.prepared(.change)
        let change = try await tag.run(Scenario.change.command.map(tag.resolving) + ["-v"])
        #expect(change.status == 0, "\(change.error)")
        let frames = change.error.split(separator: "\n").filter { $0.contains("A2 8") || $0.contains("1B ") }
            .map { line in line.split(separator: ">").last.map(String.init) ?? String(line) }
        let order = frames.compactMap { frame -> String? in
            if frame.contains("A2 83 04 00 00 FF") { return "AUTH0 FF" }
            if frame.contains("A2 85") { return "PWD" }
            if frame.contains("A2 86") { return "PACK" }
            if frame.contains("A2 84 00") { return "CFG1 AUTHLIM 0" }
            if frame.contains("A2 84") { return "CFG1" }
            if frame.contains("A2 83 04 00 00 04") { return "AUTH0 04" }
            if frame.contains("1B ") { return "PWD_AUTH" }
            return nil
        }
        #expect(
            order == ["PWD_AUTH", "CFG1 AUTHLIM 0", "AUTH0 FF", "PWD", "PACK", "PWD_AUTH", "CFG1", "AUTH0 04"],
            "\(change.error)")
    }
}
