import BenchmarkSupport
import SystemSupport

// ProvisioningBenchmarks [--tags N] [--quick] [--tsv PATH] [--scratch DIR] [--database URL]
//     [--stations-tsv PATH]
//
// The software overhead of batch provisioning per tag with simulated tags that answer at once,
// and the memory over the run (target: under 5 ms per tag, flat memory over 10,000 tags). With
// --database (a PostgreSQL database the run may create jobs in), then 1, 4 and 8 stations on the
// journal and on the database side by side (targets: at most 5 ms of database work per tag per
// station, at least 300 tags/s with 8 stations).

var tags = 10_000
var tsvPath: String?
var stationsTSVPath: String?
var databaseURL: String?
var scratch = "/tmp"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": tags = 1000
    case "--tags":
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            Platform.printError("ProvisioningBenchmarks: --tags needs a positive number")
            Platform.exit(2)
        }
        tags = value
    case "--tsv": tsvPath = arguments.popFirst()
    case "--scratch": scratch = arguments.popFirst() ?? scratch
    case "--database": databaseURL = arguments.popFirst()
    case "--stations-tsv": stationsTSVPath = arguments.popFirst()
    default:
        Platform.printError(
            "usage: ProvisioningBenchmarks [--tags N] [--quick] [--tsv PATH] [--scratch DIR] [--database URL] "
                + "[--stations-tsv PATH]")
        Platform.exit(2)
    }
}

let benchmark = BatchBenchmark(tags: tags, directory: scratch)
var sessionLoopMilliseconds = 0.0
do {
    let baseline = try await benchmark.sessionLoop()
    let job = try await benchmark.job()
    let journal = try benchmark.journalOnly()
    let runs = [baseline, job, journal]
    sessionLoopMilliseconds = baseline.millisecondsPerTag
    #if DEBUG
        let build = "DEBUG build: figures not representative"
    #else
        let build = "release build"
    #endif
    print("Batch provisioning, \(tags) simulated NTAG215 (no reader latency), \(build)")
    print(
        Statistics.pad("", 32) + Statistics.pad("ms/tag", 10) + Statistics.pad("RSS 10%", 12)
            + Statistics.pad("RSS 100%", 12) + Statistics.pad("KiB/1000 tags", 15))
    var tsv = "run\ttags\tms_per_tag\trss_first_kib\trss_last_kib\tgrowth_kib_per_1000\n"
    for run in runs {
        let first = run.memory.first ?? 0
        let last = run.memory.last ?? 0
        print(
            Statistics.pad(run.name, 32, left: true)
                + Statistics.pad(Statistics.formatMilliseconds(run.millisecondsPerTag), 10)
                + Statistics.pad("\(first) KiB", 12) + Statistics.pad("\(last) KiB", 12)
                + Statistics.pad(String(Int(run.growthPerThousand.rounded())), 15))
        tsv += "\(run.name)\t\(run.tags)\t\(run.millisecondsPerTag)\t\(first)\t\(last)\t\(run.growthPerThousand)\n"
    }
    let overhead = job.millisecondsPerTag - baseline.millisecondsPerTag
    print(
        "Job overhead per tag: \(Statistics.formatMilliseconds(overhead)) (target < 5 ms), of which the journal "
            + "(2 fsyncs per tag) about \(Statistics.formatMilliseconds(journal.millisecondsPerTag))")
    if let tsvPath, !Platform.write(Array(tsv.utf8), to: tsvPath) {
        Platform.printError("ProvisioningBenchmarks: cannot write \(tsvPath)")
    }
} catch {
    Platform.printError("ProvisioningBenchmarks: \(error)")
    Platform.exit(1)
}

if let databaseURL {
    do {
        try await StationsBenchmark.report(
            tags: tags, directory: scratch, databaseURL: databaseURL, sessionLoopMilliseconds: sessionLoopMilliseconds,
            tsvPath: stationsTSVPath)
    } catch {
        Platform.printError("ProvisioningBenchmarks: stations: \(error)")
        Platform.exit(1)
    }
}
