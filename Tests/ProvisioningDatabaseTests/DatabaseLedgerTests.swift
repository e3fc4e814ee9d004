import NDEF
import NFCSession
import Provisioning
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import ProvisioningDatabase

@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct DatabaseLedgerTests {
    @Test("Two stations on one 30-row job in the database: every row once, on its own tag")
    func twoStations() async throws {
        let job = try await DatabaseCounterJob(rows: 30)
        do {
            try await twoStations(job)
            await job.database.drop()
        } catch {
            await job.database.drop()
            throw error
        }
    }

    func twoStations(_ job: DatabaseCounterJob) async throws {
        let created = try await job.create()
        let events = EventLog()
        let ledger = job.ledger(created, events: events)
        let first = try await SimulatedReader(url: "sim:ntag215?supply=16&seed=1")
        let second = try await SimulatedReader(url: "sim:ntag215?supply=16&seed=2")
        let (summary, _) = await job.run(
            ledger, [station(first, "test-host/a"), station(second, "test-host/b")], events: events)
        #expect(summary.doneRows == 30 && summary.isComplete, "\(summary)")
        #expect(summary.stopReason == nil)
        let uids = try await job.doneUIDs()
        #expect(uids.count == 30)
        #expect(Set(uids.values).count == 30)
        // Each tag holds exactly its row's message, and no other tag holds a row.
        let messages = (1...30).map { DatabaseCounterJob.message(row: $0) }
        var onTags: [Int: String] = [:]
        for reader in [first, second] {
            for tag in reader.suppliedTags {
                let memory = try #require(tag.type2Tag?.memory)
                guard let message = memory.message, !message.records.isEmpty else { continue }
                let row = try #require(messages.firstIndex(of: message), "tag \(hexText(tag.uid))") + 1
                #expect(onTags[row] == nil, "row \(row) is on two tags")
                onTags[row] = hexText(tag.uid)
            }
        }
        #expect(onTags == uids)
        #expect(try await job.states() == ["done": 30])
        let stations = try await job.jobs.status(of: created).stations
        #expect(stations.map(\.name) == ["test-host/a", "test-host/b"])
        #expect(stations.map(\.tagsDone).reduce(0, +) == 30)
        await first.close()
        await second.close()
    }
}
