// Commands and wall time of tag operations through the simulated reader.
//
//   TagBenchmarks [--quick] [--tsv FILE] [--latency-ms N[,N...]] [--iterations N] [--only ID]
//
// Each operation runs on a fresh simulated tag (SimulatedReader, `sim:` URLs), first without
// latency, then with each `--latency-ms` value (default 3) standing for a reader's round trip per
// command. It prints the commands the tag received by kind and in sequence, their total, the
// theoretical minimum (MinimumBudgets) and nfcpy 1.0.4's count derived from its source
// (NfcpyReference), and the median wall time of the operation in process. --tsv also writes the
// figures as tab-separated lines for Scripts/bench; --quick runs few iterations (a smoke test).

import BenchmarkSupport
import TagMemory

var tsvPath: String?
var quick = false
var latencies = [3]
var iterations: Int?
var only: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--tsv":
        guard let value = arguments.popFirst() else { fail("--tsv needs a file") }
        tsvPath = value
    case "--quick":
        quick = true
    case "--latency-ms":
        guard let value = arguments.popFirst() else { fail("--latency-ms needs milliseconds") }
        let parsed = value.split(separator: ",").map { Int($0) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) > 0 }) else {
            fail("--latency-ms takes positive whole milliseconds, comma-separated")
        }
        latencies = parsed.compactMap { $0 }
    case "--iterations":
        guard let value = arguments.popFirst(), let count = Int(value), count > 0 else {
            fail("--iterations needs a positive number")
        }
        iterations = count
    case "--only":
        guard let value = arguments.popFirst() else { fail("--only needs an operation id") }
        only = value
    default:
        fail(
            "unknown argument \(argument); usage: TagBenchmarks [--quick] [--tsv FILE] [--latency-ms N[,N...]] "
                + "[--iterations N] [--only ID]")
    }
}

/// Prints `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    Platform.printError("TagBenchmarks: \(message)")
    Platform.exit(1)
}

let benchmarks = (TagBenchmark.type2 + TagBenchmark.type4 + TagBenchmark.ntag424 + TagBenchmark.classic).filter {
    only == nil || $0.id == only
}
if benchmarks.isEmpty { fail("no operation has the id \(only ?? "")") }
for benchmark in benchmarks where benchmark.reference?.note == "no NDEF TLV" {
    fail("\(benchmark.id): the nfcpy model finds no NDEF TLV")
}
let factoryWrite = NfcpyReference.modelledFactoryWrite(
    image: TagBenchmark.image(holding: nil, chip: .ntag215),
    message: TagBenchmark.bytes(BenchmarkMessages.uri(length: 100)))
if factoryWrite != NfcpyReference.handDerivedFactoryWrite {
    fail("the nfcpy model counts \(factoryWrite), the hand derivation \(NfcpyReference.handDerivedFactoryWrite)")
}
for length in [100, 400] where BenchmarkMessages.encodedLength(BenchmarkMessages.uri(length: length)) != length {
    fail("the \(length)-byte test message encodes to another length")
}

// Iterations: without latency an operation takes well under a millisecond; with latency it takes
// about (commands x latency).
let plainIterations = iterations ?? (quick ? 5 : 201)
let latencyIterations = iterations ?? (quick ? 1 : 15)

var rows: [BenchmarkReport.Row] = []
for benchmark in benchmarks {
    var medians: [(latency: Int, milliseconds: Double)] = []
    var tally: CommandTally?
    for latency in [0] + latencies {
        let runner = TagBenchmarkRunner(
            iterations: latency == 0 ? plainIterations : latencyIterations, latencyMilliseconds: latency)
        let measurement: TagBenchmarkRunner.Measurement
        do {
            measurement = try await runner.run(benchmark)
        } catch {
            fail(error.description)
        }
        if let tally, tally != measurement.tally {
            fail(
                "\(benchmark.id): with latency \(latency) ms the tag received \(measurement.tally.sequenceDescription)")
        }
        tally = measurement.tally
        medians.append((latency, measurement.medianMilliseconds))
    }
    if let tally { rows.append(BenchmarkReport.Row(benchmark: benchmark, tally: tally, medians: medians)) }
}

let report = BenchmarkReport(
    rows: rows, latencies: latencies, plainIterations: plainIterations, latencyIterations: latencyIterations)
print(report.table)
if let tsvPath {
    guard Platform.write(Array(report.tsv.utf8), to: tsvPath) else { fail("cannot write \(tsvPath)") }
}
