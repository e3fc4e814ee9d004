import Foundation
import NTAG424
import TagSimulator
import TestSupport
import Testing

/// `sdm setup --lrp` through the built binary on simulated NTAG 424 DNA tags kept in files: the
/// switch to LRP (SetConfiguration, for good) inside the confirmed set-up, taps that verify in
/// LRP, every cut finished by the same command with each key the factory's or the plan's (read
/// from the tag file itself), and a plan in AES refused on a tag in LRP.
@Suite("sdm setup --lrp", .timeLimit(.minutes(10)))
struct SDMLRPCommandTests {
    typealias Setting = SDMSetupCommandTests.Setting

    static func setUp(_ setting: Setting) -> [String] { setting.setUp + ["--lrp"] }

    /// The chip as the tag file holds it; nil before the first change saved it.
    static func savedChip(_ setting: Setting) throws -> SimulatedNTAG424Chip? {
        guard FileManager.default.fileExists(atPath: setting.folder.path("t424.t4t")) else { return nil }
        return try SDMRotationCommandTests.chip(setting)
    }

    @Test("A factory tag switched to LRP and set up: the plan says so, 5 taps verify in LRP, 48-character PICCData")
    func taps() async throws {
        let setting = try Setting("sdm-lrp")
        defer { setting.folder.remove() }
        let dry = try await SDMSetupCommandTests.run(Self.setUp(setting) + ["--dry-run"], reader: setting.reader)
        #expect(dry.outputText.contains("SDM: LRP; PICCData at 29 (key 1), SDMMAC at 83 (key 2"), "\(dry.outputText)")
        #expect(dry.outputText.contains("switch the tag to LRP (for good"), "\(dry.outputText)")
        let json = try await SDMSetupCommandTests.run(
            Self.setUp(setting) + ["--dry-run", "--json"], reader: setting.reader)
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(plan["mode"] as? String == "LRP", "\(json.outputText)")
        // An LRP plan's code confirms no AES plan, and the other way round.
        let aesCode = try await SDMSetupCommandTests.code(setting, reader: setting.reader)
        let refused = try await SDMSetupCommandTests.run(
            Self.setUp(setting) + ["--confirm", aesCode], reader: setting.reader)
        #expect(refused.status == 79, "\(refused.error)")
        #expect(try Self.savedChip(setting)?.mode ?? .aes == .aes)
        let done = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: setting.reader)
        #expect(done.status == 0 && done.outputText.contains("  switched the tag to LRP (for good)\n"), "\(done.error)")
        #expect(try SDMRotationCommandTests.chip(setting).mode == .lrp)
        let objects = try await SDMFileDataCommandTests.taps(5, setting)
        #expect(objects.allSatisfy { $0["valid"] as? Bool == true && $0["mode"] as? String == "LRP" })
        #expect(objects.compactMap { $0["counter"] as? Int } == Array(2...6))
        let url = try #require(objects.first?["url"] as? String)
        #expect(url.split(separator: "picc_data=").last?.prefix { $0 != "&" }.count == 48, "\(url)")
        // Run again: nothing to do; in AES: refused before anything is sent (76).
        let again = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: setting.reader)
        #expect(again.outputText.contains("Nothing to change"), "\(again.outputText)")
        let aes = try await SDMSetupCommandTests.run(setting.setUp + ["--dry-run"], reader: setting.reader)
        #expect(aes.outputText.contains("To do: nothing: the tag speaks LRP"), "\(aes.outputText)")
        let before = try SDMRotationCommandTests.chip(setting).storedState
        let aesRun = try await SDMFileDataCommandTests.confirmed(setting.setUp, reader: setting.reader)
        #expect(aesRun.status == 76 && aesRun.error.contains("speaks LRP"), "\(aesRun.error)")
        // Only the SDM read counter moved (the dry run and the refused run read the URL).
        var after = try SDMRotationCommandTests.chip(setting).storedState
        let counterIndex = 5 + 3
        after[counterIndex] = before[counterIndex]
        #expect(after == before)
    }

    @Test(
        "Every cut of a set-up with the switch to LRP: the same command finishes; each key factory or the plan's",
        arguments: ["complete", "tear"])
    func everyCut(inFlight: String) async throws {
        var cut = 1
        var switchedAtCut = false
        while cut < 80 {
            let setting = try Setting("sdm-lrp-cut")
            defer { setting.folder.remove() }
            let plan = try SDMRotationCommandTests.keys(setting)
            let interrupted = try await SDMFileDataCommandTests.confirmed(
                Self.setUp(setting), reader: setting.reader, cut: "&remove-after=\(cut)&in-flight=\(inFlight)")
            if interrupted.status == 0 { break }
            let context = "cut at command \(cut) (\(inFlight))"
            #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
            let cutChip = try Self.savedChip(setting) ?? SimulatedNTAG424Chip()
            for number in 0..<5 {
                #expect(
                    cutChip.keys[number] == NFCNTAG424TagFactoryKey.value || cutChip.keys[number] == plan[number],
                    "\(context): key \(number) is neither")
            }
            if cutChip.mode == .lrp && cutChip.keys[0] == NFCNTAG424TagFactoryKey.value { switchedAtCut = true }
            let rerun = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: setting.reader)
            #expect(rerun.status == 0, "\(context), then run again: \(rerun.error)")
            let chip = try SDMRotationCommandTests.chip(setting)
            #expect(chip.mode == .lrp && chip.keys == plan && chip.keyVersions == [1, 1, 1, 1, 1], "\(context)")
            #expect(try await SDMSetupCommandTests.verifies(setting), "\(context)")
            cut += 1
        }
        #expect(cut > 20, "the set-up was cut \(cut - 1) times")
        #expect(switchedAtCut, "no cut fell between the switch and key 0's change")
    }
}

/// The factory key (16 zero bytes), as the tests compare it.
enum NFCNTAG424TagFactoryKey {
    static let value = [UInt8](repeating: 0, count: 16)
}
