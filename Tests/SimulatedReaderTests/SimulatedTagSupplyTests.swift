import Foundation
import HexText
import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The tag supply of `sim:CHIP?supply=N`: fresh tags presented one at a time, each taken away
/// when the session waits for its removal.
@Suite("Simulated reader: a supply of tags")
struct SimulatedTagSupplyTests {
    /// A URI record naming item `index`.
    static func message(_ index: Int) -> NFCNDEFMessage {
        NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com/item/\(index)".utf8))
        ])
    }

    /// Runs the batch loop an operator's program runs: next tag, refuse a UID seen before, write,
    /// wait for removal; until no tag comes. Returns the UIDs written and those refused.
    static func runBatch(
        _ reader: SimulatedReader, limit: Int
    ) async throws -> (written: [[UInt8]], refused: [[UInt8]]) {
        let session = NFCTagReaderSession(
            reader: reader, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        var written: [[UInt8]] = []
        var refused: [[UInt8]] = []
        while written.count + refused.count < limit {
            let tag: any NFCNDEFTag
            do {
                tag = try await session.nextTag(timeout: .milliseconds(200))
            } catch {
                if error.code == .timeout { break }
                throw error
            }
            let uid = tag.targetInfo.uid
            if written.contains(uid) {
                refused.append(uid)
                await reader.signal(.failure)
            } else {
                guard let miFare = tag as? NFCMiFareTag else { throw NFCReaderError(.unsupportedFeature, "not Type 2") }
                try await miFare.writeNDEF(message(written.count))
                written.append(uid)
                await reader.signal(.success)
            }
            try await session.waitForRemoval(of: tag, timeout: .seconds(2))
        }
        await session.invalidate()
        return (written, refused)
    }

    @Test("50 NTAG215 written one after another: each holds its own message, UIDs distinct (T2T 1.1 6.4)")
    func fiftyTags() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=50&seed=7")
        let (written, refused) = try await Self.runBatch(reader, limit: 60)
        #expect(written.count == 50)
        #expect(refused.isEmpty)
        #expect(Set(written).count == 50)
        let tags = reader.suppliedTags
        #expect(tags.map(\.uid) == written)
        for (index, tag) in tags.enumerated() {
            let memory = try #require(tag.type2Tag?.memory)
            #expect(memory.message == Self.message(index), "tag \(index)")
            #expect(tag.type2Tag?.chip == .ntag215)
        }
        let successes: [NFCReaderSignal] = Array(repeating: .success, count: 50)
        #expect(reader.signals == successes)
        #expect(!reader.supplyHasMore)
        #expect(try await reader.pollTargets().isEmpty)
        await reader.close()
    }

    @Test("duplicate=K presents tag K again right after tag K+1; the loop refuses it by UID")
    func duplicate() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213?supply=5&duplicate=2")
        let (written, refused) = try await Self.runBatch(reader, limit: 10)
        #expect(written.count == 5)
        #expect(refused == [written[1]])
        let order: [[UInt8]] = [0, 1, 2, 1, 3, 4].map { written[$0] }
        #expect(reader.presentedUIDs == order)
        let expectedSignals: [NFCReaderSignal] = [.success, .success, .success, .failure, .success, .success]
        #expect(reader.signals == expectedSignals)
        // Presented again, the tag still holds what was written the first time.
        let second = try #require(reader.suppliedTags[1].type2Tag)
        #expect(second.memory.message == Self.message(1))
        #expect(reader.suppliedTags.count == 5)
        await reader.close()
    }

    @Test("The UIDs are 7 bytes, NXP's 04h first, the same for the same seed and different for another")
    func uids() async throws {
        let first = SimulatedTagSupply.uids(count: 100, seed: 1)
        #expect(first == SimulatedTagSupply.uids(count: 100, seed: 1))
        #expect(first != SimulatedTagSupply.uids(count: 100, seed: 2))
        #expect(Set(first).count == 100)
        #expect(first.allSatisfy { $0.count == 7 && $0[0] == 0x04 })
        // The URL's tags carry those UIDs (in their memory too: NTAG213/215/216 8.5.1).
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=3")
        let targets = try await reader.pollTargets()
        #expect(targets.map(\.uid) == [first[0]])
        let page0: [UInt8] = reader.field.tags.first?.type2Tag?.page(0) ?? []
        #expect(Array(page0.prefix(3)) == Array(first[0].prefix(3)))
        await reader.close()
    }

    @Test("A tag stays until the reader selected it; after the last the field stays empty")
    func operatorTakesAwayOnlyAfterSelection() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2")
        let first = try await reader.pollTargets()
        #expect(try await reader.pollTargets() == first)  // not yet worked on: stays
        try await reader.select(try #require(first.first))
        let second = try await reader.pollTargets()
        #expect(second.count == 1)
        #expect(second.first?.uid != first.first?.uid)
        try await reader.select(try #require(second.first))
        #expect(try await reader.pollTargets().isEmpty)
        #expect(try await reader.pollTargets().isEmpty)
        #expect(reader.presentedUIDs.count == 2)
        await reader.close()
    }

    @Test("supplyHasMore counts the tag in the field until the operator takes the last one away")
    func supplyUsedUp() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2&swap-ms=50")
        let uids = SimulatedTagSupply.uids(count: 2, seed: SimulatedReaderURL.Supply.defaultSeed)
        #expect(reader.supplyHasMore)
        #expect(reader.suppliedTagInField == uids[0])
        try await reader.selectFirst()
        #expect(try await reader.pollTargets().isEmpty)  // taken away; the next comes 50 ms later
        #expect(reader.suppliedTagInField == nil)
        #expect(reader.supplyHasMore)
        var next: [NFCTargetInfo] = []
        _ = try await eventually {
            next = try await reader.pollTargets()
            return !next.isEmpty
        }
        #expect(next.map(\.uid) == [uids[1]])
        try await reader.select(try #require(next.first))
        // The last tag, worked on, is still in the field until the next poll.
        #expect(reader.supplyHasMore)
        #expect(reader.suppliedTagInField == uids[1])
        #expect(try await reader.pollTargets().isEmpty)
        #expect(!reader.supplyHasMore)
        #expect(reader.suppliedTagInField == nil)
        #expect(reader.field.tags.isEmpty)
        #expect(reader.field.removedTags.isEmpty)
        await reader.close()
    }

    @Test("swap-ms: the next tag goes in that long after the last was taken away")
    func swapTime() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2&swap-ms=150")
        let first = try #require(try await reader.pollTargets().first)
        try await reader.select(first)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await reader.pollTargets().isEmpty)  // taken away, the next not in yet
        var next: [NFCTargetInfo] = []
        _ = try await eventually {
            next = try await reader.pollTargets()
            return !next.isEmpty
        }
        #expect(next.count == 1)
        // A lower bound (the poll that took the first tag away came after `start`): a busy
        // machine only adds to it.
        #expect(clock.now - start >= .milliseconds(150))
        await reader.close()
    }

    @Test("remove-after applies to each tag: every tag leaves during its N-th command, the next goes in")
    func faultsPerTag() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=3&remove-after=1")
        let session = NFCTagReaderSession(
            reader: reader, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        // Identification's first command makes each tag leave: none is ever handed out.
        await #expect(throws: NFCReaderError(.timeout, "")) {
            _ = try await session.nextTag(timeout: .seconds(3))
        }
        await session.invalidate()
        // On a busy machine the last tag may still be on its way in: poll as the session would.
        _ = await eventually {
            _ = try? await reader.pollTargets()
            return reader.presentedUIDs.count == 3
        }
        #expect(reader.presentedUIDs.count == 3)
        #expect(reader.suppliedTags.count == 3)
        await reader.close()
    }

    @Test("file=DIR/ keeps every tag that went through as DIR/UID.nfc")
    func savesEachTag() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let reader = try await SimulatedReader(url: "sim:ntag213?supply=3&file=\(directory.path)/")
        let (written, _) = try await Self.runBatch(reader, limit: 3)
        await reader.close()
        let names = written.map { Hex.encode($0, uppercase: true) + ".nfc" }
        #expect(try directory.contents() == names.sorted())
        for (index, name) in names.enumerated() {
            let loaded = try await SimulatedReader(url: "sim:ntag213?file=\(directory.path(name))")
            #expect(loaded.field.tags.first?.type2Tag?.memory.message == Self.message(index))
            await loaded.close()
        }
    }

    @Test("sim:type4?supply=N presents Type 4 tags (NFC Forum Type 4 Tag 3.0)")
    func type4Supply() async throws {
        let reader = try await SimulatedReader(url: "sim:type4?supply=2")
        let session = NFCTagReaderSession(
            reader: reader, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        var uids: [[UInt8]] = []
        for index in 0..<2 {
            let tag = try await session.nextTag(timeout: .seconds(1))
            guard let iso = tag as? NFCISO7816Tag else { throw NFCReaderError(.unsupportedFeature, "not Type 4") }
            try await iso.writeNDEF(Self.message(index))
            uids.append(tag.targetInfo.uid)
            try await session.waitForRemoval(of: tag, timeout: .seconds(1))
        }
        await session.invalidate()
        #expect(Set(uids).count == 2)
        #expect(reader.suppliedTags.compactMap(\.type4Tag).count == 2)
        await reader.close()
    }

    static let refusals: [(url: String, part: String)] = [
        ("sim:ntag215?supply=0", "supply=0"),
        ("sim:ntag215?supply=3&duplicate=4", "duplicate=4"),
        ("sim:ntag215?seed=3", "need supply"),
        ("sim:ntag215?supply=3&uid=04A1B2C3D4E5F6", "uid="),
        ("sim:ntag215?supply=3&second-tag=1", "second-tag"),
        ("sim:ntag215?supply=3&file=tag.nfc", "directory"),
        ("sim:ntag215?supply=3&swap-ms=x", "swap-ms=x"),
        ("sim:ntag215?supply=3&seed=-1", "seed=-1"),
    ]

    @Test("The supply options are refused where they make no sense")
    func refused() {
        for refusal in Self.refusals {
            expectRefused(refusal.url, naming: refusal.part)
        }
    }

    @Test("The canonical URL keeps the supply options")
    func canonical() throws {
        let url = try SimulatedReaderURL(parsing: "sim:ntag215?swap-ms=20&duplicate=3&seed=9&supply=10")
        #expect(url.description == "sim:ntag215?supply=10&seed=9&duplicate=3&swap-ms=20")
        #expect(url.supply == SimulatedReaderURL.Supply(count: 10, seed: 9, duplicate: 3, swapMilliseconds: 20))
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
    }
}
