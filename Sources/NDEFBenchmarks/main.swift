// Decode and encode throughput of the NDEF codec on three messages.
//
//   NDEFBenchmarks [--output DIR] [--tsv FILE] [--quick]
//   NDEFBenchmarks --profile a|b|c[:raw|typed|message-typed|validate|iterate|encode] [--seconds N]
//
// Writes the three messages to DIR (default .build/bench) as a.ndef, b.ndef and c.ndef,
// prints a table of messages per second (median of 5 runs of at least 0.3 s each) and, with
// --tsv, also writes the figures as tab-separated lines for Scripts/bench. --quick shortens
// the runs for a smoke test. --profile runs one operation on one message for N seconds
// (default 5) and prints nothing else, for `perf record`.

import BenchmarkSupport
import HexText
import NDEF

var outputDirectory = ".build/bench"
var tsvPath: String?
var stopwatch = Stopwatch()
var profile: (name: String, operation: String)?
var profileSeconds = 5
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output":
        guard let value = arguments.popFirst() else { fail("--output needs a directory") }
        outputDirectory = value
    case "--tsv":
        guard let value = arguments.popFirst() else { fail("--tsv needs a file") }
        tsvPath = value
    case "--profile":
        guard let value = arguments.popFirst() else { fail("--profile needs a message name") }
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        profile = (parts[0], parts.count > 1 ? parts[1] : "typed")
    case "--seconds":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            fail("--seconds needs a positive whole number")
        }
        profileSeconds = value
    case "--quick":
        stopwatch.runLength = .milliseconds(20)
        stopwatch.runs = 3
    default:
        fail(
            "unknown argument \(argument); usage: NDEFBenchmarks [--output DIR] [--tsv FILE] [--quick] "
                + "| --profile a|b|c[:raw|typed|message-typed|validate|iterate|encode] [--seconds N]")
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

/// Decodes `bytes` and reads every record through its typed view, as ndeflib's decoder
/// does in one go: the number of records a view read.
func decodeTyped(_ bytes: [UInt8]) -> Int {
    guard let records = try? NDEFRecordSequence(decoding: bytes) else { return -1 }
    var count = 0
    for record in records {
        if case .some = try? record.view() { count += 1 }
    }
    return count
}

/// As ``decodeTyped(_:)``, but through a decoded ``NFCNDEFMessage`` (its records in an array).
func decodeMessageTyped(_ bytes: [UInt8]) -> Int {
    guard let decoded = try? NFCNDEFMessage(decoding: bytes) else { return -1 }
    var count = 0
    for record in decoded.records {
        if case .some = try? record.view() { count += 1 }
    }
    return count
}

if let profile {
    guard let benchmark = BenchmarkMessages.all.first(where: { $0.name == profile.name }),
        let bytes = try? benchmark.message.encoded()
    else { fail("--profile: no message \(profile.name) (a, b or c)") }
    let work: () -> Int
    switch profile.operation {
    case "raw": work = { (try? NFCNDEFMessage(decoding: bytes))?.records.count ?? -1 }
    case "typed": work = { decodeTyped(bytes) }
    case "message-typed": work = { decodeMessageTyped(bytes) }
    case "per-view":
        let records = (try? NFCNDEFMessage(decoding: bytes).records) ?? []
        for record in records {
            var one = Stopwatch()
            one.runLength = .milliseconds(300)
            one.runs = 3
            let rate = one.rate { if case .some = try? record.view() { return 1 } else { return 0 } }
            print(record.typeString ?? "-", Int(1e9 / rate), "ns")
        }
        Platform.exit(0)
    case let operation where operation.hasPrefix("view-"):
        let records = (try? NFCNDEFMessage(decoding: bytes).records) ?? []
        guard let index = Int(operation.dropFirst(5)), records.indices.contains(index) else {
            fail("--profile: no record \(operation.dropFirst(5)) in \(profile.name)")
        }
        let record = records[index]
        work = { if case .some = try? record.view() { return 1 } else { return 0 } }
    case "validate": work = { (try? NDEFRecordSequence(decoding: bytes)) == nil ? 0 : 1 }
    case "iterate":
        work = {
            guard let records = try? NDEFRecordSequence(decoding: bytes) else { return -1 }
            var count = 0
            for record in records { count += record.payload.count }
            return count
        }
    case "encode": work = { (try? benchmark.message.encoded())?.count ?? -1 }
    default:
        fail("--profile: no operation \(profile.operation) (raw, typed, message-typed, validate, iterate or encode)")
    }
    var profiler = Stopwatch()
    profiler.runLength = .seconds(profileSeconds)
    profiler.runs = 1
    print("\(profile.name):\(profile.operation): \(formatRate(profiler.rate(work))) per second")
    Platform.exit(0)
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
        fail("(a) encodes as \(Hex.encode(bytes)), not \(Hex.encode(BenchmarkMessages.expectedURIBytes))")
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
    // ... and so must the data of its typed view.
    if case .media(let media)? = try? record.view() {
        let dataBase = media.data.withUnsafeBufferPointer { $0.baseAddress }
        payloadShared = payloadShared && inputBase.map { $0 + media.data.startIndex } == dataBase
    } else {
        payloadShared = false
    }
}

let runSeconds =
    Double(stopwatch.runLength.components.attoseconds) / 1e18
    + Double(stopwatch.runLength.components.seconds)
print("NDEF codec, release build: messages per second, median of \(stopwatch.runs) runs of >= \(runSeconds) s each")
print(
    pad("message", 32, left: true) + pad("bytes", 8) + pad("decode msg/s", 16) + pad("+typed views", 16)
        + pad("typed, no array", 17) + pad("encode msg/s", 16))
for benchmark in BenchmarkMessages.all {
    let bytes = encodings[benchmark.name] ?? []
    let message = benchmark.message
    let decode = stopwatch.rate { (try? NFCNDEFMessage(decoding: bytes))?.records.count ?? -1 }
    // Decoding followed by reading every record through its typed view (Text, URI, ...), which
    // is what ndeflib's decoder does in one go: through NFCNDEFMessage, then through
    // NDEFRecordSequence (the same checks, no array of records).
    let messageTyped = stopwatch.rate { decodeMessageTyped(bytes) }
    let typed = stopwatch.rate { decodeTyped(bytes) }
    let encode = stopwatch.rate { (try? message.encoded())?.count ?? -1 }
    let label = "(\(benchmark.name)) \(benchmark.label)"
    print(
        pad(label, 32, left: true) + pad("\(bytes.count)", 8) + pad(formatRate(decode), 16)
            + pad(formatRate(messageTyped), 16) + pad(formatRate(typed), 17) + pad(formatRate(encode), 16))
    tsv += [
        "label\t\(benchmark.name)\t\(label)",
        "size\t\(benchmark.name)\t\(bytes.count)",
        "decode\t\(benchmark.name)\t\(decode)",
        "decode-message-typed\t\(benchmark.name)\t\(messageTyped)",
        "decode-typed\t\(benchmark.name)\t\(typed)",
        "encode\t\(benchmark.name)\t\(encode)",
    ]
}
let copyNote =
    payloadShared
    ? "yes: the 65536-byte payload and its MediaRecord's data are slices of the input buffer, not copies"
    : "NO: the decoded payload or its typed view does not share storage with the input (it was copied)"
print("(c) decode and typed view share payload storage with the input: \(copyNote)")
tsv.append("payload-shared\tc\t\(payloadShared ? "yes" : "no")")
print("inputs written to \(outputDirectory)/{a,b,c}.ndef")

if let tsvPath {
    guard Platform.write(Array(tsv.joined(separator: "\n").utf8) + [0x0A], to: tsvPath) else {
        fail("cannot write \(tsvPath)")
    }
}
if !payloadShared { Platform.exit(1) }
