import NDEF
import NFCSession
import Provisioning
import SimulatedReader
import TestSupport
import Testing

/// A row whose message fits no tag the job gets does not stall the job: each tag that refuses it
/// as too large gives it back for a larger tag, and after ``ProvisioningJobSettings/sizeRefusalLimit``
/// refusals, or at once when it is larger than ``ProvisioningJobSettings/largestTagCapacity``, the
/// row is marked failed with the reason and the other rows go on (T2T 1.1 6.4.3: the capacity
/// check comes before any write).
@Suite(.serialized) struct OversizedRowTests {
    /// Row 2 holds a 300-byte URI: larger than an NTAG213 holds (137 bytes).
    static let build: ProvisioningJob.MessageBuilder = { row, _ in
        let path = row.number == 2 ? String(repeating: "x", count: 300) : String(row.number)
        return NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com/" + path).makeRecord()])
    }

    @Test("Capacity unknown: three refusals, then row 2 failed; rows 1, 3-6 done")
    func failsAfterTheRefusalLimit() async throws {
        let job = try CounterJob(rows: 6)
        let reader = try await SimulatedReader(url: "sim:ntag213?supply=9&seed=3")
        let (summary, events, journal) = try await job.run([station(reader, "r1")], build: Self.build)
        #expect(summary.doneRows == 5, "\(summary)")
        #expect(summary.failedRows == [2])
        #expect(summary.refusedTags == 3)
        let state = journal.state
        #expect(state.status(of: 2).reason?.contains("too large: 3 tags refused its") == true, "\(state.status(of: 2))")
        #expect(state.status(of: 2).uid == nil)
        let failures = events.compactMap { event -> String? in
            if case .rowFailed(let row, _, let reason) = event, row == 2 { return reason }
            return nil
        }
        #expect(failures.count == 1)
    }

    @Test("Capacity known (the readers' largest chip): row 2 failed at its first refusal")
    func failsAtOnceWhenNoTagCanHoldIt() async throws {
        let job = try CounterJob(rows: 4)
        let reader = try await SimulatedReader(url: "sim:ntag213?supply=9&seed=4")
        var settings = CounterJob.settings
        settings.largestTagCapacity = 137
        let (summary, _, journal) = try await job.run([station(reader, "r1")], settings: settings, build: Self.build)
        #expect(summary.doneRows == 3)
        #expect(summary.failedRows == [2])
        #expect(summary.refusedTags == 1)
        #expect(journal.state.status(of: 2).reason?.contains("too large for any tag of the readers") == true)
    }

    @Test("A larger tag takes the row another tag refused")
    func aLargerTagTakesIt() async throws {
        let job = try CounterJob(rows: 2)
        let small = try await SimulatedReader(url: "sim:ntag213?supply=2&seed=5")
        let (first, _, _) = try await job.run([station(small, "small")], build: Self.build)
        #expect(first.doneRows == 1 && first.failedRows.isEmpty && first.refusedTags == 1)
        let large = try await SimulatedReader(url: "sim:ntag215?supply=1&seed=6")
        let (second, _, _) = try await job.run([station(large, "large")], build: Self.build)
        #expect(second.doneRows == 2 && second.failedRows.isEmpty, "\(second)")
    }
}
