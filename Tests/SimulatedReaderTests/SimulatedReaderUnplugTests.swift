import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// `unplug-after=N&unplug-ms=M`: the reader is pulled out after N tag commands and plugged back
/// M ms later; ``SimulatedReader/reconnect()`` brings it back for a ``NFCSession/ReconnectingReader``.
@Suite("Simulated reader: unplugged and plugged back")
struct SimulatedReaderUnplugTests {
    static let fast = ReconnectPolicy(
        initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20), timeout: .seconds(60))

    /// A reconnecting reader over `reader`, which it gets back with ``SimulatedReader/reconnect()``.
    static func reconnecting(_ reader: SimulatedReader) -> ReconnectingReader {
        ReconnectingReader(reader, policy: fast) { () throws(NFCReaderError) in
            try await reader.reconnect()
            return reader
        }
    }

    /// The session events, in order.
    final class EventLog: Sendable {
        private let events = Mutex<[NFCSessionEvent]>([])
        var all: [NFCSessionEvent] { events.withLock { $0 } }
        func add(_ event: NFCSessionEvent) { events.withLock { $0.append(event) } }
        var reconnects: [NFCSessionEvent] {
            all.filter {
                switch $0 {
                case .reconnectStarted, .reconnectSucceeded, .reconnectFailed: true
                default: false
                }
            }
        }
    }

    @Test("The URL options parse, print in canonical form and are refused where they make no sense")
    func options() throws {
        let url = try SimulatedReaderURL(parsing: "sim:ntag215?unplug-ms=250&supply=3&unplug-after=12")
        #expect(url.unplug == SimulatedReaderURL.Unplug(afterCommands: 12, milliseconds: 250))
        #expect(url.unplug?.duration == .milliseconds(250))
        #expect(url.description == "sim:ntag215?supply=3&unplug-after=12&unplug-ms=250")
        #expect(try SimulatedReaderURL(parsing: url.description) == url)
        let forGood = try SimulatedReaderURL(parsing: "sim:type4?unplug-after=0")
        #expect(forGood.unplug == SimulatedReaderURL.Unplug(afterCommands: 0))
        #expect(forGood.unplug?.duration == nil)
        expectRefused("sim:ntag215?unplug-ms=100", naming: "unplug-after")
        expectRefused("sim:ntag215?unplug-after=-1", naming: "unplug-after=-1")
        expectRefused("sim:ntag215?unplug-after=1&unplug-ms=3600001", naming: "unplug-ms=3600001")
        expectRefused("sim:ntag215?unplug-after=1&unplug-after=2", naming: "twice")
    }

    @Test("After N commands every call throws reader-unavailable until reconnect() succeeds, M ms later")
    func goesAwayAndComesBack() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?unplug-after=3&unplug-ms=150")
        try await reader.selectFirst()
        #expect(try await reader.write(4, "01 02 03 04") == .ack)
        _ = try await reader.read(4)
        #expect(!reader.isUnplugged)
        // Taken before the command that pulls the reader out, so that it comes back at least
        // 150 ms after `pulled`, however busy the machine.
        let clock = ContinuousClock()
        let pulled = clock.now
        #expect(try await reader.write(5, "05 06 07 08") == .ack)  // the third: carried out and answered
        #expect(reader.isUnplugged)
        #expect(reader.tagCommandCount == 3)
        let target = NFCTargetInfo(index: 0, uid: SimulatedType2Tag.defaultUID, atqa: [0x44, 0x00], sak: 0x00)
        let calls: [(String, () async throws -> Void)] = [
            ("poll", { _ = try await reader.pollTargets() }),
            ("select", { try await reader.select(target) }),
            ("transceive", { _ = try await reader.read(4) }),
            ("sendAPDU", { _ = try await reader.sendAPDU(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) }),
        ]
        for (name, call) in calls {
            let error = await caughtError(call)
            #expect(error?.code == .readerUnavailable, "\(name)")
            #expect(error?.reason.hasPrefix("simulated reader unplugged") == true, "\(name): \(error?.reason ?? "")")
        }
        #expect(await reader.signal(.success) == false)
        #expect(reader.signals.isEmpty)
        #expect(reader.tagCommandCount == 3)  // nothing reached the tag
        #expect(reader.storedPage(6) == hex("00 00 00 00"))
        // The field went off: the tag is back in IDLE (ISO/IEC 14443-3 6.2), nothing selected.
        #expect(reader.field.selectedUID == nil)
        // Until the reader is back, reconnect() is refused too. Checked last, and only when the
        // refusal came within the 150 ms (on a machine so busy that it did not, the reader is
        // back by then and there is nothing to check).
        let early = await caughtError { try await reader.reconnect() }
        if clock.now - pulled < .milliseconds(150) {
            #expect(early?.code == .readerUnavailable, "reconnect")
            #expect(early?.reason.hasPrefix("simulated reader unplugged") == true, "\(early?.reason ?? "")")
        }
        let back = await eventually { (try? await reader.reconnect()) != nil }
        #expect(back)
        #expect(clock.now - pulled >= .milliseconds(150))  // a lower bound: a busy machine only adds to it
        #expect(!reader.isUnplugged)
        // Back with the field as it was: the same tag, with what was written.
        let targets = try await reader.pollTargets()
        #expect(targets.map(\.uid) == [SimulatedType2Tag.defaultUID])
        try await reader.select(try #require(targets.first))
        #expect(try await reader.read(4).prefix(8) == hex("01 02 03 04 05 06 07 08")[...])
        #expect(await reader.signal(.success))
        // It fires once.
        for page in UInt8(6)...9 { #expect(try await reader.write(page, "AA AA AA AA") == .ack) }
        #expect(!reader.isUnplugged)
        await reader.close()
    }

    @Test("unplug-after=0: away from the start; without unplug-ms it never comes back")
    func awayFromTheStart() async throws {
        let reader = try await SimulatedReader(url: "sim:type4?unplug-after=0")
        #expect(reader.isUnplugged)
        let error = await caughtError { _ = try await reader.pollTargets() }
        #expect(error?.reason.contains("does not come back") == true, "\(error?.reason ?? "")")
        try await Task.sleep(for: .milliseconds(20))
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { try await reader.reconnect() }
        // A closed reader that is plugged in opens again.
        let plain = try await SimulatedReader(url: "sim:ntag213")
        await plain.close()
        await #expect(throws: NFCReaderError(.readerUnavailable, "")) { _ = try await plain.pollTargets() }
        try await plain.reconnect()
        #expect(try await plain.pollTargets().count == 1)
    }

    @Test("A write broken by the unplug: reconnect started and succeeded, the same tag, resumeWrite completes it")
    func reconnectingReaderResumes() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2&seed=5")
        let uids = SimulatedTagSupply.uids(count: 2, seed: 5)
        let reconnecting = Self.reconnecting(reader)
        let log = EventLog()
        let session = NFCTagReaderSession(
            reader: reconnecting, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1))
        ) { log.add($0) }
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        let message = SimulatedTagSupplyTests.message(40)
        _ = try await tag.ndefStatus()
        let before = reader.tagCommandCount
        // Two reads of the write's checks (FAST_READ of the data area, of the configuration pages),
        // then three WRITEs; the fourth finds the reader gone.
        reader.unplug(afterCommands: 5, for: .milliseconds(100))
        let error = await caughtError { try await tag.writeNDEF(message) }
        #expect(error?.code == .readerUnavailable)
        #expect(error?.mayBeHalfWritten == true)
        #expect(error?.reason.contains("simulated reader unplugged") == true, "\(error?.reason ?? "")")
        #expect(reader.tagCommandCount == before + 5)
        #expect(reader.count(of: .write) == 3)
        #expect(log.reconnects.isEmpty)  // nothing happens behind the caller's back
        // The next poll reconnects, once the reader is back; the tag is still in the field.
        guard let again = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        #expect(again.targetInfo.uid == uids[0])
        let reconnects = log.reconnects
        #expect(reconnects.count == 2)
        guard case .reconnectStarted(let reason) = reconnects.first else {
            Issue.record("no reconnectStarted: \(log.all)")
            return
        }
        #expect(reason.contains("simulated reader unplugged"))
        #expect(reconnects.last == .reconnectSucceeded(readerName: reader.name))
        try await again.resumeWrite(message)
        #expect(try await again.readNDEF() == message)
        // The operator takes it away only now, and the next tag goes in.
        try await session.waitForRemoval(of: again, timeout: .seconds(2))
        let next = try await session.nextTag(timeout: .seconds(2))
        #expect(next.targetInfo.uid == uids[1])
        #expect(reader.presentedUIDs == uids)
        #expect(reader.suppliedTags.first?.type2Tag?.memory.message == message)
        await session.invalidate()
        await reconnecting.close()
    }

    /// The batch an operator's program runs over a reconnecting reader, with a journal: a tag
    /// whose write broke is resumed when it is found again; a tag done is only waited away.
    ///
    /// - Returns: the row of each UID, and how many times the reader came back.
    static func runBatch(_ reader: SimulatedReader, count: Int) async throws -> (rows: [[UInt8]: Int], comebacks: Int) {
        let reconnecting = reconnecting(reader)
        let comebacks = Mutex(0)
        reconnecting.observeLifecycle { event in
            if case .reconnectSucceeded = event { comebacks.withLock { $0 += 1 } }
        }
        let session = NFCTagReaderSession(
            reader: reconnecting, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        var rows: [[UInt8]: Int] = [:]
        var started: Set<[UInt8]> = []
        var done: Set<[UInt8]> = []
        var rounds = 0
        while done.count < count, rounds < 100 {
            rounds += 1
            // A reader that went away during identification: the next round polls again.
            guard let tag = try await Self.unlessUnplugged({ try await session.nextTag(timeout: .seconds(5)) }) else {
                continue
            }
            let uid = tag.targetInfo.uid
            if !done.contains(uid) {
                let row = rows[uid] ?? rows.count
                rows[uid] = row
                let message = SimulatedTagSupplyTests.message(row)
                let isFirst = started.insert(uid).inserted
                let finished: Void? = try await Self.unlessUnplugged {
                    if isFirst { try await tag.writeNDEF(message) } else { try await tag.resumeWrite(message) }
                }
                guard finished != nil else { continue }
                done.insert(uid)
            }
            try await session.waitForRemoval(of: tag, timeout: .seconds(5))
        }
        await session.invalidate()
        await reconnecting.close()
        return (rows, comebacks.withLock { $0 })
    }

    /// What `body` returns; nil when it throws reader-unavailable (the reader went away: a write
    /// broken so is half-written, and resumed when the tag is found again).
    static func unlessUnplugged<Value>(_ body: () async throws -> Value) async throws -> Value? {
        do {
            return try await body()
        } catch let error as NFCReaderError {
            if error.code == .readerUnavailable { return nil }
            throw error
        }
    }

    @Test(
        "A batch over a supply finishes every row wherever the unplug falls (T2T 1.1 6.4.3)",
        arguments: 1...33)
    func batchSurvivesUnplug(after commands: Int) async throws {
        let reader = try await SimulatedReader(
            url: "sim:ntag213?supply=3&seed=21&unplug-after=\(commands)&unplug-ms=30")
        // Without the unplug the batch takes 33 commands (11 a tag): each of them is the last
        // before the reader goes away in one case.
        let (rows, comebacks) = try await Self.runBatch(reader, count: 3)
        #expect(comebacks == 1)
        let uids = SimulatedTagSupply.uids(count: 3, seed: 21)
        #expect(reader.presentedUIDs == uids, "unplugged after \(commands)")
        #expect(rows.count == 3)
        for tag in reader.suppliedTags {
            let row = try #require(rows[tag.uid])
            #expect(tag.type2Tag?.memory.message == SimulatedTagSupplyTests.message(row), "unplugged after \(commands)")
        }
        #expect(reader.tagCommandCount >= 33)
        #expect(!reader.supplyHasMore)
    }

    @Test("Type 4: a batch finishes every row wherever the unplug falls (T4T 3.0 5.5.7)")
    func type4BatchSurvivesUnplug() async throws {
        let probe = try await SimulatedReader(url: "sim:type4?supply=2&seed=8")
        let (_, none) = try await Self.runBatch(probe, count: 2)
        #expect(none == 0)
        let total = probe.tagCommandCount
        #expect(total > 6)
        for commands in 1...total {
            let reader = try await SimulatedReader(
                url: "sim:type4?supply=2&seed=8&unplug-after=\(commands)&unplug-ms=10")
            let (rows, comebacks) = try await Self.runBatch(reader, count: 2)
            #expect(comebacks == 1, "unplugged after \(commands)")
            #expect(reader.presentedUIDs == SimulatedTagSupply.uids(count: 2, seed: 8), "unplugged after \(commands)")
            for tag in reader.suppliedTags {
                let row = try #require(rows[tag.uid])
                let file = try #require(tag.type4Tag?.ndefFile)
                let bytes = try SimulatedTagSupplyTests.message(row).encoded()
                #expect(Array(file.prefix(2 + bytes.count)) == [0, UInt8(bytes.count)] + bytes, "after \(commands)")
            }
        }
    }

    @Test(
        "Unplugged right after a tag's last command: the poll that finds it gone still lets the operator take the tag")
    func unplugWhileWaitingForRemoval() async throws {
        let reader = try await SimulatedReader(url: "sim:ntag213?supply=2&seed=2")
        let reconnecting = Self.reconnecting(reader)
        let session = NFCTagReaderSession(
            reader: reconnecting, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        try await tag.writeNDEF(SimulatedTagSupplyTests.message(1))
        reader.unplug(for: .milliseconds(40))
        try await session.waitForRemoval(of: tag, timeout: .seconds(5))
        let next = try await session.nextTag(timeout: .seconds(5))
        #expect(next.targetInfo.uid != tag.targetInfo.uid)
        #expect(reader.presentedUIDs == SimulatedTagSupply.uids(count: 2, seed: 2))
        await session.invalidate()
        await reconnecting.close()
    }
}
