import NDEF
import NFCSession
import Provisioning
import SimulatedReader
import TagSimulator
import TestSupport
import Testing

/// The Swift example of the Provisioning DocC catalog, as printed there, on a supply of 500
/// simulated tags.
@Suite struct ProvisioningDocumentationExampleTests {
    @Test("Provisioning.md: 500 rows provisioned on one station, each tag once")
    func overview() async throws {
        // Example begin
        /// Provisions tags 0001 to 0500 on `reader`, journaled in `path` ("tags.journal").
        func provision(
            on reader: any NFCReaderDevice, journal path: String
        ) async throws -> ProvisioningJobSummary {
            let plan = try ProvisioningPlan.counter(from: 1, to: 500, width: 4)
            let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
            let header = JournalHeader(plan: plan, template: template)
            let journal = try ProvisioningJournal.open(at: path, header: header)  // creates or resumes
            try template.check(plan)  // every row makes valid records
            let job = ProvisioningJob(plan: plan, journal: journal, settings: ProvisioningJobSettings()) { row, uid in
                try template.message(for: row, uid: uid)
            }
            return await job.run([ProvisioningStation(name: "desk", reader: reader)])
        }
        // Example end
        let folder = try TemporaryDirectory("provisioning-example")
        defer { folder.remove() }
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=500")
        let summary = try await provision(on: reader, journal: folder.path("tags.journal"))
        #expect(summary.doneRows == 500 && summary.doneThisRun == 500)
        #expect(Set(reader.suppliedTags.map(\.uid)).count == 500)
        await reader.close()
    }
}
