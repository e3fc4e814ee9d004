// APDUs, tag commands and wall time of tag operations through the real reader stacks.
//
//   ReaderBenchmarks [--quick] [--iterations N] [--tsv FILE] [--reader NAME] [--port PORT]
//
// Needs a running pcscd with a vpcd reader (Scripts/bench --readers starts one). For each PC/SC
// profile it serves a simulated NTAG215 on the vpcd port (default 35963, reader "Virtual PCD 00
// 00") and measures, on a factory tag each iteration: a session with identification, writeNDEF
// of a 100-byte URI message with its read-back, readNDEF, and readMemory of all 135 pages; and
// the per-APDU floor (GET DATA answered by the card bridge). --tsv writes the figures as
// tab-separated lines; --quick runs few iterations (a smoke test).

import BenchmarkSupport
import NFCSession
import PCSCReader

var tsvPath: String?
var iterations = 25
var floorSamples = 1000
var readerName = "Virtual PCD 00 00"
var port: UInt16 = 35963
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--tsv":
        guard let value = arguments.popFirst() else { fail("--tsv needs a file") }
        tsvPath = value
    case "--quick":
        iterations = 3
        floorSamples = 50
    case "--iterations":
        guard let value = arguments.popFirst(), let count = Int(value), count > 0 else {
            fail("--iterations needs a positive number")
        }
        iterations = count
    case "--reader":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--reader needs a reader name") }
        readerName = value
    case "--port":
        guard let value = arguments.popFirst(), let number = UInt16(value), number > 0 else {
            fail("--port needs a TCP port number")
        }
        port = number
    default:
        fail(
            "unknown argument \(argument); usage: ReaderBenchmarks [--quick] [--iterations N] [--tsv FILE] "
                + "[--reader NAME] [--port PORT]")
    }
}

/// Prints `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    Platform.printError("ReaderBenchmarks: \(message)")
    Platform.exit(1)
}

do {
    let names = try await PCSCReaders.names()
    guard names.contains(readerName) else {
        fail("pcscd has no reader \"\(readerName)\" (it lists: \(names.joined(separator: ", ")))")
    }
} catch {
    fail("\(error.reason) (Scripts/bench --readers starts a private pcscd with vpcd readers)")
}

let benchmark = PCSCBenchmark(readerName: readerName, port: port, iterations: iterations, floorSamples: floorSamples)
var outcomes: [PCSCBenchmark.Outcome] = []
for profile in PCSCBenchmark.Profile.all {
    do {
        outcomes.append(try await benchmark.run(profile))
    } catch {
        fail("profile \(profile.backend.rawValue): \(error.description)")
    }
}
let report = PCSCBenchmarkReport(
    outcomes: outcomes, iterations: iterations, floorSamples: floorSamples, readerName: readerName)
print(report.table)
if let tsvPath {
    guard Platform.write(Array(report.tsv.utf8), to: tsvPath) else { fail("cannot write \(tsvPath)") }
}
