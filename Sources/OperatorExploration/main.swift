import Foundation

// OperatorExploration [--seconds N] [--seed S] [--steps N] [--sequences N] [--kind K] [--show]
//     [--database URL] [--ndeftool PATH] [--scratch DIR]
//
// Seeded random sequences of operator commands on simulated tags, through the built ndeftool,
// with invariants checked after every command: Type 2 passwords (PasswordExploration), NTAG 424
// DNA set-ups (SDMExploration), batch jobs (BatchExploration) and MIFARE Classic cards (ClassicExploration). Runs sequences of --steps
// commands (25) until --seconds have passed or --sequences ran (45 s when neither is given; with
// --sequences alone, as long as they take: the same commands on any machine); sequence k uses
// seed S + k, and the seed decides its kind (SequenceKind); --kind runs only the seeds of one;
// --show prints each sequence's commands and their exit statuses; with --database (a libpq
// connection string of a database the exploration may fill), half the batch sequences keep
// their job in it (--job, --join) instead of a journal.
// Prints the figures at the end, or the first failure with the seed that replays it:
//     Scripts/explore --seed SEED --sequences 1
// Exit status: 0 no invariant failed, 1 one did, 2 usage.

var seconds: Double?
var seed = UInt64(UInt32.random(in: 1...UInt32.max))
var steps = 25
var sequences = Int.max
var scratch = NSTemporaryDirectory()
var kind: SequenceKind?
var showsCommands = false
var database: String?
var executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("ndeftool").path
var arguments = CommandLine.arguments.dropFirst()
func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            ("usage: OperatorExploration [--seconds N] [--seed S] [--steps N] [--sequences N] "
                + "[--kind password|sdm|batch|classic] [--show] [--database URL] [--ndeftool PATH] [--scratch DIR]\n")
                .utf8))
    exit(2)
}
while let argument = arguments.popFirst() {
    if argument == "--show" {
        showsCommands = true
        continue
    }
    guard let value = arguments.popFirst() else { usage() }
    switch argument {
    case "--seconds": seconds = Double(value) ?? -1
    case "--seed": seed = UInt64(value) ?? 0
    case "--steps": steps = Int(value) ?? -1
    case "--sequences": sequences = Int(value) ?? -1
    case "--ndeftool": executable = value
    case "--scratch": scratch = value
    case "--database": database = value
    case "--kind":
        guard let one = SequenceKind(rawValue: value) else { usage() }
        kind = one
    default: usage()
    }
    if (seconds ?? 0) < 0 || steps < 1 || sequences < 1 || seed == 0 { usage() }
}
if seconds == nil && sequences == Int.max { seconds = 45 }
let budget = seconds ?? .infinity
guard FileManager.default.isExecutableFile(atPath: executable) else {
    FileHandle.standardError.write(Data("OperatorExploration: no ndeftool at \(executable)\n".utf8))
    exit(2)
}

print(
    "Exploring operator sequences: seed \(seed), \(steps) commands a sequence, "
        + (sequences == Int.max ? "for \(Int(budget)) s" : "\(sequences) sequences"))
let start = Date()
var done = 0
var commands = 0
var checks = 0
var byKind: [SequenceKind: (sequences: Int, checks: Int)] = [:]
var sequenceSeed = seed
while done < sequences && (done == 0 || Date().timeIntervalSince(start) < budget) {
    defer { sequenceSeed &+= 1 }
    let sequenceKind = SequenceKind(seed: sequenceSeed)
    if let kind, kind != sequenceKind { continue }
    let folder = (scratch as NSString).appendingPathComponent("ndeftool-explore-\(getpid())-\(done)")
    try? FileManager.default.removeItem(atPath: folder)
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var exploration = try sequenceKind.sequence(
            runner: CommandRunner(executable: executable, folder: folder, database: database), seed: sequenceSeed)
        let checked = try exploration.explore(steps: steps)
        if showsCommands {
            print("Sequence \(done) (\(sequenceKind.rawValue), seed \(sequenceSeed)):")
            for line in exploration.history { print("  " + line) }
        }
        checks += checked
        commands += steps
        byKind[sequenceKind, default: (0, 0)].sequences += 1
        byKind[sequenceKind, default: (0, 0)].checks += checked
        try? FileManager.default.removeItem(atPath: folder)
    } catch {
        print(
            "FAILED in the \(sequenceKind.rawValue) sequence of seed \(sequenceSeed) (its folder is kept: \(folder)):"
                + "\n\(error)")
        print("Replay: Scripts/explore --seed \(sequenceSeed) --sequences 1 --steps \(steps)")
        exit(1)
    }
    done += 1
}
let elapsed = Date().timeIntervalSince(start)
let kinds = SequenceKind.allCases.compactMap { kind in
    byKind[kind].map { "\(kind.rawValue) \($0.sequences) sequences, \($0.checks) checks" }
}
print(
    "Done: \(done) sequences, \(commands) commands, \(checks) invariant checks, 0 failures, "
        + String(format: "%.0f s", elapsed) + " (" + kinds.joined(separator: "; ") + ")")
