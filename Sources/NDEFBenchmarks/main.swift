// Decode and encode throughput of the NDEF codec on three messages.
//
//   NDEFBenchmarks [--output DIR] [--tsv FILE] [--quick]
//
// Writes the three messages to DIR (default .build/bench) as a.ndef, b.ndef and c.ndef,
// prints a table of messages per second (median of 5 runs of at least 0.3 s each) and, with
// --tsv, also writes the figures as tab-separated lines for Scripts/bench. --quick shortens
// the runs for a smoke test.

import BenchmarkSupport
import NDEF

var outputDirectory = ".build/bench"
var tsvPath: String?
var stopwatch = Stopwatch()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output":
        guard let value = arguments.popFirst() else { fail("--output needs a directory") }
        outputDirectory = value
    case "--tsv":
        guard let value = arguments.popFirst() else { fail("--tsv needs a file") }
        tsvPath = value
    case "--quick":
        stopwatch.runLength = .milliseconds(20)
        stopwatch.runs = 3
    default:
        fail("unknown argument \(argument); usage: NDEFBenchmarks [--output DIR] [--tsv FILE] [--quick]")
    }
}

/// Prints `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    Platform.printError("NDEFBenchmarks: \(message)")
    Platform.exit(1)
}

/// `value` with thousands separators and no decimals, or one decimal below 100.
func formatRate(_ value: Double) -> String {
    if value < 100 {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
    let digits = Array(String(Int(value.rounded())))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return out
}

/// `text` padded with spaces to `width`, on the right (`left`) or the left.
func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + fill : fill + text
}

var tsv: [String] = []
var encodings: [String: [UInt8]] = [:]
guard Platform.makeDirectory(outputDirectory) else { fail("cannot create directory \(outputDirectory)") }
for benchmark in BenchmarkMessages.all {
    let bytes: [UInt8]
    do {
        bytes = try benchmark.message.encoded()
        guard try NFCNDEFMessage(decoding: bytes) == benchmark.message else {
            fail("(\(benchmark.name)) does not decode to the message it was encoded from")
        }
    } catch {
        fail("(\(benchmark.name)) cannot be encoded and decoded: \(error)")
    }
    if benchmark.name == "a" && bytes != BenchmarkMessages.expectedURIBytes {
        fail("(a) encodes as \(NDEFHex.encode(bytes)), not \(NDEFHex.encode(BenchmarkMessages.expectedURIBytes))")
    }
    let path = "\(outputDirectory)/\(benchmark.name).ndef"
    guard Platform.write(bytes, to: path) else { fail("cannot write \(path)") }
    encodings[benchmark.name] = bytes
}

// (c): a decoded record's payload must be a slice of the input, not a copy.
var payloadShared = false
if let bytes = encodings["c"], let record = try? NFCNDEFMessage(decoding: bytes).records.first {
    let inputBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
    let payloadBase = record.payload.withUnsafeBufferPointer { $0.baseAddress }
    payloadShared = inputBase.map { $0 + record.payload.startIndex } == payloadBase
}

let runSeconds =
    Double(stopwatch.runLength.components.attoseconds) / 1e18
    + Double(stopwatch.runLength.components.seconds)
print("NDEF codec, release build: messages per second, median of \(stopwatch.runs) runs of >= \(runSeconds) s each")
print(
    pad("message", 32, left: true) + pad("bytes", 8) + pad("decode msg/s", 16) + pad("+typed views", 16)
        + pad("encode msg/s", 16))
for benchmark in BenchmarkMessages.all {
    let bytes = encodings[benchmark.name] ?? []
    let message = benchmark.message
    let decode = stopwatch.rate { (try? NFCNDEFMessage(decoding: bytes))?.records.count ?? -1 }
    // Decoding followed by reading every record through its typed view (Text, URI, ...), which
    // is what ndeflib's decoder does in one go.
    let decodeTyped = stopwatch.rate {
        guard let decoded = try? NFCNDEFMessage(decoding: bytes) else { return -1 }
        return decoded.records.reduce(0) { count, record in count + ((try? record.interpreted()) == nil ? 0 : 1) }
    }
    let encode = stopwatch.rate { (try? message.encoded())?.count ?? -1 }
    let label = "(\(benchmark.name)) \(benchmark.label)"
    print(
        pad(label, 32, left: true) + pad("\(bytes.count)", 8) + pad(formatRate(decode), 16)
            + pad(formatRate(decodeTyped), 16) + pad(formatRate(encode), 16))
    tsv += [
        "label\t\(benchmark.name)\t\(label)",
        "size\t\(benchmark.name)\t\(bytes.count)",
        "decode\t\(benchmark.name)\t\(decode)",
        "decode-typed\t\(benchmark.name)\t\(decodeTyped)",
        "encode\t\(benchmark.name)\t\(encode)",
    ]
}
let copyNote =
    payloadShared
    ? "yes: the 65536-byte payload is a slice of the input buffer, not a copy"
    : "NO: the decoded payload does not share storage with the input (it was copied)"
print("(c) decode shares payload storage with the input: \(copyNote)")
tsv.append("payload-shared\tc\t\(payloadShared ? "yes" : "no")")
print("inputs written to \(outputDirectory)/{a,b,c}.ndef")

if let tsvPath {
    guard Platform.write(Array(tsv.joined(separator: "\n").utf8) + [0x0A], to: tsvPath) else {
        fail("cannot write \(tsvPath)")
    }
}
if !payloadShared { Platform.exit(1) }
