import CommandLineKit
import Provisioning
import ProvisioningDatabase

/// What a run of stations on a database job prints when it ends: the summary (text, or JSON
/// with `--json`) and the exit status.
enum BatchDatabaseOutput {
    /// Prints the summary of a run that ended with `summary` and gives its exit status: 0 the
    /// job is complete, 84 every row done or failed for good, 75 stopped with rows left (join
    /// again), 80 rows wait for their tags, 69 the database failed, 130/143 interrupted.
    static func finish(
        _ summary: ProvisioningJobSummary, setup: BatchDatabaseRun.Setup, jobs: JobDatabase, interrupted: Int32?,
        invocation: CommandInvocation
    ) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let seconds = BatchStatus.seconds(summary.elapsed)
        let perMinute = BatchStatus.pace(doneThisRun: summary.doneThisRun, remaining: 0, elapsed: summary.elapsed)
            .perMinute
        if values.flag(BatchCommand.json.long) {
            var json = BatchOutput.Summary(
                job: setup.job.name, rows: summary.rowCount, done: summary.doneRows, doneThisRun: summary.doneThisRun,
                locked: summary.lockedThisRun, passwords: summary.passwordsThisRun, refusedTags: summary.refusedTags,
                alreadyDoneTags: summary.alreadyDoneTags, pending: summary.pendingRows,
                unfinishedRows: summary.unfinishedRows, failedRows: summary.failedRows,
                stopReason: summary.stopReason, journal: nil, report: nil, reportJSON: nil,
                seconds: (seconds * 1000).rounded() / 1000,
                tagsPerMinute: (perMinute * 10).rounded() / 10)
            json.rowsInProgressElsewhere = summary.rowsInProgressElsewhere
            try invocation.io.writeOutput(try MessageJSON.text(of: json) + "\n")
        } else {
            var again = RepeatCommand.line(
                invocation.arguments, command: ["batch", "--join", setup.job.name],
                keeping: [
                    "--reader", "--wait", "--confirm", "--database", "--" + MasterSecretInput.file.long,
                    "--" + BatchCommand.sdmMasterKeyFile.long, "--" + BatchCommand.sdmFromMasterKeyFile.long,
                    "--" + SignatureKeyOptions.signatureKey.long, "--" + ClassicKeysFile.option.long,
                ])
            if setup.settings.password != nil, !values.isGiven(MasterSecretInput.file.long) {
                again += "   (with $\(MasterSecretInput.variable) set to the job's master secret)"
            }
            try invocation.io.writeOutput(text(summary, setup: setup, perMinute: perMinute, again: again))
        }
        if summary.journalFailure != nil { return .unavailable }
        return BatchOutput.status(of: summary, interrupted: interrupted)
    }

    /// The summary as text.
    private static func text(
        _ summary: ProvisioningJobSummary, setup: BatchDatabaseRun.Setup, perMinute: Double, again: String
    ) -> String {
        var steps: [String] = []
        if setup.settings.locks { steps.append("\(summary.lockedThisRun) locked") }
        if setup.settings.password != nil { steps.append("\(summary.passwordsThisRun) given a password") }
        var lines = [
            "Job \(setup.job.name): \(summary.doneRows) of \(summary.rowCount) rows done (\(summary.doneThisRun) by "
                + "this machine" + (steps.isEmpty ? "" : "; " + steps.joined(separator: ", ")) + ", "
                + "\(Int(perMinute.rounded())) tags/min); \(summary.refusedTags) tag"
                + (summary.refusedTags == 1 ? "" : "s") + " refused" + BatchOutput.alreadyDone(summary) + "."
        ]
        if !summary.isComplete && summary.isSettled {
            lines += BatchOutput.failedLines(summary, again: again)
        } else if !summary.isComplete {
            var left = ["\(summary.pendingRows) not started"]
            if !summary.unfinishedRows.isEmpty {
                let rows = summary.unfinishedRows.prefix(20).map(String.init).joined(separator: ", ")
                left.append("rows \(rows)\(summary.unfinishedRows.count > 20 ? ", ..." : "") wait for their tags")
            }
            let elsewhere = summary.rowsInProgressElsewhere
            if !elsewhere.isEmpty {
                let rows = elsewhere.prefix(20).map(String.init).joined(separator: ", ")
                left.append(
                    elsewhere.count == 1
                        ? "row \(rows) is being written at another station"
                        : "rows \(rows)\(elsewhere.count > 20 ? ", ..." : "") are being written at other stations")
            }
            if !summary.failedRows.isEmpty { left.append("\(summary.failedRows.count) failed (see the report)") }
            lines.append("Left: " + left.joined(separator: "; ") + ".")
            if let reason = summary.stopReason { lines.append("Stopped: \(reason).") }
            lines.append("Continue with: \(again)")
        }
        lines.append(
            "Status and report: ndeftool batch status --job \(ShellQuoting.word(setup.job.name)), "
                + "ndeftool batch report --job \(ShellQuoting.word(setup.job.name))")
        return lines.joined(separator: "\n") + "\n"
    }
}
