import NDEF
import NFCSession
import Provisioning
import ProvisioningDatabase
import SimulatedReader
import TagSimulator
import TestSupport
import Testing

/// The Swift example of the ProvisioningDatabase DocC catalog, as printed there, against a
/// database of the tests' server and a supply of 100 simulated tags.
@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct ProvisioningDatabaseDocumentationExampleTests {
    @Test("ProvisioningDatabase.md: 100 rows of a database job on one station")
    func overview() async throws {
        // Example begin
        /// Runs the job "hall" (rows 1 to 100) of the database at `url` on `reader`, one station of
        /// the machine "desk-1"; any number of machines may run it at once.
        func provision(on reader: any NFCReaderDevice, database url: String) async throws -> ProvisioningJobSummary {
            let database = JobDatabase(try DatabaseTarget(url))
            let plan = try ProvisioningPlan.counter(from: 1, to: 100)
            let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
            let header = JournalHeader(plan: plan, template: template)
            let (job, _) = try await database.createJob(named: "hall", plan: plan, header: header)  // or joins it
            let ledger = DatabaseLedger(job: job, database: database, settings: DatabaseLedger.Settings(host: "desk-1"))
            let run = ProvisioningJob(ledger: ledger, settings: ProvisioningJobSettings()) { row, uid in
                try template.message(for: row, uid: uid)
            }
            return await run.run([ProvisioningStation(name: "desk-1/reader", reader: reader)])
        }
        // Example end
        try await TestDatabase.with { database in
            let reader = try await SimulatedReader(url: "sim:ntag215?supply=100")
            let summary = try await provision(on: reader, database: database.url)
            #expect(summary.doneRows == 100 && summary.doneThisRun == 100)
            #expect(Set(reader.suppliedTags.map(\.uid)).count == 100)
            await reader.close()
        }
    }
}
