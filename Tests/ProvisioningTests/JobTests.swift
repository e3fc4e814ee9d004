import NDEF
import NFCCrypto
import NFCSession
import Provisioning
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Batch jobs on simulated readers with tag supplies: every row exactly once, on its own tag,
/// recorded in a journal that replays to the same state.
@Suite(.timeLimit(.minutes(5))) struct JobTests {
    /// Row number → the UID that holds it, from the tags' memory, checking each tag holds one
    /// row's message.
    static func rowsOnTags(_ readers: [SimulatedReader], rows: Int) throws -> [Int: [UInt8]] {
        var holders: [Int: [UInt8]] = [:]
        let messages = (1...rows).map { CounterJob.message(row: $0) }
        for reader in readers {
            for tag in reader.suppliedTags {
                let memory = try #require(tag.type2Tag?.memory)
                guard let message = memory.message, !message.records.isEmpty else { continue }
                let row = try #require(messages.firstIndex(of: message), "tag \(hexText(tag.uid))") + 1
                #expect(holders[row] == nil, "row \(row) is on two tags")
                holders[row] = tag.uid
            }
        }
        return holders
    }

    @Test("200 tags on one reader: 200 rows, each on its own tag, journal and tags agree")
    func twoHundredTags() async throws {
        let job = try CounterJob(rows: 200)
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=200&seed=11")
        let (summary, events, _) = try await job.run([station(reader, "r1")])
        #expect(summary.isComplete)
        #expect(summary.doneThisRun == 200)
        #expect(summary.refusedTags == 0)
        let holders = try Self.rowsOnTags([reader], rows: 200)
        #expect(holders.count == 200)
        let state = try ProvisioningJournal.recover(job.path)
        #expect(state.doneRows == Array(1...200))
        for row in 1...200 { #expect(state.status(of: row).uid == holders[row]) }
        #expect(reader.signals == Array(repeating: .success, count: 200))
        #expect(events.filter { if case .rowDone = $0 { true } else { false } }.count == 200)
        await reader.close()
    }

    @Test("Two and four readers at once: rows handed out once each, all done", arguments: [2, 4])
    func severalReaders(count: Int) async throws {
        let job = try CounterJob(rows: 120)
        var readers: [SimulatedReader] = []
        for index in 0..<count {
            readers.append(try await SimulatedReader(url: "sim:ntag213?supply=\(120 / count + 5)&seed=\(100 + index)"))
        }
        let stations = readers.enumerated().map { station($1, "r\($0 + 1)") }
        let (summary, _, _) = try await job.run(stations)
        #expect(summary.isComplete)
        let holders = try Self.rowsOnTags(readers, rows: 120)
        #expect(holders.count == 120)
        let state = try ProvisioningJournal.recover(job.path)
        #expect(state.doneRows.count == 120)
        // Every reader took part, and the extra tags stayed blank.
        for reader in readers { #expect(reader.signals.contains(.success)) }
        for reader in readers { await reader.close() }
    }

    @Test("A tag presented again is known by UID: a failure signal, no second row, counted as already done")
    func duplicateTag() async throws {
        let job = try CounterJob(rows: 5)
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=6&duplicate=2&seed=3")
        let (summary, events, _) = try await job.run([station(reader, "r1")])
        #expect(summary.isComplete)
        #expect(summary.refusedTags == 0 && summary.alreadyDoneTags == 1)
        let uids = reader.presentedUIDs
        let refused = events.compactMap { event -> [UInt8]? in
            if case .tagRefused(let uid, _, _, let doneRow) = event, doneRow == 2 { return uid }
            return nil
        }
        #expect(refused == [uids[1]])
        #expect(reader.signals.filter { $0 == .failure }.count == 1)
        await reader.close()
    }

    @Test("A tag removed mid-write keeps its row; brought back, it is finished there and nowhere else")
    func tagRemovedMidWrite() async throws {
        let job = try CounterJob(rows: 1)
        // GET_VERSION, two FAST_READs, then WRITEs: the tag leaves during the 9th WRITE, torn.
        let reader = try await SimulatedReader(url: "sim:ntag215?remove-after=12&in-flight=tear")
        let uid = try #require(reader.field.tags.first?.uid)
        let (first, events, _) = try await job.run(
            [ProvisioningStation(name: "r1", reader: reader)], settings: CounterJob.shortWait)
        #expect(!first.isComplete)
        #expect(first.unfinishedRows == [1])
        #expect(events.contains { if case .rowInterrupted(1, uid, _, _, true) = $0 { true } else { false } })
        #expect(try ProvisioningJournal.recover(job.path).assignment(forUID: uid) == .unfinished(row: 1))
        reader.withField { field in
            field.arm(.none)
            field.putBack()
        }
        let (second, _, _) = try await job.run([ProvisioningStation(name: "r1", reader: reader)])
        #expect(second.isComplete)
        #expect(reader.field.tags.first?.type2Tag?.memory.message == CounterJob.message(row: 1))
        let state = try ProvisioningJournal.recover(job.path)
        #expect(state.status(of: 1).uid == uid)
        #expect(state.status(of: 1).stage == .done)
        await reader.close()
    }

    @Test("A tag that holds its row's message while the journal says writing is marked written: no WRITE")
    func markWrittenWithoutWrites() async throws {
        let job = try CounterJob(rows: 1)
        let reader = try await SimulatedReader(url: "sim:ntag215")
        let uid = try #require(reader.field.tags.first?.uid)
        // A crash after the write landed and before `written` was recorded.
        let journal = try ProvisioningJournal.create(at: job.path, header: job.header)
        let bytes = try CounterJob.message(row: 1).encoded()
        try journal.append(.claimed(row: 1, reader: "r1", time: "t"))
        try journal.append(
            .writing(row: 1, uid: uid, digest: try SHA256.hash(bytes), time: "t"))
        journal.close()
        let session = NFCTagReaderSession(reader: reader)
        guard let tag = try await session.nextTag(timeout: .seconds(1)) as? NFCMiFareTag else {
            Issue.record("not a Type 2 tag")
            return
        }
        try await tag.writeNDEF(CounterJob.message(row: 1))
        await session.invalidate()
        let writes = reader.count(of: .write)
        let (summary, _, _) = try await job.run([ProvisioningStation(name: "r1", reader: reader)])
        #expect(summary.isComplete)
        #expect(reader.count(of: .write) == writes)
        await reader.close()
    }

    @Test("A tag too small for its row refuses it before any write: the row goes to the next tag")
    func tooSmallTagRefused() async throws {
        let plan = try ProvisioningPlan.counter(from: 1, to: 2, width: 1)
        let template = try MessageTemplate("text {counter}", fields: plan.fields)
        let header = JournalHeader(plan: plan, template: template, options: [:])
        let folder = try TemporaryDirectory("provisioning")
        let journal = try ProvisioningJournal.create(at: folder.path("job.journal"), header: header)
        let big = String(repeating: "x", count: 200)
        // Row 1's message (about 210 bytes) fits an NTAG215 (496) but not an NTAG213 (144).
        let build: ProvisioningJob.MessageBuilder = { row, _ in
            let text = row.number == 1 ? big : "small"
            return NFCNDEFMessage(records: [
                NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [2] + Array("en\(text)".utf8))
            ])
        }
        let small = try await SimulatedReader(url: "sim:ntag213?supply=1&seed=1")
        let large = try await SimulatedReader(url: "sim:ntag215?supply=2&seed=2")
        let job = ProvisioningJob(plan: plan, journal: journal, settings: CounterJob.settings, build: build)
        let first = await job.run([station(small, "small")])
        #expect(first.doneRows == 0)
        #expect(first.refusedTags == 1)
        #expect(journal.state.status(of: 1).stage == .pending)
        let job2 = ProvisioningJob(plan: plan, journal: journal, settings: CounterJob.settings, build: build)
        let second = await job2.run([station(large, "large")])
        #expect(second.isComplete)
        #expect(small.suppliedTags.first?.type2Tag?.memory.message?.records.isEmpty ?? true)
        journal.close()
        await small.close()
        await large.close()
        folder.remove()
    }

    @Test("stop() ends the job after the tags in progress; a resume on more tags completes it exactly once")
    func stopAndResume() async throws {
        let job = try CounterJob(rows: 60)
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=60&seed=21")
        let (first, _, _) = try await job.run([station(reader, "r1")], stopAfter: 20)
        #expect(!first.isComplete)
        #expect(first.doneRows >= 20 && first.doneRows < 60)
        let state = try ProvisioningJournal.recover(job.path)
        #expect(state.claimedRows.isEmpty)
        #expect(state.unfinishedRows.isEmpty)
        let more = try await SimulatedReader(url: "sim:ntag215?supply=60&seed=22")
        let (second, _, _) = try await job.run([station(more, "r2")])
        #expect(second.isComplete)
        #expect(second.doneThisRun == 60 - first.doneRows)
        let holders = try Self.rowsOnTags([reader, more], rows: 60)
        #expect(holders.count == 60)
        await reader.close()
        await more.close()
    }
}
