import CommandLineKit
import NDEF
import NFCReaders
import Provisioning
import SimulatedReader
import TagInspection
import TagMemory

/// What `ndeftool batch` prints and writes when it ends: the summary (text or JSON on standard
/// output), the CSV and JSON reports, and the exit status.
enum BatchOutput {
    /// The summary's JSON form: a job kept in a journal names it and its reports, a job kept
    /// in a database its name.
    struct Summary: Encodable {
        var job: String?
        var rows: Int
        var done: Int
        var doneThisRun: Int
        var locked: Int
        var passwords: Int
        var refusedTags: Int
        var alreadyDoneTags: Int
        var pending: Int
        var unfinishedRows: [Int]
        /// Rows another station is writing as this one ends (a database job only).
        var rowsInProgressElsewhere: [Int]? = nil
        var failedRows: [Int]
        var stopReason: String?
        var journal: String?
        var report: String?
        var reportJSON: String?
        var seconds: Double
        var tagsPerMinute: Double
    }

    /// The dry run's JSON form.
    struct DryRun: Encodable {
        var rows: Int
        var fields: [String]
        var template: String
        var journal: String
        /// The job's name in a database (`--job`), instead of a journal.
        var job: String?
        var resumes: Bool
        var firstMessageBytes: Int
        var lockCode: String?
        var options: [String: String]
        /// Per chip (NTAG213/215/216 and the simulated readers' chips): its NDEF capacity and the
        /// rows whose message is larger.
        var capacities: [ChipFit]
    }

    /// The rows too large for a chip.
    struct ChipFit: Encodable {
        var chip: ChipJSON
        var capacity: Int
        var oversizedRows: [Int]
    }

    /// For NTAG213, NTAG215, NTAG216 and the chips of the simulated readers given, the rows of
    /// `lengths` whose message is larger than a factory tag of the chip holds.
    static func fits(_ lengths: [(row: Int, bytes: Int)], invocation: CommandInvocation) -> [ChipFit] {
        var chips: [Type2Chip] = [.ntag213, .ntag215, .ntag216]
        for text in invocation.values.values(BatchCommand.reader.long) {
            guard let address = try? ReaderAddress(parsing: text, origin: "--reader"),
                case .simulated(let url, _) = address, case .type2(let chip) = url.tagKind,
                !chips.contains(where: { $0.name == chip.name })
            else { continue }
            chips.append(chip)
        }
        return chips.map { chip in
            let capacity = BatchStations.largestCapacity(chip: chip)
            return ChipFit(
                chip: ChipJSON(chip.name), capacity: capacity,
                oversizedRows: lengths.filter { $0.bytes > capacity }.map(\.row))
        }
    }

    /// `--dry-run`: what the job would do, without a reader.
    static func dryRun(
        _ setup: BatchJobSetup, first: NFCNDEFMessage?, lengths: [(row: Int, bytes: Int)],
        invocation: CommandInvocation
    ) throws(CommandLineError) -> ExitStatus {
        let fits = fits(lengths, invocation: invocation)
        var code: String?
        if setup.settings.needsConfirmation {
            do {
                code = try ProvisioningLockConfirmation.code(for: setup.header)
            } catch {
                throw CommandLineError(.internalError, "The job code: \(error.reason)")
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try first?.encoded() ?? []
        } catch {
            throw CommandLineError(.dataError, "The first row's message: \(error.description)")
        }
        if invocation.values.flag(BatchCommand.json.long) {
            let dry = DryRun(
                rows: setup.plan.count, fields: setup.plan.fields, template: setup.header.template,
                journal: setup.journalPath, job: setup.databaseJob, resumes: setup.resumes,
                firstMessageBytes: bytes.count, lockCode: code,
                options: setup.header.options, capacities: fits)
            try invocation.io.writeOutput(try MessageJSON.text(of: dry) + "\n")
            return .success
        }
        var lines = [
            "Plan: \(setup.plan.count) rows, fields \(setup.plan.fields.joined(separator: ", "))",
            "Template: \(setup.header.template)",
            setup.databaseJob.map { "Database job: \($0) (created, or joined when it exists, when run)" }
                ?? "Journal: \(setup.journalPath)"
                + (setup.resumes
                    ? " (resumed)"
                    : FileAccess.exists(setup.journalPath) ? " (exists: continue it with --resume)" : " (new)"),
            (setup.settings.sdm.map { "Each tag: \($0)" } ?? "Each tag: write and verify")
                + (setup.settings.locks ? ", lock" : "")
                + (setup.settings.password.map { ", password \($0)" } ?? ""),
        ]
        if let first {
            lines.append("Row 1's message (with a sample UID):")
            lines.append(MessageDescription(message: first, size: bytes.count).text.trimmingSuffixNewline)
        }
        let largest = lengths.max { $0.bytes < $1.bytes }
        if let largest { lines.append("Largest message: row \(largest.row), \(largest.bytes) bytes") }
        for fit in fits where !fit.oversizedRows.isEmpty {
            let sizes = Dictionary(lengths.map { ($0.row, $0.bytes) }) { first, _ in first }
            let shown = fit.oversizedRows.prefix(10).map { "\($0) (\(sizes[$0] ?? 0) bytes)" }
            lines.append(
                "Too large for \(fit.chip.name) (\(fit.capacity) bytes): \(fit.oversizedRows.count) row"
                    + (fit.oversizedRows.count == 1 ? "" : "s") + ": " + shown.joined(separator: ", ")
                    + (fit.oversizedRows.count > 10 ? ", ..." : ""))
        }
        if let code {
            let what = setup.settings.sdm != nil ? "changes every tag's keys" : "locks every tag"
            lines.append("Job code (\(what): --confirm \(code)): \(code)")
        }
        try invocation.io.writeOutput(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// Writes the reports, prints the summary and gives the exit status of a run that ended
    /// with `summary`.
    static func finish(
        _ summary: ProvisioningJobSummary, setup: BatchJobSetup, journal: ProvisioningJournal, interrupted: Int32?,
        invocation: CommandInvocation
    ) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let (csvPath, jsonPath) = reportPaths(setup, values: values)
        let report = ProvisioningReport(state: journal.state, plan: setup.plan, fields: setup.plan.fields)
        try FileAccess.writeFile(path: csvPath) { write throws(CommandLineError) in try report.writeCSV(write) }
        try FileAccess.writeFile(path: jsonPath) { write throws(CommandLineError) in
            try report.writeJSON(write)
            try write([0x0A])
        }
        let seconds = BatchStatus.seconds(summary.elapsed)
        let perMinute = BatchStatus.pace(doneThisRun: summary.doneThisRun, remaining: 0, elapsed: summary.elapsed)
            .perMinute
        if values.flag(BatchCommand.json.long) {
            let json = Summary(
                job: nil, rows: summary.rowCount, done: summary.doneRows, doneThisRun: summary.doneThisRun,
                locked: summary.lockedThisRun, passwords: summary.passwordsThisRun, refusedTags: summary.refusedTags,
                alreadyDoneTags: summary.alreadyDoneTags, pending: summary.pendingRows,
                unfinishedRows: summary.unfinishedRows, failedRows: summary.failedRows,
                stopReason: summary.stopReason, journal: setup.journalPath, report: csvPath, reportJSON: jsonPath,
                seconds: (seconds * 1000).rounded() / 1000, tagsPerMinute: (perMinute * 10).rounded() / 10)
            try invocation.io.writeOutput(try MessageJSON.text(of: json) + "\n")
        } else {
            // The readers are not in the journal: the resume names them again (without simulated faults).
            // The master secret is not in the journal either: its file is named again (a path, not
            // the secret); a secret from the environment is said to be needed there.
            var again = RepeatCommand.line(
                invocation.arguments, command: ["batch", "--resume", setup.journalPath],
                keeping: [
                    "--reader", "--wait", "--confirm", "--" + MasterSecretInput.file.long,
                    "--" + BatchCommand.sdmMasterKeyFile.long, "--" + BatchCommand.sdmFromMasterKeyFile.long,
                    "--" + SignatureKeyOptions.signatureKey.long,
                    "--" + ClassicKeysFile.option.long,
                ])
            if setup.settings.password != nil, !values.isGiven(MasterSecretInput.file.long) {
                again += "   (with $\(MasterSecretInput.variable) set to the job's master secret)"
            }
            try invocation.io.writeOutput(
                text(summary, setup: setup, csv: csvPath, json: jsonPath, perMinute: perMinute, again: again))
        }
        if summary.journalFailure != nil { return .ioError }
        return status(of: summary, interrupted: interrupted)
    }

    /// The exit status of a run that ended with `summary` (its ledger written): 0 every row
    /// done, 84 every row done or failed for good, 130/143 stopped by a signal, 80 rows wait for
    /// their tags, else 75.
    static func status(of summary: ProvisioningJobSummary, interrupted: Int32?) -> ExitStatus {
        if let interrupted { return .stopped(by: interrupted) }
        if summary.isComplete { return .success }
        if summary.isSettled { return .rowsFailed }
        return summary.unfinishedRows.isEmpty ? .tryAgain : .incompleteWrite
    }

    /// The lines of a summary whose rows are all done or failed for good: which failed, and
    /// the command that tries them again (`again` with `--retry-failed`).
    static func failedLines(_ summary: ProvisioningJobSummary, again: String) -> [String] {
        [
            "Failed: rows \(list(summary.failedRows)) cannot be built or fit no tag (the report says why); every "
                + "other row is done.",
            "Retry them with: \(again) --retry-failed",
        ]
    }

    /// What `--retry-failed` did: the rows it gave back.
    static func retriedNote(_ rows: [Int]) -> String {
        rows.isEmpty
            ? "--retry-failed: no row has failed for good; nothing to retry."
            : "--retry-failed: rows \(list(rows)) go back to the pool and are tried again."
    }

    /// The summary as text.
    private static func text(
        _ summary: ProvisioningJobSummary, setup: BatchJobSetup, csv: String, json: String, perMinute: Double,
        again: String
    ) -> String {
        var steps: [String] = []
        if setup.settings.locks { steps.append("\(summary.lockedThisRun) locked") }
        if setup.settings.password != nil { steps.append("\(summary.passwordsThisRun) given a password") }
        if setup.settings.sdm != nil { steps = ["secure messages set up with each tag's own keys"] }
        var lines = [
            "Done: \(summary.doneRows) of \(summary.rowCount) rows (\(summary.doneThisRun) in this run"
                + (steps.isEmpty ? "" : "; " + steps.joined(separator: ", ")) + ", "
                + "\(Int(perMinute.rounded())) tags/min); \(summary.refusedTags) tag"
                + (summary.refusedTags == 1 ? "" : "s") + " refused" + alreadyDone(summary) + "."
        ]
        if !summary.isComplete && summary.isSettled {
            lines += failedLines(summary, again: again)
        } else if !summary.isComplete {
            var left = ["\(summary.pendingRows) not started"]
            if !summary.unfinishedRows.isEmpty {
                left.append("rows \(list(summary.unfinishedRows)) wait for the tag they were started on")
            }
            if !summary.failedRows.isEmpty {
                left.append(
                    "rows \(list(summary.failedRows)) failed: they cannot be built or fit no tag (the report says why)")
            }
            lines.append("Left: " + left.joined(separator: "; ") + ".")
            if let reason = summary.stopReason { lines.append("Stopped: \(reason).") }
            lines.append("Continue with: \(again)")
        }
        lines.append("Journal: \(setup.journalPath)")
        lines.append("Reports: \(csv), \(json)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1, 2, 5` (at most 20, then `...`).
    /// `; 36 tags already done, left as they were` when a run met tags of rows done earlier (a
    /// resume over the same supply): skipped, not refusals.
    static func alreadyDone(_ summary: ProvisioningJobSummary) -> String {
        switch summary.alreadyDoneTags {
        case 0: ""
        case 1: "; 1 tag already done, left as it was"
        case let count: "; \(count) tags already done, left as they were"
        }
    }

    static func list(_ rows: [Int]) -> String {
        rows.prefix(20).map(String.init).joined(separator: ", ") + (rows.count > 20 ? ", ..." : "")
    }

    /// The CSV and JSON reports' paths: `--report` and `--report-json`, else the journal's
    /// name with `.report.csv` and `.report.json`.
    static func reportPaths(_ setup: BatchJobSetup, values: ParsedValues) -> (csv: String, json: String) {
        let stem = reportStem(setup.journalPath)
        return (
            values.value(BatchCommand.report.long) ?? stem + ".report.csv",
            values.value(BatchCommand.reportJSON.long) ?? stem + ".report.json"
        )
    }

    /// Refuses reports that would overwrite one of the job's own files (the journal, the plan,
    /// the master secret) or each other, before anything starts.
    static func checkReportPaths(_ setup: BatchJobSetup, values: ParsedValues) throws(CommandLineError) {
        let (csv, json) = reportPaths(setup, values: values)
        try FileAccess.checkOutput(csv, option: "--report", dashIsStandardOutput: false)
        try FileAccess.checkOutput(json, option: "--report-json", dashIsStandardOutput: false)
        var others: [(String, String)] = [("the journal", setup.journalPath)]
        if let plan = values.value(BatchCommand.plan.long) { others.append(("the plan", plan)) }
        if let secret = values.value(MasterSecretInput.file.long) { others.append(("the master secret file", secret)) }
        if let key = values.value(BatchCommand.sdmMasterKeyFile.long) { others.append(("the master key file", key)) }
        if let key = values.value(BatchCommand.sdmFromMasterKeyFile.long) {
            others.append(("the previous master key file", key))
        }
        if let keys = values.value(ClassicKeysFile.option.long) { others.append(("the keys file", keys)) }
        for (option, path) in [("--report", csv), ("--report-json", json)] {
            for (what, other) in others where FileAccess.isSameFile(path, other) {
                throw .usage(
                    "\(option) \(InputReader.name(of: path)) is \(what): the report would overwrite it. Name "
                        + "another file; nothing was written")
            }
        }
        if FileAccess.isSameFile(csv, json) {
            throw .usage("--report and --report-json name the same file \(InputReader.name(of: csv)): name two files")
        }
    }

    /// `tags.journal` → `tags`; `job` → `job`.
    static func reportStem(_ journal: String) -> String {
        journal.hasSuffix(".journal") ? String(journal.dropLast(".journal".count)) : journal
    }
}

extension String {
    /// The text without its final line break.
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
