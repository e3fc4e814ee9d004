import HexText
import NDEF
import NFCSession
import NTAG424

/// What `ndeftool sdm setup` shows: the tag, the plan (never a key), what is done already, what
/// is left, the set-up code, and after the set-up the steps taken.
struct SDMSetupReport: Encodable {
    var uid: [UInt8]
    /// The URL with its placeholders, as given.
    var url: String
    var plan: NTAG424SDMPlan
    var keySource: String
    /// Where the keys the tag holds now come from, for a move from an earlier set-up (nil: the
    /// factory keys).
    var fromKeySource: String?
    var code: String
    var progress: NTAG424SDMProgress
    var isDryRun = false
    var isComplete = false
    var steps: [String] = []

    init(
        uid: [UInt8], url: String, plan: NTAG424SDMPlan, keySource: String, code: String, progress: NTAG424SDMProgress
    ) {
        self.uid = uid
        self.url = url
        self.plan = plan
        self.keySource = keySource
        self.code = code
        self.progress = progress
    }

    /// The steps left, in the order the set-up takes them.
    var stepsLeft: [String] {
        var left: [String] = []
        if !progress.messageWritten { left.append("write the message") }
        if plan.template.mode == .lrp && progress.tagMode != .lrp {
            left.append("switch the tag to LRP (for good" + (progress.tagMode == nil ? ", unless it is already)" : ")"))
        }
        if plan.template.tagTamperOffset != nil && progress.tagTamperEnabled != true {
            left.append(
                "enable TagTamper (for good" + (progress.tagTamperEnabled == nil ? ", unless it is already)" : ")"))
        }
        if !progress.settingsApplied { left.append("set SDM on the NDEF file") }
        for number in [1, 2, 3, 4, 0] where !progress.changedKeys[number] { left.append("change key \(number)") }
        return left
    }

    /// The steps done already (by an earlier, interrupted run, or a set-up complete).
    var stepsDone: [String] {
        var done: [String] = []
        if progress.messageWritten { done.append("the message") }
        if progress.settingsApplied { done.append("SDM on the NDEF file") }
        let keys = [1, 2, 3, 4, 0].filter { progress.changedKeys[$0] }
        if !keys.isEmpty {
            done.append("key" + (keys.count == 1 ? " " : "s ") + keys.map(String.init).joined(separator: ", "))
        }
        return done
    }

    /// Where the plan's mirrors go: `PICCData at 40 (key 1), SDMMAC at 86 (key 2, input empty)`,
    /// with the file data window and an input from it when the URL has `{enc}`.
    var sdmText: String {
        let template = plan.template
        var parts = ["PICCData at \(template.piccDataOffset) (key \(plan.metaReadKey))"]
        var input = "input empty"
        if let offset = template.encryptedDataOffset, let data = template.fileData {
            parts.append(
                "file data at \(offset) (\(data.count) bytes encrypted, key \(plan.fileReadKey)"
                    + (template.tagTamperOffset == nil ? ")" : "; the TagTamper status in its first 2)"))
            input = "input from \(offset)"
        }
        parts.append("SDMMAC at \(template.macOffset) (key \(plan.fileReadKey), \(input))")
        return (template.mode == .lrp ? "LRP; " : "") + parts.joined(separator: ", ")
    }

    /// The plan as text.
    var lines: [String] {
        let uidText = Hex.encode(uid, uppercase: true)
        let ndefWrite = plan.locksNDEF ? "key 0 only (--lock-ndef)" : "free (as at the factory)"
        var lines = [
            "Tag \(uidText) (NTAG 424 DNA)",
            "URL: \(url) (\(plan.template.file.count - 2)-byte message)",
            "SDM: " + sdmText + "; NDEF file write: \(ndefWrite)",
            "Keys: k0-k4 \(keySource), version \(plan.keyVersion)",
        ]
        if let fromKeySource { lines.append("Keys it holds now: k0-k4 \(fromKeySource) (each key is changed from it)") }
        lines.append("Done already: " + (stepsDone.isEmpty ? "nothing" : stepsDone.joined(separator: "; ")))
        let foreign = progress.foreignKeys
        let toDo: String
        if progress.tagMode == .lrp && plan.template.mode == .aes {
            toDo = "nothing: the tag speaks LRP (for good), and this plan is in AES (give --lrp)"
        } else if !foreign.isEmpty {
            toDo =
                "nothing: key\(foreign.count == 1 ? "" : "s") " + foreign.map(String.init).joined(separator: ", ")
                + (fromKeySource == nil
                    ? " hold another set-up's keys, which this plan cannot finish (run with the keys that set-up "
                        + "started with)"
                    : " hold keys that are neither those the move starts from nor the new ones")
        } else {
            toDo = stepsLeft.isEmpty ? "nothing (the tag is set up with this plan)" : stepsLeft.joined(separator: "; ")
        }
        lines.append("To do: " + toDo)
        lines.append("Set-up code: \(code)")
        return lines
    }

    /// The outcome as text.
    var resultLines: [String] {
        if steps.isEmpty { return ["Nothing to change: the tag is set up with this plan; its URL verifies."] }
        return steps.map { "  \($0)" } + ["Set up: the URL the tag gives now verifies with the new keys."]
    }

    private enum CodingKeys: String, CodingKey {
        case uid, url, mode, tagTamper, messageLength, piccDataOffset, fileDataOffset, fileDataLength, macInputOffset,
            macOffset
        case metaReadKey, fileReadKey, locksNDEF, keyVersion
        case keySource, fromKeySource, code, done, left, dryRun, complete, steps
    }

    /// Every key (Fixtures/schemas/sdm-setup.schema.json); no key material.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(uid, uppercase: true), forKey: .uid)
        try container.encode(url, forKey: .url)
        try container.encode(plan.template.file.count - 2, forKey: .messageLength)
        try container.encode(plan.template.mode.rawValue, forKey: .mode)
        try container.encode(plan.template.tagTamperOffset != nil, forKey: .tagTamper)
        try container.encode(plan.template.piccDataOffset, forKey: .piccDataOffset)
        try container.encode(plan.template.encryptedDataOffset, forKey: .fileDataOffset)
        try container.encode(plan.template.fileData?.count, forKey: .fileDataLength)
        try container.encode(plan.template.macInputOffset, forKey: .macInputOffset)
        try container.encode(plan.template.macOffset, forKey: .macOffset)
        try container.encode(plan.metaReadKey, forKey: .metaReadKey)
        try container.encode(plan.fileReadKey, forKey: .fileReadKey)
        try container.encode(plan.locksNDEF, forKey: .locksNDEF)
        try container.encode(Int(plan.keyVersion), forKey: .keyVersion)
        try container.encode(keySource, forKey: .keySource)
        try container.encode(fromKeySource, forKey: .fromKeySource)
        try container.encode(code, forKey: .code)
        try container.encode(stepsDone, forKey: .done)
        try container.encode(stepsLeft, forKey: .left)
        try container.encode(isDryRun, forKey: .dryRun)
        try container.encode(isComplete, forKey: .complete)
        try container.encode(steps, forKey: .steps)
    }
}
