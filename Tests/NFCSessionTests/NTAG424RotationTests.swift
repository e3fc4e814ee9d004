import Foundation
import NDEF
import NFCSession
import NTAG424
import TagSimulator
import TestSupport
import Testing

/// ``NFCNTAG424Tag/setUpSDM(_:from:confirmation:progress:)`` moving a set-up tag to new keys
/// and a new URL, and ``NFCNTAG424Tag/resetToFactory(from:confirmation:progress:)``, on simulated
/// tags kept in files, whose keys the tests read from the file itself: every cut leaves each key
/// the old one or the new one, and the same call finishes.
@Suite("NTAG 424 DNA key rotation and factory reset", .timeLimit(.minutes(10)))
struct NTAG424RotationTests {
    static let oldKeys = (0..<5).map { [UInt8](repeating: UInt8(0x40 + $0), count: 16) }
    static let newKeys = (0..<5).map { number in (0..<16).map { UInt8(0xA0 + 0x05 * number + $0) } }
    static let uid: [UInt8] = [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80]

    static func oldPlan(locksNDEF: Bool = false) throws -> NTAG424SDMPlan {
        try NTAG424SDMPlan(
            template: try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}"), keys: oldKeys,
            locksNDEF: locksNDEF)
    }

    static func newPlan(keyVersion: UInt8 = 2, locksNDEF: Bool = false) throws -> NTAG424SDMPlan {
        try NTAG424SDMPlan(
            template: try NTAG424SDMTemplate(url: "https://new.example/v2/tap?p={picc}&m={mac}"), keys: newKeys,
            keyVersion: keyVersion, metaReadKey: 3, fileReadKey: 4, locksNDEF: locksNDEF)
    }

    /// The chip as its tag file holds it.
    static func chip(_ folder: TemporaryDirectory) throws -> SimulatedNTAG424Chip {
        let text = try String(contentsOfFile: folder.path("t424.t4t"), encoding: .utf8)
        return try #require(try SimulatedType4Tag(stateText: text).ntag424)
    }

    static func reader(_ folder: TemporaryDirectory) -> String {
        "sim:ntag424?uid=04518DFAA96180&file=\(folder.path("t424.t4t"))"
    }

    /// A tag set up with the old plan.
    static func setUpOld(_ folder: TemporaryDirectory, locksNDEF: Bool = false) async throws {
        let plan = try oldPlan(locksNDEF: locksNDEF)
        _ = try await NTAG424SetupTests.onTag(reader(folder)) {
            try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan))
        }
    }

    @Test("A set-up tag moved to new keys, URL and SDM keys: keys 1-4 then 0 changed from the old; run again, nothing")
    func rotation() async throws {
        let folder = try TemporaryDirectory("ntag424-rotate")
        defer { folder.remove() }
        try await Self.setUpOld(folder)
        let plan = try Self.newPlan()
        let from = try NTAG424KeySet(Self.oldKeys)
        let steps = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.setUpSDM(plan, from: from, confirmation: try $0.prepareSDMSetUp(plan, from: from))
        }
        #expect(
            steps == [
                "wrote the message", "set SDM on the NDEF file", "changed key 1", "changed key 2", "changed key 3",
                "changed key 4", "changed key 0",
            ])
        let chip = try Self.chip(folder)
        #expect(chip.keys == Self.newKeys && chip.keyVersions == [2, 2, 2, 2, 2])
        #expect(chip.fileSettings[0x02] == plan.settings)
        let again = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.setUpSDM(plan, from: from, confirmation: try $0.prepareSDMSetUp(plan, from: from))
        }
        #expect(again == [])
    }

    @Test("The confirmation of a move stands for the keys it starts from: another key set's code is refused")
    func confirmationBoundToOldKeys() async throws {
        let folder = try TemporaryDirectory("ntag424-rotate-code")
        defer { folder.remove() }
        try await Self.setUpOld(folder)
        let plan = try Self.newPlan()
        let from = try NTAG424KeySet(Self.oldKeys)
        var otherKeys = Self.oldKeys
        otherKeys[4][0] ^= 1
        let other = try NTAG424KeySet(otherKeys)
        let mine = try NFCLockConfirmation(sdmSetUpOf: Self.uid, plan: plan, from: from)
        let theirs = try NFCLockConfirmation(sdmSetUpOf: Self.uid, plan: plan, from: other)
        let factory = try NFCLockConfirmation(sdmSetUpOf: Self.uid, plan: plan)
        #expect(mine.code != theirs.code && mine.contentDigest != factory.contentDigest)
        let error = try await NTAG424SetupTests.onTag(Self.reader(folder)) { tag in
            await #expect(throws: NFCReaderError.self) {
                try await tag.setUpSDM(plan, from: from, confirmation: theirs)
            }
        }
        #expect(error?.code == .confirmationMismatch)
        #expect(try Self.chip(folder).keys == Self.oldKeys)
    }

    @Test("Keys the change does not start from: refused before anything is written, the tag as it was")
    func foreignKeysRefused() async throws {
        let folder = try TemporaryDirectory("ntag424-rotate-foreign")
        defer { folder.remove() }
        try await Self.setUpOld(folder)
        let before = try Self.chip(folder)
        let plan = try Self.newPlan()
        var wrongKeys = Self.oldKeys
        wrongKeys[2][7] ^= 0x80
        let from = try NTAG424KeySet(wrongKeys)
        let progress = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.sdmProgress(plan, from: from)
        }
        #expect(progress.foreignKeys == [2])
        let error = try await NTAG424SetupTests.onTag(Self.reader(folder)) { tag in
            await #expect(throws: NFCReaderError.self) {
                try await tag.setUpSDM(plan, from: from, confirmation: try tag.prepareSDMSetUp(plan, from: from))
            }
        }
        #expect(error?.code == .authenticationFailed)
        let after = try Self.chip(folder)
        #expect(after.keys == before.keys && after.fileSettings == before.fileSettings)
    }

    /// Runs `change` on the tag cut after `cut` commands; false when it finished uncut.
    static func cutRun(
        _ folder: TemporaryDirectory, cut: Int, inFlight: String,
        _ change: @escaping (NFCNTAG424Tag) async throws -> Void
    ) async throws -> Bool {
        do {
            try await NTAG424SetupTests.onTag(Self.reader(folder) + "&remove-after=\(cut)&in-flight=\(inFlight)") {
                try await change($0)
            }
            return false
        } catch {
            return true
        }
    }

    @Test(
        "A move cut at every command leaves each key old or new; the same call finishes it with every key new",
        arguments: [("none", UInt8(2), false), ("tear", 2, true), ("complete", 1, false), ("tear", 1, false)])
    func everyCutOfARotation(inFlight: String, keyVersion: UInt8, locksNDEF: Bool) async throws {
        let plan = try Self.newPlan(keyVersion: keyVersion, locksNDEF: locksNDEF)
        let from = try NTAG424KeySet(Self.oldKeys)
        let change: @Sendable (NFCNTAG424Tag) async throws -> Void = { tag in
            try await tag.setUpSDM(plan, from: from, confirmation: try tag.prepareSDMSetUp(plan, from: from))
        }
        var cut = 1
        while cut < 120 {
            let folder = try TemporaryDirectory("ntag424-rotate-cut")
            defer { folder.remove() }
            try await Self.setUpOld(folder, locksNDEF: locksNDEF)
            guard try await Self.cutRun(folder, cut: cut, inFlight: inFlight, change) else { break }
            let context = "cut at command \(cut) (\(inFlight), version \(keyVersion))"
            let cutChip = try Self.chip(folder)
            for number in 0..<5 {
                #expect(
                    cutChip.keys[number] == Self.oldKeys[number] || cutChip.keys[number] == Self.newKeys[number],
                    "\(context): key \(number) is neither the old nor the new key")
            }
            do {
                try await NTAG424SetupTests.onTag(Self.reader(folder)) { try await change($0) }
            } catch {
                Issue.record("\(context), then run again: \(error)")
            }
            let chip = try Self.chip(folder)
            #expect(chip.keys == Self.newKeys, "\(context)")
            #expect(chip.keyVersions == Array(repeating: keyVersion, count: 5), "\(context)")
            #expect(chip.fileSettings[0x02] == plan.settings, "\(context)")
            cut += 1
        }
        #expect(cut > 25, "the move was cut \(cut - 1) times")
    }

    @Test("A set-up tag reset to factory keys, settings and a zero-filled NDEF file; run again, nothing")
    func factoryReset() async throws {
        let folder = try TemporaryDirectory("ntag424-reset")
        defer { folder.remove() }
        try await Self.setUpOld(folder, locksNDEF: true)
        let from = try NTAG424KeySet(Self.oldKeys)
        let steps = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.resetToFactory(from: from, confirmation: try $0.prepareFactoryReset(from: from))
        }
        #expect(steps.first == "emptied the NDEF file" && steps.last == "changed key 0" && steps.count == 7)
        let chip = try Self.chip(folder)
        let factory = SimulatedNTAG424Chip()
        #expect(chip.keys == factory.keys && chip.keyVersions == factory.keyVersions)
        #expect(chip.fileSettings == factory.fileSettings)
        let file = try await NTAG424SetupTests.onTag(Self.reader(folder)) { tag in
            try await tag.selectApplication()
            return try await tag.ndefFileBytes()
        }
        #expect(file == Array(repeating: 0, count: 256))
        let again = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.resetToFactory(from: from, confirmation: try $0.prepareFactoryReset(from: from))
        }
        #expect(again == [])
        // A factory tag again: the ordinary set-up takes it.
        let plan = try Self.newPlan()
        let setUp = try await NTAG424SetupTests.onTag(Self.reader(folder)) {
            try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan))
        }
        #expect(setUp.count == 7)
    }

    @Test(
        "A factory reset cut at every command leaves each key old or factory; the same call finishes it",
        arguments: ["none", "complete", "tear"])
    func everyCutOfAReset(inFlight: String) async throws {
        let from = try NTAG424KeySet(Self.oldKeys)
        let change: @Sendable (NFCNTAG424Tag) async throws -> Void = { tag in
            try await tag.resetToFactory(from: from, confirmation: try tag.prepareFactoryReset(from: from))
        }
        let factory = SimulatedNTAG424Chip()
        var cut = 1
        while cut < 120 {
            let folder = try TemporaryDirectory("ntag424-reset-cut")
            defer { folder.remove() }
            try await Self.setUpOld(folder)
            guard try await Self.cutRun(folder, cut: cut, inFlight: inFlight, change) else { break }
            let context = "cut at command \(cut) (\(inFlight))"
            let cutChip = try Self.chip(folder)
            for number in 0..<5 {
                #expect(
                    cutChip.keys[number] == Self.oldKeys[number] || cutChip.keys[number] == factory.keys[number],
                    "\(context): key \(number) is neither the old nor the factory key")
            }
            do {
                try await NTAG424SetupTests.onTag(Self.reader(folder)) { try await change($0) }
            } catch {
                Issue.record("\(context), then run again: \(error)")
            }
            let chip = try Self.chip(folder)
            #expect(chip.keys == factory.keys && chip.keyVersions == factory.keyVersions, "\(context)")
            #expect(chip.fileSettings == factory.fileSettings, "\(context)")
            cut += 1
        }
        #expect(cut > 20, "the reset was cut \(cut - 1) times")
    }
}
