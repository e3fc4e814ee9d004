import NDEF
import NFCSession
import Provisioning
import SimulatedReader
import Synchronization
import TestSupport

/// A job over a counter plan whose rows become `https://example.com/t/{counter}` URIs.
struct CounterJob {
    let plan: ProvisioningPlan
    let header: JournalHeader
    let path: String
    /// The folder of the journal, removed with the job value.
    let folder: TemporaryDirectory

    init(rows: Int, options: [String: String] = ["lock": "no", "password": "none"]) throws {
        plan = try ProvisioningPlan.counter(from: 1, to: rows, width: 4)
        let template = try MessageTemplate("uri https://example.com/t/{counter}", fields: plan.fields)
        header = JournalHeader(plan: plan, template: template, options: options)
        folder = try TemporaryDirectory("provisioning")
        path = folder.path("job.journal")
    }

    /// The message of row `row`.
    static func message(row: Int) -> NFCNDEFMessage {
        let digits = String(row)
        let counter = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let uri = "https://example.com/t/" + counter
        guard let record = try? URIRecord(uri: uri).makeRecord() else { return NFCNDEFMessage(records: []) }
        return NFCNDEFMessage(records: [record])
    }

    /// The builder the job uses.
    static let build: ProvisioningJob.MessageBuilder = { row, _ in message(row: row.number) }

    /// Runs the job (created or resumed) on `stations`, collecting its events.
    func run(
        _ stations: [ProvisioningStation], settings: ProvisioningJobSettings = CounterJob.settings,
        build: @escaping ProvisioningJob.MessageBuilder = CounterJob.build,
        stopAfter: Int? = nil
    ) async throws -> (ProvisioningJobSummary, [ProvisioningJobEvent], ProvisioningJournal) {
        let journal = try await whenFree { try ProvisioningJournal.open(at: path, header: header) }
        let events = EventLog()
        let box = Mutex<ProvisioningJob?>(nil)
        let job = ProvisioningJob(
            plan: plan, journal: journal, settings: settings, build: build,
            onEvent: { event in
                events.append(event)
                if let stopAfter, events.doneCount == stopAfter { box.withLock { $0 }?.stop(reason: "test") }
            })
        box.withLock { $0 = job }
        let result = await job.run(stations)
        journal.close()
        return (result, events.events, journal)
    }

    /// A wait for a tag of 300 ms on a step clock (its waits take no time), for tests where the
    /// last tag stays out of the field: the station stops after its polls added up to 300 ms,
    /// however busy the machine is.
    static var shortWait: ProvisioningJobSettings {
        ProvisioningJobSettings(
            tagWait: .milliseconds(300), checkInterval: .milliseconds(20),
            sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(5)), clock: StepClock())
    }

    /// Settings for stations with a supply: they stop when it is used up, so they wait for tags
    /// without a limit.
    static let settings = ProvisioningJobSettings(
        checkInterval: .milliseconds(20), sessionOptions: NFCTagReaderSession.Options(pollInterval: .milliseconds(5)))
}
