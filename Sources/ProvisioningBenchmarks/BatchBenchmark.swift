import BenchmarkSupport
import NDEF
import NFCSession
import Provisioning
import Synchronization
import SystemSupport

/// The software cost of a batch job per tag, with simulated tags answering at once (no reader
/// latency): the same writes by a bare session loop, then by a ``ProvisioningJob`` with its
/// journal on disk (a write and an fsync per event), and the journal's appends alone; memory
/// sampled every tenth of the run.
struct BatchBenchmark {
    /// One measured run.
    struct Run {
        var name: String
        var tags: Int
        var elapsed: Duration
        /// RSS in KiB after each tenth of the tags.
        var memory: [Int]

        var millisecondsPerTag: Double { Statistics.milliseconds(elapsed) / Double(max(tags, 1)) }

        /// Growth from the first sample to the last, per 1,000 tags, in KiB.
        var growthPerThousand: Double {
            guard let first = memory.first, let last = memory.last, memory.count > 1 else { return 0 }
            return Double(last - first) * 1000 / (Double(tags) * Double(memory.count - 1) / Double(memory.count))
        }
    }

    let tags: Int
    let directory: String

    /// The message of row `row`.
    static func message(row: Int) -> NFCNDEFMessage {
        let digits = String(row)
        let uri = "https://example.com/t/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        guard let record = try? URIRecord(uri: uri).makeRecord() else { return NFCNDEFMessage(records: []) }
        return NFCNDEFMessage(records: [record])
    }

    /// The writes alone: wait for a tag, write its message (verified), wait for its removal.
    func sessionLoop() async throws -> Run {
        let reader = EndlessTagReader(seed: 1)
        let session = NFCTagReaderSession(
            reader: reader, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        var memory: [Int] = []
        let clock = ContinuousClock()
        let start = clock.now
        for row in 1...tags {
            let tag = try await session.nextTag(timeout: .seconds(5))
            guard let type2 = tag as? NFCMiFareTag else { throw NFCReaderError(.tagNotSupported, "not Type 2") }
            try await type2.writeNDEF(Self.message(row: row))
            try await session.waitForRemoval(of: tag, timeout: .seconds(5))
            if row % max(1, tags / 10) == 0 { memory.append(ResidentMemory.kibibytes()) }
        }
        let elapsed = start.duration(to: clock.now)
        await session.invalidate()
        await reader.close()
        return Run(name: "session loop (write + verify)", tags: tags, elapsed: elapsed, memory: memory)
    }

    /// The same writes as a job: claimed, writing, written, done recorded with fsync each.
    func job() async throws -> Run {
        let plan = try ProvisioningPlan.counter(from: 1, to: tags, width: 6)
        let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
        let path = directory + "/bench-\(getpid()).journal"
        defer { unlink(path) }
        let journal = try ProvisioningJournal.create(
            at: path, header: JournalHeader(plan: plan, template: template, options: ["lock": "no"]))
        let samples = Mutex<[Int]>([])
        let step = max(1, tags / 10)
        let done = Mutex(0)
        let job = ProvisioningJob(
            plan: plan, journal: journal,
            settings: ProvisioningJobSettings(
                sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(1))),
            build: { row, _ in Self.message(row: row.number) },
            onEvent: { event in
                guard case .rowDone = event else { return }
                let count = done.withLock { count in
                    count += 1
                    return count
                }
                if count % step == 0 { samples.withLock { $0.append(ResidentMemory.kibibytes()) } }
            })
        let reader = EndlessTagReader(seed: 2)
        let summary = await job.run([ProvisioningStation(name: "endless", reader: reader)])
        journal.close()
        await reader.close()
        guard summary.isComplete else {
            throw ProvisioningError(.io, "the job stopped: \(summary.stopReason ?? "?")")
        }
        return Run(
            name: "batch job (journal, fsync)", tags: tags, elapsed: summary.elapsed,
            memory: samples.withLock { $0 })
    }

    /// The journal's appends alone: the four events of a tag, each written and fsynced.
    func journalOnly() throws -> Run {
        let plan = try ProvisioningPlan.counter(from: 1, to: tags, width: 6)
        let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
        let path = directory + "/bench-journal-\(getpid()).journal"
        defer { unlink(path) }
        let journal = try ProvisioningJournal.create(
            at: path, header: JournalHeader(plan: plan, template: template, options: [:]))
        let digest = [UInt8](repeating: 0xAB, count: 32)
        var memory: [Int] = []
        let clock = ContinuousClock()
        let start = clock.now
        for row in 1...tags {
            let uid: [UInt8] = [
                0x04, 0, 0, UInt8(truncatingIfNeeded: row >> 16), UInt8(truncatingIfNeeded: row >> 8),
                UInt8(truncatingIfNeeded: row), 1,
            ]
            try journal.append(.claimed(row: row, reader: "r1", time: JournalClock.now()))
            try journal.append(.writing(row: row, uid: uid, digest: digest, time: JournalClock.now()))
            try journal.append(.written(row: row, uid: uid, time: JournalClock.now()))
            try journal.append(.done(row: row, uid: uid, outcome: "written", time: JournalClock.now()))
            if row % max(1, tags / 10) == 0 { memory.append(ResidentMemory.kibibytes()) }
        }
        let elapsed = start.duration(to: clock.now)
        journal.close()
        return Run(name: "journal alone (4 events)", tags: tags, elapsed: elapsed, memory: memory)
    }
}
