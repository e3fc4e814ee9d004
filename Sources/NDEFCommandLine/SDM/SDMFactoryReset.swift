import CommandLineKit
import HexText
import NFCSession
import NTAG424

/// `ndeftool sdm setup --factory --from-keys-file F`: an NTAG 424 DNA returned from the keys of
/// F to its factory keys and NDEF file settings with an empty NDEF file
/// (``NFCSession/NFCNTAG424Tag/resetToFactory(from:confirmation:progress:)``), confirmed with its
/// own code, recorded like a set-up.
struct SDMFactoryReset {
    let invocation: CommandInvocation
    let request: SDMSetupCommand.Request
    let connection: TagConnection
    /// `--confirm`'s code.
    let code: String?

    func run(on ntag: NFCNTAG424Tag) async throws -> ExitStatus {
        let values = invocation.values
        let isDryRun = values.flag(SDMSetupCommand.dryRun.long)
        let from = try request.from.keySet(for: ntag.identifier)
        let confirmation = try ntag.prepareFactoryReset(from: from)
        let again = RepeatCommand.line(
            invocation.arguments, dropping: ["--confirm", "--dry-run"], adding: ["--confirm", confirmation.code])
        let progress: NTAG424SDMProgress
        do {
            progress = try await ntag.factoryResetProgress(from: from)
        } catch {
            throw Self.notNTAG424(error)
        }
        var report = Report(
            uid: ntag.identifier, fromKeySource: request.from.description, code: confirmation.code, progress: progress)
        report.isDryRun = isDryRun
        let json = values.flag(SDMSetupCommand.json.long)
        if !json { try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n") }
        if isDryRun {
            try invocation.io.writeOutput(
                json
                    ? try MessageJSON.text(of: report) + "\n"
                    : "Nothing was changed (--dry-run). To reset this tag:\n  \(again)\n")
            return .success
        }
        let records = SDMSetupRecords(io: invocation.io)
        let factory = NTAG424KeySet.factory.keys
        if !progress.foreignKeys.isEmpty {
            throw SDMSetupCommand.foreignKeys(
                progress.foreignKeys, record: records.load(uid: ntag.identifier), keys: factory, from: from.keys)
        }
        try await ConfirmationPrompt(
            refusal: "reset refused", standsFor: "this tag and these keys",
            nothingDone: "nothing was changed", whyAsked: "changing the keys needs a confirmation",
            warning: "The keys go back to the factory's and SDM goes off: the tag's URLs no longer verify, and "
                + "anyone can then set it up.",
            action: "reset tag", rerun: "reset this tag"
        ).confirm(confirmation, code: code, console: connection.console, again: again)
        var record = SDMSetupRecords.started(
            uid: ntag.identifier, keys: factory, option: "", path: "",
            from: (from.keys, request.from.option, request.from.path))
        try await records.save(record, uid: ntag.identifier)
        do {
            report.steps = try await ntag.resetToFactory(from: from, confirmation: confirmation, progress: progress)
        } catch {
            throw Self.failure(error, again: again)
        }
        record.stage = .done
        try? await records.save(record, uid: ntag.identifier)
        report.isComplete = true
        if json {
            try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
        } else {
            let lines =
                report.steps.isEmpty
                ? ["Nothing to change: the tag has its factory keys and settings and an empty NDEF file."]
                : report.steps.map { "  \($0)" } + [
                    "Reset: factory keys (version 0), the NDEF file's factory settings, an empty NDEF file."
                ]
            try invocation.io.writeOutput(lines.joined(separator: "\n") + "\n")
        }
        return .success
    }

    /// A failure of reading the tag's state: not an NTAG 424 DNA, or the reader's error.
    static func notNTAG424(_ error: NFCReaderError) -> any Error {
        guard error.code == .tagNotSupported else { return error }
        return CommandLineError(.tagError, "this Type 4 tag is not an NTAG 424 DNA: \(error.reason)")
    }

    /// The failure of a confirmed reset: after a cut, the same command finishes it.
    static func failure(_ error: NFCReaderError, again: String) -> CommandLineError {
        switch error.code {
        case .authenticationFailed, .confirmationMismatch:
            return CommandLineError(
                TagFailure.status(for: error.code), "resetting the tag: \(error.reason) (\(error.code.rawValue))")
        default:
            return CommandLineError(
                .incompleteWrite,
                "resetting the tag: \(error.reason) (\(error.code.rawValue))\nThe reset may have stopped part way; "
                    + "the tag's keys are the old ones or the factory's. To finish it, hold the tag to the reader "
                    + "again and run:\n  \(again)")
        }
    }

    /// What `--factory` shows: the tag, where the keys it holds come from, what is done and left,
    /// the code, and after the reset the steps taken (Fixtures/schemas/sdm-setup.schema.json, its factoryReset shape).
    struct Report: Encodable {
        var uid: [UInt8]
        var fromKeySource: String
        var code: String
        var progress: NTAG424SDMProgress
        var isDryRun = false
        var isComplete = false
        var steps: [String] = []

        init(uid: [UInt8], fromKeySource: String, code: String, progress: NTAG424SDMProgress) {
            self.uid = uid
            self.fromKeySource = fromKeySource
            self.code = code
            self.progress = progress
        }

        var stepsLeft: [String] {
            var left: [String] = []
            if !progress.messageWritten { left.append("empty the NDEF file") }
            if !progress.settingsApplied { left.append("set the NDEF file's factory settings (SDM off)") }
            for number in [1, 2, 3, 4, 0] where !progress.changedKeys[number] { left.append("change key \(number)") }
            return left
        }

        var stepsDone: [String] {
            var done: [String] = []
            if progress.messageWritten { done.append("the NDEF file empty") }
            if progress.settingsApplied { done.append("the NDEF file's factory settings") }
            let keys = [1, 2, 3, 4, 0].filter { progress.changedKeys[$0] }
            if !keys.isEmpty {
                done.append("key" + (keys.count == 1 ? " " : "s ") + keys.map(String.init).joined(separator: ", "))
            }
            return done
        }

        var lines: [String] {
            let foreign = progress.foreignKeys
            return [
                "Tag \(Hex.encode(uid, uppercase: true)) (NTAG 424 DNA)",
                "Factory reset: keys k0-k4 back to 16 zero bytes at version 0, the NDEF file's factory settings "
                    + "(SDM off, free read and write), the NDEF file emptied",
                "Keys it holds now: k0-k4 \(fromKeySource)",
                "Done already: " + (stepsDone.isEmpty ? "nothing" : stepsDone.joined(separator: "; ")),
                "To do: "
                    + (!foreign.isEmpty
                        ? "nothing: key\(foreign.count == 1 ? "" : "s") "
                            + foreign.map(String.init).joined(separator: ", ")
                            + " hold keys that are neither those given nor the factory's"
                        : stepsLeft.isEmpty ? "nothing (the tag is as delivered)" : stepsLeft.joined(separator: "; ")),
                "Reset code: \(code)",
            ]
        }

        private enum CodingKeys: String, CodingKey {
            case uid, factoryReset, fromKeySource, code, done, left, dryRun, complete, steps
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Hex.encode(uid, uppercase: true), forKey: .uid)
            try container.encode(true, forKey: .factoryReset)
            try container.encode(fromKeySource, forKey: .fromKeySource)
            try container.encode(code, forKey: .code)
            try container.encode(stepsDone, forKey: .done)
            try container.encode(stepsLeft, forKey: .left)
            try container.encode(isDryRun, forKey: .dryRun)
            try container.encode(isComplete, forKey: .complete)
            try container.encode(steps, forKey: .steps)
        }
    }
}
