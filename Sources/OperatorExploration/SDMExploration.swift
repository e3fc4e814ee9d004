import HexText
import NTAG424

/// Random sequences of `ndeftool sdm setup` runs on one simulated NTAG 424 DNA, as an operator
/// runs them: a dry run for the code, the set-up with that code (now and then a stale one),
/// reruns after a cut as the tool says or with another keys file, master key, URL or key
/// version, moves to other keys (`--from-keys-file`, `--from-master-key-file`: the right old
/// keys, wrong ones, or none), factory resets (`--factory`), and verifications of the URL the
/// tag gives. Changes are cut at a random command (tear, none, complete) or lose a write; after
/// every command the invariants are checked against the tag file.
///
/// Invariants, after every command:
/// 1. The tag's keys are one state the tool told the operator the tag may be in (the factory's;
///    a change that ended 0: its keys; one that ended 80, "the keys are the factory's or the
///    plan's" or "the old ones or the new ones": each key one of those two): never keys of two
///    files where the tool named one, never a key of no file.
/// 2. A change that ends 80 leaves each key the one it started from or its target's.
/// 3. A set-up or move that ends 0 leaves every key its plan's, at its key version, and the URL
///    the tag then gives verifies with those keys; a factory reset that ends 0 leaves the
///    factory keys at version 0.
/// 4. Once a change ended 0, only a later change that ends 0 or 80 changes a key (nothing the
///    operator was told is done is undone by a refusal, a dry run or a read).
/// 5. A dry run, a refusal (64, 65, 66, 78, 79) and a change the tag left before it changed
///    anything (75) leave the tag file as it was (but for the SDM read counter, which a read
///    advances).
/// 6. Every command ends with a status its help documents.
/// 7. The tag speaks LRP only after a confirmed change with `--lrp` ended 0 or 80 (the switch is
///    part of the set-up); a change without `--lrp` on a tag in LRP ends 76 with every key and
///    version as they were.
struct SDMExploration: OperatorSequence {
    /// The tag's UID (fixed, so that codes and derived keys repeat with the seed).
    static let uid: [UInt8] = [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80]
    /// The URLs the operator sets up, with their placeholders.
    static let urls = [
        "https://x.example/t?picc_data={picc}&cmac={mac}", "https://y.example/tag?picc_data={picc}&cmac={mac}",
    ]
    /// The keys files k0.json ... k2.json (keys 0-4 each); m0.key is a master key.
    static let fileKeys: [[[UInt8]]] = (0..<3).map { file in
        (0..<5).map { key in [UInt8](repeating: UInt8(0x10 * (file + 1) + key + 1), count: 16) }
    }
    static let masterKey: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }

    let runner: CommandRunner
    var random: ExplorationRandom
    /// The states the tool said the tag may be in: for each, the values each key may hold.
    var told: [[[[UInt8]]]] = [Array(repeating: [Type4TagState.factoryKey], count: 5)]
    /// The plan the tool said is set up (or the reset done), when one is.
    var done: Plan?
    /// The last set-up that ended 80, with its code, for a rerun as the tool says.
    var cut: (plan: Plan, code: String)?
    /// Whether a confirmed change with `--lrp` ended 0 or 80: only then may the tag speak LRP.
    var mayBeLRP = false
    /// Codes from dry runs, by plan.
    var codes: [Plan: String] = [:]
    /// Every command so far with its status, for the report of a failure.
    var history: [String] = []
    var tagPath: String { runner.folder + "/t.t4t" }
    var reader: String { "sim:ntag424?uid=\(Hex.encode(Self.uid, uppercase: true))&file=\(tagPath)" }

    /// One set-up plan: where the keys come from and the options.
    struct Plan: Hashable, CustomStringConvertible {
        /// 0-2: the keys files; 3: the master key.
        var source: Int
        var url: Int
        var keyVersion: Int?
        var fileReadKey: Int?
        var lockNDEF: Bool
        /// The keys the operator says the tag holds now (0-3, as ``source``); nil: the factory's.
        var from: Int?
        /// `--factory`: back to the factory keys (with ``from``; without it the command is refused).
        var factory = false
        /// `--lrp`: the tag switched to LRP (for good) and set up in LRP.
        var lrp = false

        var arguments: [String] {
            var arguments = ["sdm", "setup"]
            if factory {
                arguments.append("--factory")
            } else {
                arguments += ["--url", SDMExploration.urls[url]]
                arguments += source < 3 ? ["--keys-file", "k\(source).json"] : ["--master-key-file", "m0.key"]
                if let keyVersion { arguments += ["--key-version", String(keyVersion)] }
                if let fileReadKey { arguments += ["--file-read-key", String(fileReadKey)] }
                if lockNDEF { arguments.append("--lock-ndef") }
                if lrp { arguments.append("--lrp") }
            }
            if let from {
                arguments += from < 3 ? ["--from-keys-file", "k\(from).json"] : ["--from-master-key-file", "m0.key"]
            }
            return arguments
        }

        /// The five keys the tag gets.
        func keys() throws -> [[UInt8]] {
            if factory { return Array(repeating: Type4TagState.factoryKey, count: 5) }
            return try Self.keys(of: source)
        }

        /// The five keys the operator says the tag holds now.
        func fromKeys() throws -> [[UInt8]] {
            guard let from else { return Array(repeating: Type4TagState.factoryKey, count: 5) }
            return try Self.keys(of: from)
        }

        /// The keys of a keys file (0-2) or of the master key (3).
        static func keys(of source: Int) throws -> [[UInt8]] {
            guard source == 3 else { return SDMExploration.fileKeys[source] }
            return try NTAG424MasterKey(SDMExploration.masterKey).keys(uid: SDMExploration.uid)
        }

        var description: String { arguments.dropFirst(2).joined(separator: " ") }
    }

    init(runner: CommandRunner, seed: UInt64) throws {
        self.runner = runner
        random = ExplorationRandom(seed: seed)
        for (index, keys) in Self.fileKeys.enumerated() {
            let entries = keys.enumerated().map { "\"k\($0.offset)\": \"\(Hex.encode($0.element, uppercase: true))\"" }
            try Array(("{" + entries.joined(separator: ", ") + "}\n").utf8).write(to: runner.folder + "/k\(index).json")
            try Array((Hex.encode(keys[1], uppercase: true) + "\n").utf8).write(
                to: runner.folder + "/k\(index)-meta.hex")
            for fileReadKey in 2...3 {
                try Array((Hex.encode(keys[fileReadKey], uppercase: true) + "\n").utf8).write(
                    to: runner.folder + "/k\(index)-file\(fileReadKey).hex")
            }
        }
        try Array((Hex.encode(Self.masterKey, uppercase: true) + "\n").utf8).write(to: runner.folder + "/m0.key")
    }

    mutating func explore(steps: Int) throws -> Int {
        let first = try runner.run(["write", "uri", "https://example.com/0", "--reader", reader, "--wait", "0"])
        guard first.status == 0 else { throw ExplorationFailure("the first write failed: \(first.output)") }
        var checked = 0
        for _ in 0..<steps {
            let before = try state()
            switch random.below(10) {
            case 0..<2: checked += try dryRun(nextPlan(), before: before)
            case 2..<8:
                if let cut, random.below(3) != 0 {
                    checked += try setUp(cut.plan, code: cut.code, before: before)
                } else {
                    let plan = nextPlan()
                    checked += try setUp(plan, code: try code(for: plan), before: before)
                }
            default: checked += try verify(before: before)
            }
        }
        return checked
    }

    private func state() throws -> Type4TagState {
        guard let state = try Type4TagState(path: tagPath) else { throw ExplorationFailure("the tag file is gone") }
        return state
    }

    private mutating func nextPlan() -> Plan {
        // A careless operator mostly keeps the plan of the last cut, and changes one thing now and then.
        var plan =
            cut?.plan ?? done
            ?? Plan(source: random.below(4), url: random.below(2), keyVersion: nil, fileReadKey: nil, lockNDEF: false)
        switch random.below(8) {
        case 0: plan.source = random.below(4)
        case 1: plan.url = random.below(2)
        case 2: plan.keyVersion = [nil, 1, 2, 3][random.below(4)]
        case 3: plan.fileReadKey = [nil, 3][random.below(2)]
        case 4: plan.lockNDEF.toggle()
        case 5:
            // A move: mostly from the keys the tool said are on the tag, now and then from
            // others, or forgetting --from-keys-file.
            switch random.below(4) {
            case 0: plan.from = nil
            case 1: plan.from = random.below(4)
            default: plan.from = done.flatMap { $0.factory ? nil : $0.source } ?? random.below(4)
            }
            if let from = plan.from, from == plan.source || random.below(2) == 0 {
                plan.source = (from + 1 + random.below(3)) % 4
            }
        case 6: plan.factory = random.below(3) == 0
        case 7: plan.lrp = random.below(2) == 0
        default: break
        }
        return plan
    }

    /// The code the operator gives for `plan`: the dry run's, or now and then a stale one.
    private mutating func code(for plan: Plan) throws -> String {
        if random.below(8) == 0, let stale = codes.values.sorted().first { return stale }
        if let code = codes[plan] { return code }
        let before = try state()
        _ = try dryRun(plan, before: before)
        return codes[plan] ?? "000-000"
    }

    private mutating func record(_ arguments: [String], _ faults: String, _ result: CommandRunner.Result) throws {
        history.append("\(arguments.joined(separator: " ")) [\(faults)] -> \(result.status): \(try state())")
    }

    private func fail(_ what: String, before: Type4TagState, output: String) -> ExplorationFailure {
        let after = (try? state()).map(String.init(describing:)) ?? "unreadable"
        return ExplorationFailure(
            "\(what)\nbefore: \(before)\nafter:  \(after)\noutput:\n\(output)\ncommands:\n"
                + history.joined(separator: "\n"))
    }

    private mutating func dryRun(_ plan: Plan, before: Type4TagState) throws -> Int {
        let arguments = plan.arguments + ["--dry-run"]
        let result = try runner.run(arguments + ["--reader", reader, "--wait", "0"])
        try record(arguments, "", result)
        let after = try state()
        // --factory without the keys the tag holds is refused (64) before any reader is opened.
        let refused = plan.factory && plan.from == nil
        guard result.status == (refused ? 64 : 0) else {
            throw fail("invariant 6: a dry run ended \(result.status)", before: before, output: result.output)
        }
        if after.lines != before.lines {
            throw fail("invariant 5: a dry run changed the tag", before: before, output: result.output)
        }
        for label in ["Set-up code: ", "Reset code: "] {
            if let line = result.output.split(separator: "\n").first(where: { $0.hasPrefix(label) }) {
                codes[plan] = String(line.dropFirst(label.count))
            }
        }
        return try checkKeys(after, before: before, output: result.output) + 2
    }

    private mutating func setUp(_ plan: Plan, code: String, before: Type4TagState) throws -> Int {
        let faults = nextFaults()
        let arguments = plan.arguments + ["--confirm", code]
        let result = try runner.run(arguments + ["--reader", reader + faults, "--wait", "0"])
        try record(arguments, faults, result)
        let after = try state()
        var checked = 1
        guard [0, 64, 65, 66, 75, 76, 78, 79, 80].contains(result.status) else {
            throw fail("invariant 6: the set-up ended \(result.status)", before: before, output: result.output)
        }
        let keys = try plan.keys()
        let fromKeys = try plan.fromKeys()
        if [0, 80].contains(result.status) && plan.lrp && !plan.factory { mayBeLRP = true }
        if after.isLRP && !mayBeLRP {
            throw fail(
                "invariant 7: the tag speaks LRP without a change with --lrp", before: before, output: result.output)
        }
        switch result.status {
        case 76:
            checked += 1
            guard before.isLRP, !plan.lrp, after.keys == before.keys, after.versions == before.versions else {
                throw fail(
                    "invariant 7: 76 on a tag not in LRP, for an LRP plan, or with keys changed", before: before,
                    output: result.output)
            }
        case 0:
            checked += 3
            if after.isLRP != ((plan.lrp && !plan.factory) || before.isLRP) {
                throw fail("invariant 7: a change ended 0 in the wrong mode", before: before, output: result.output)
            }
            if after.keys != keys {
                throw fail(
                    "invariant 3: a change ended 0 without its plan's keys", before: before, output: result.output)
            }
            let version = plan.factory ? 0 : UInt8(plan.keyVersion ?? 1)
            if after.versions != [UInt8](repeating: version, count: 5) {
                throw fail(
                    "invariant 3: key versions \(after.versions), the plan's is \(version)", before: before,
                    output: result.output)
            }
            told.append(keys.map { [$0] })
            done = plan
            cut = nil
            guard try plan.factory || urlVerifies(with: plan) else {
                throw fail(
                    "invariant 3: the URL of a tag set up does not verify with its keys", before: before,
                    output: result.output)
            }
        case 80:
            checked += 1
            for number in 0..<5 where after.keys[number] != fromKeys[number] && after.keys[number] != keys[number] {
                throw fail(
                    "invariant 2: key \(number) is neither the one the change started from nor its target's after 80",
                    before: before, output: result.output)
            }
            told.append((0..<5).map { [fromKeys[$0], keys[$0]] })
            cut = (plan, code)
        default:
            checked += 1
            if after.lines != before.lines {
                throw fail(
                    "invariant 5: a set-up that ended \(result.status) changed the tag", before: before,
                    output: result.output)
            }
        }
        return checked + (try checkKeys(after, before: before, output: result.output))
    }

    /// Reads the tag's URL and verifies it with the keys of the plan set up (or another's).
    private mutating func verify(before: Type4TagState) throws -> Int {
        var plan = done ?? nextPlan()
        if plan.factory { plan.factory = false }
        let verifies = try urlVerifies(with: plan)
        let after = try state()
        // A later plan cut part way (other SDM settings, the same keys) may leave a URL that verifies
        // with neither plan until its rerun: the tool said so.
        if let done, !done.factory, cut == nil, !verifies {
            throw fail("invariant 3: the URL of the tag set up no longer verifies", before: before, output: "")
        }
        return try checkKeys(after, before: before, output: "") + 1
    }

    /// Whether the URL the tag gives now verifies with `plan`'s keys (`read`, then `sdm verify`).
    private mutating func urlVerifies(with plan: Plan) throws -> Bool {
        let read = try runner.run(["read", "--reader", reader, "--wait", "0"])
        guard read.status == 0,
            let line = read.output.split(separator: "\n").first(where: { $0.contains("URI: ") }),
            let url = line.split(separator: "URI: ").last
        else { return false }
        var arguments = ["sdm", "verify", String(url)]
        if plan.source == 3 {
            arguments += ["--master-key-file", "m0.key"]
            if let fileReadKey = plan.fileReadKey { arguments += ["--file-read-key", String(fileReadKey)] }
        } else {
            arguments += [
                "--meta-read-key-file", "k\(plan.source)-meta.hex",
                "--file-read-key-file", "k\(plan.source)-file\(plan.fileReadKey ?? 2).hex",
            ]
        }
        let result = try runner.run(arguments)
        history.append("\(arguments.joined(separator: " ")) -> \(result.status)")
        return result.status == 0
    }

    /// Invariants 1 and 4: the keys are one state the operator was told of, and a change told
    /// done is kept until another change ends 0 or 80.
    private func checkKeys(_ after: Type4TagState, before: Type4TagState, output: String) throws -> Int {
        let fits = told.contains { state in (0..<5).allSatisfy { state[$0].contains(after.keys[$0]) } }
        if !fits {
            throw fail(
                "invariant 1: the tag holds keys in no state the operator was told of", before: before,
                output: output)
        }
        if let done, cut == nil, after.keys != (try done.keys()) {
            throw fail("invariant 4: the keys of the change told done changed", before: before, output: output)
        }
        return 2
    }

    /// A random fault: none, a lost write, or the tag leaving at a random command.
    private mutating func nextFaults() -> String {
        switch random.below(10) {
        case 0..<3: return ""
        case 3: return "&lose-write=\(1 + random.below(3))"
        default:
            let inFlight = ["tear", "none", "complete"][random.below(3)]
            // A move proves up to ten keys before its first change: its cuts reach further.
            return "&remove-after=\(1 + random.below(60))&in-flight=\(inFlight)"
        }
    }
}
