import CommandLineKit
import Provisioning
import ProvisioningDatabase

/// `ndeftool batch report --job NAME`: a database job's report, as the file journal's reports
/// with each row's station.
enum BatchReportCommand {
    static let output = OptionSpec.option(
        "output", short: "o", value: "file", help: "Write the report to <file> ('-' or by default: standard output).")
    static let json = OptionSpec.flag("json", help: "The JSON report instead of CSV.")

    /// The command.
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write the report of a batch job kept in a database (CSV or JSON).",
        discussion: """
            One entry per row of the plan, in row order: the row, the UID of its tag \
            (upper-case hex), the outcome (written, written+locked, ... for a row done; else \
            pending, failed or the step an unfinished row reached), the time of its last \
            step (UTC), the station that did it, the reason of a failure, then the plan's \
            values. CSV as the file journal's reports (RFC 4180, a cell that a spreadsheet \
            would take for a formula written with a ' in front), or JSON with --json \
            (rows, tags by UID, a tally of outcomes). It holds no password and no secret: \
            the database has none.

            Exit status: 0; 66 no such job; 69 the database cannot be reached; 74 the file \
            cannot be written.

            Examples:
              ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 3 --job tags \\
                  --database postgresql://db.example/provisioning --reader 'sim:ntag215?supply=3'
              ndeftool batch report --job tags -o tags.report.csv --database postgresql://db.example/provisioning
              ndeftool batch report --job tags --json --database postgresql://db.example/provisioning
            """,
        options: [BatchJobStatusCommand.job, BatchDatabaseOptions.database, output, json],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        guard let text = values.value(BatchJobStatusCommand.job.long) else {
            throw .missingArgument("--job <name>", help: "The job in the database.")
        }
        let name = try BatchDatabaseOptions.jobName(text, option: BatchJobStatusCommand.job)
        let jobs = JobDatabase(try BatchDatabaseOptions.target(values, io: invocation.io))
        let report: ProvisioningReport
        do {
            let job = try await jobs.job(named: name)
            report = try await jobs.report(of: job, fields: job.fields)
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
        let asJSON = values.flag(json.long)
        let produce = { (write: ([UInt8]) throws(CommandLineError) -> Void) throws(CommandLineError) in
            if asJSON {
                try report.writeJSON(write)
                try write([0x0A])
            } else {
                try report.writeCSV(write)
            }
        }
        if let path = values.value(output.long), path != "-" {
            try FileAccess.writeFile(path: path, produce)
        } else {
            let io = invocation.io
            try produce { bytes throws(CommandLineError) in try io.writeOutput(bytes) }
        }
        return .success
    }
}
