import NDEF
import NFCSession
import NTAG424
import SimulatedReader
import TestSupport
import Testing

/// ``NFCNTAG424Tag/setUpSDM(_:confirmation:)`` on simulated NTAG 424 DNA tags kept in files: a factory tag
/// set up, a set-up run again, and every cut of the set-up finished by running it again.
@Suite("NTAG 424 DNA SDM set-up", .timeLimit(.minutes(10)))
struct NTAG424SetupTests {
    static let keys = (0..<5).map { [UInt8](repeating: UInt8(0x40 + $0), count: 16) }

    static func plan() throws -> NTAG424SDMPlan {
        try NTAG424SDMPlan(
            template: try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}"), keys: keys,
            locksNDEF: true)
    }

    /// Runs `body` on the NTAG 424 DNA of `url`, then closes the reader (saving its file).
    static func onTag<Result: Sendable>(
        _ url: String, _ body: (NFCNTAG424Tag) async throws -> Result
    ) async throws -> Result {
        let reader = try await SimulatedReader(url: url)
        let session = NFCTagReaderSession(reader: reader)
        do {
            guard let iso = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
                throw NFCReaderError(.tagNotSupported, "no Type 4 tag")
            }
            let result = try await body(NFCNTAG424Tag(iso))
            await session.invalidate()
            await reader.close()
            return result
        } catch {
            await session.invalidate()
            await reader.close()
            throw error
        }
    }

    @Test("A factory tag: message, SDM, keys 1-4, key 0; the URL verifies; run again, nothing is sent")
    func factory() async throws {
        let folder = try TemporaryDirectory("ntag424-setup")
        defer { folder.remove() }
        let url = "sim:ntag424?uid=04518DFAA96180&file=\(folder.path("t424.t4t"))"
        let plan = try Self.plan()
        let steps = try await Self.onTag(url) {
            try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan))
        }
        #expect(
            steps == [
                "wrote the message", "set SDM on the NDEF file", "changed key 1", "changed key 2", "changed key 3",
                "changed key 4", "changed key 0",
            ])
        #expect(
            try await Self.onTag(url) { try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan)) } == [])
        // The factory key 0 no longer opens the tag; the plan's does.
        let refused = try await Self.onTag(url) { tag in
            await #expect(throws: NFCReaderError.self) {
                try await tag.authenticate(keyNumber: 0, key: NFCNTAG424Tag.factoryKey)
            }
            try await tag.authenticate(keyNumber: 0, key: Self.keys[0])
            return true
        }
        #expect(refused)
    }

    @Test("A confirmation made for other keys, another URL or another tag is refused before any command")
    func confirmationBound() async throws {
        let folder = try TemporaryDirectory("ntag424-confirm")
        defer { folder.remove() }
        let url = "sim:ntag424?uid=04518DFAA96180&file=\(folder.path("t424.t4t"))"
        let plan = try Self.plan()
        var otherKeys = Self.keys
        otherKeys[3][0] ^= 1
        let others = [
            try NTAG424SDMPlan(template: plan.template, keys: otherKeys, locksNDEF: true),
            try NTAG424SDMPlan(
                template: try NTAG424SDMTemplate(url: "https://x.example/u?picc_data={picc}&cmac={mac}"),
                keys: Self.keys,
                locksNDEF: true),
            try NTAG424SDMPlan(template: plan.template, keys: Self.keys, locksNDEF: false),
        ]
        let mine = try await Self.onTag(url) { try $0.prepareSDMSetUp(plan) }
        for other in others {
            let theirs = try NFCLockConfirmation(sdmSetUpOf: [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80], plan: other)
            #expect(theirs.code != mine.code)
            let error = try await Self.onTag(url) { tag in
                await #expect(throws: NFCReaderError.self) { try await tag.setUpSDM(plan, confirmation: theirs) }
            }
            #expect(error?.code == .confirmationMismatch)
        }
        let anotherTag = try NFCLockConfirmation(sdmSetUpOf: [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x81], plan: plan)
        let error = try await Self.onTag(url) { tag in
            await #expect(throws: NFCReaderError.self) { try await tag.setUpSDM(plan, confirmation: anotherTag) }
        }
        #expect(error?.code == .confirmationMismatch)
        // Nothing was sent: the tag still has its factory message and keys.
        let progress = try await Self.onTag(url) { try await $0.sdmProgress(plan) }
        #expect(
            !progress.messageWritten && !progress.settingsApplied
                && progress.changedKeys == Array(repeating: false, count: 5))
    }

    @Test(
        "Every cut of the set-up leaves keys the plan knows; running it again finishes it",
        arguments: ["none", "complete", "tear"])
    func everyCut(inFlight: String) async throws {
        let plan = try Self.plan()
        var cut = 1
        while cut < 120 {
            let folder = try TemporaryDirectory("ntag424-cut")
            defer { folder.remove() }
            let url = "sim:ntag424?uid=04518DFAA96180&file=\(folder.path("t424.t4t"))"
            let finished: Bool
            do {
                _ = try await Self.onTag(url + "&remove-after=\(cut)&in-flight=\(inFlight)") {
                    try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan))
                }
                finished = true
            } catch {
                finished = false
            }
            if finished { break }
            let context = "cut at command \(cut) (\(inFlight))"
            do {
                _ = try await Self.onTag(url) {
                    try await $0.setUpSDM(plan, confirmation: try $0.prepareSDMSetUp(plan))
                }
            } catch {
                Issue.record("\(context), then run again: \(error)")
            }
            let complete = try await Self.onTag(url) { try await $0.sdmProgress(plan).isComplete }
            #expect(complete, "\(context)")
            cut += 1
        }
        #expect(cut > 20, "the set-up was cut \(cut - 1) times")
    }
}
