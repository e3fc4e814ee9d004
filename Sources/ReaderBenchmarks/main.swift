// Tag commands and wall time of tag operations through the real reader stacks.
//
//   ReaderBenchmarks [--only pcsc|libnfc] [--quick] [--iterations N] [--tsv FILE]
//                    [--reader NAME] [--port PORT]
//                    [--nfcpy-python PATH --nfcpy-script PATH] [--ndeftool PATH] [--scratch DIR]
//
// pcsc: needs a running pcscd with a vpcd reader (Scripts/bench starts a private one as root).
// For each PC/SC profile it serves a simulated NTAG215 on the vpcd port (default 35963, reader
// "Virtual PCD 00 00") and measures, on a factory tag each iteration: a session with
// identification, writeNDEF of a 100-byte URI message with its read-back, readNDEF, readMemory
// of all 135 pages, and the per-APDU floor (GET DATA answered by the card bridge); then on a
// simulated MIFARE Classic 1K: session, format (AN1304), writeNDEF and readNDEF of the same message.
// libnfc: write + verify of the same message through a simulated PN532 on a pseudo-terminal and
// libnfc's pn532_uart driver, next to nfcpy 1.0.4 (--nfcpy-python, --nfcpy-script:
// Scripts/lib/nfcpy-tag.py) through the same simulated PN532, and `ndeftool write` as a process
// (--ndeftool). --tsv writes the figures as tab-separated lines; --quick runs few iterations.

import BenchmarkSupport
import NFCSession
import PCSCReader

var tsvPath: String?
var only: String?
var quick = false
var iterations: Int?
var readerName = "Virtual PCD 00 00"
var port: UInt16 = 35963
var nfcpyPython: String?
var nfcpyScript: String?
var ndeftool: String?
var scratch = "/tmp"
var arguments = CommandLine.arguments.dropFirst()

/// The value after `option`, or a failure.
@MainActor func value(_ option: String) -> String {
    guard let value = arguments.popFirst(), !value.isEmpty else { fail("\(option) needs a value") }
    return value
}

/// Prints `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    Platform.printError("ReaderBenchmarks: \(message)")
    Platform.exit(1)
}

while let argument = arguments.popFirst() {
    switch argument {
    case "--tsv": tsvPath = value(argument)
    case "--only":
        let section = value(argument)
        guard ["pcsc", "libnfc"].contains(section) else { fail("--only takes pcsc or libnfc") }
        only = section
    case "--quick": quick = true
    case "--iterations":
        guard let count = Int(value(argument)), count > 0 else { fail("--iterations needs a positive number") }
        iterations = count
    case "--reader": readerName = value(argument)
    case "--port":
        guard let number = UInt16(value(argument)), number > 0 else { fail("--port needs a TCP port number") }
        port = number
    case "--nfcpy-python": nfcpyPython = value(argument)
    case "--nfcpy-script": nfcpyScript = value(argument)
    case "--ndeftool": ndeftool = value(argument)
    case "--scratch": scratch = value(argument)
    default:
        fail(
            "unknown argument \(argument); usage: ReaderBenchmarks [--only pcsc|libnfc] [--quick] [--iterations N] "
                + "[--tsv FILE] [--reader NAME] [--port PORT] [--nfcpy-python PATH --nfcpy-script PATH] "
                + "[--ndeftool PATH] [--scratch DIR]")
    }
}
if (nfcpyPython == nil) != (nfcpyScript == nil) { fail("--nfcpy-python and --nfcpy-script go together") }

var tsv = ""

if only == nil || only == "pcsc" {
    do {
        let names = try await PCSCReaders.names()
        guard names.contains(readerName) else {
            fail("pcscd has no reader \"\(readerName)\" (it lists: \(names.joined(separator: ", ")))")
        }
    } catch {
        fail("\(error.reason) (Scripts/bench starts a private pcscd with vpcd readers when run as root)")
    }
    let count = iterations ?? (quick ? 3 : 25)
    let floorSamples = quick ? 50 : 1000
    let benchmark = PCSCBenchmark(readerName: readerName, port: port, iterations: count, floorSamples: floorSamples)
    var outcomes: [PCSCBenchmark.Outcome] = []
    for card in PCSCBenchmark.Card.allCases {
        for profile in PCSCBenchmark.Profile.all {
            do {
                outcomes.append(try await benchmark.run(profile, card: card))
            } catch {
                fail("profile \(profile.backend.rawValue), \(card.rawValue): \(error.description)")
            }
        }
    }
    let report = PCSCBenchmarkReport(
        outcomes: outcomes, iterations: count, floorSamples: floorSamples, readerName: readerName)
    print(report.table)
    tsv += report.tsv
}

if only == nil || only == "libnfc" {
    if only == nil { print("") }
    let count = iterations ?? (quick ? 3 : 15)
    let nfcpy = nfcpyPython.flatMap { python in nfcpyScript.map { (python: python, script: $0) } }
    let benchmark = LibNFCBenchmark(iterations: count, nfcpy: nfcpy, ndeftool: ndeftool, directory: scratch)
    do {
        let ours = try await benchmark.runOurs()
        let theirs = try await benchmark.runNfcpy()
        let command = try await benchmark.runOurCommand()
        let report = LibNFCBenchmarkReport(ours: ours, nfcpy: theirs, ourCommand: command, iterations: count)
        print(report.table)
        tsv += report.tsv
    } catch {
        fail(error.description)
    }
}

if let tsvPath {
    guard Platform.write(Array(tsv.utf8), to: tsvPath) else { fail("cannot write \(tsvPath)") }
}
