// How fast `sdm verify` checks NTAG 424 DNA URLs (secure unique messages, NT4H2421Gx 9.3).
//
//   SDMBenchmarks [--quick] [--ndeftool PATH [--database URL]]
//
// Makes URLs as a tag would (NTAG424SDMMirror over AN12196's layout, each with its own UID and
// counter, keys 1 and 2 non-zero), then measures, side by side:
// - the libcrypto floor: the AES-128 decryption and the two CMACs a check needs at least,
//   called directly (NFCCrypto), per URL;
// - NTAG424SUNURL + NTAG424SUNVerifier in process (what a Swift server links);
// - `ndeftool sdm verify -` with the URLs on standard input, one process for all, whole
//   (start-up included), when --ndeftool names the binary;
// - with --database, `ndeftool sdm verify --database URL -` (each URL's counter accepted by the
//   shared counter store, one statement per URL) with 1, 2 and 4 processes at once, each given
//   its share of the URLs, whole; then 4 processes with --accept-log. Each run keeps its counters
//   under a key set of its own, so every URL is new to the store.
// Every URL must verify; the rate is URLs per second, the median of several runs.

import Foundation
import NFCCrypto
import NTAG424

var quick = false
var ndeftool: String?
var database: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--ndeftool":
        guard let value = arguments.popFirst() else { fail("--ndeftool needs a path") }
        ndeftool = value
    case "--database":
        guard let value = arguments.popFirst() else { fail("--database needs a URL") }
        database = value
    default: fail("unknown argument \(argument); usage: SDMBenchmarks [--quick] [--ndeftool PATH [--database URL]]")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SDMBenchmarks: \(message)\n".utf8))
    exit(1)
}

let count = quick ? 2_000 : 20_000
let keys = (0..<5).map { number in (0..<16).map { UInt8(truncatingIfNeeded: $0 * 7 + number * 31 + 1) } }
let template: NTAG424SDMTemplate
do {
    template = try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}")
} catch {
    fail("\(error)")
}
guard let sdm = template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: true).sdm else { fail("no SDM") }
var file = template.file
file += [UInt8](repeating: 0, count: 256 - file.count)
var urls: [String] = []
urls.reserveCapacity(count)
for index in 0..<count {
    let uid: [UInt8] = [0x04] + (0..<6).map { UInt8(truncatingIfNeeded: (index >> ($0 * 3)) &* 37 &+ $0) }
    guard
        let read = try? NTAG424SDMMirror(settings: sdm, keys: keys).read(
            file: file, uid: uid, counter: index + 1, padding: [1, 2, 3, 4, 5])
    else { fail("the mirror failed") }
    urls.append("https://" + String(decoding: read[7..<template.file.count], as: UTF8.self))
}
guard let verifier = try? NTAG424SUNVerifier(metaReadKey: keys[1], fileReadKey: keys[2]) else { fail("verifier") }

/// The median URLs per second of `runs` passes of `work` over all URLs.
func rate(runs: Int, _ work: () -> Bool) -> Double {
    var rates: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var ok = true
        let elapsed = clock.measure { ok = work() }
        guard ok else { fail("a URL did not verify") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        rates.append(Double(count) / seconds)
    }
    return rates.sorted()[rates.count / 2]
}

let runs = quick ? 3 : 5
let floor = rate(runs: runs) {
    // At least: one AES block decrypted (PICCData), the session key's CMAC, the SDMMAC's CMAC.
    for _ in 0..<count {
        guard let cipher = try? AES(key: keys[1]), let plain = try? cipher.decrypt([UInt8](repeating: 9, count: 16)),
            let session = try? AESCMAC.authenticationCode(for: [UInt8](repeating: 3, count: 16), key: keys[2]),
            let mac = try? AESCMAC.authenticationCode(for: [UInt8](), key: session), plain.count + mac.count == 32
        else { return false }
    }
    return true
}
let inProcess = rate(runs: runs) {
    urls.allSatisfy { url in (try? NTAG424SUNURL(url).verify(with: verifier).isValid) == true }
}
print("sdm verify, \(count) URLs (AN12196 layout, own UID and counter each), URLs per second:")
print("  libcrypto floor (1 AES block + 2 CMAC per URL)  \(Int(floor))")
print(
    "  NTAG424SUNURL + NTAG424SUNVerifier, in process  \(Int(inProcess))  (\(Int(inProcess / floor * 100))% of the floor)"
)

if let ndeftool {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdm-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let meta = folder.appendingPathComponent("k1.hex").path
    let fileKey = folder.appendingPathComponent("k2.hex").path
    let hex = { (key: [UInt8]) in key.map { String(format: "%02X", $0) }.joined() + "\n" }
    _ = FileManager.default.createFile(atPath: meta, contents: Data(hex(keys[1]).utf8))
    _ = FileManager.default.createFile(atPath: fileKey, contents: Data(hex(keys[2]).utf8))
    let verify = ["sdm", "verify", "-", "--meta-read-key-file", meta, "--file-read-key-file", fileKey]
    let stdinRate = rate(runs: quick ? 1 : 3) { runVerifiers(ndeftool, verify, urls: urls, shares: 1, folder: folder) }
    print("  ndeftool sdm verify - (one process, stdin)      \(Int(stdinRate))")
    if let database {
        print("sdm verify --database (PostgreSQL on this machine, fsync off; one statement per URL), URLs per second:")
        var run = 0
        for (processes, log) in [(1, false), (2, false), (4, false), (4, true)] {
            let figure = rate(runs: quick ? 1 : 3) {
                run += 1
                var arguments = verify + ["--database", database, "--key-set", "bench-\(getpid())-\(run)"]
                if log { arguments.append("--accept-log") }
                return runVerifiers(ndeftool, arguments, urls: urls, shares: processes, folder: folder)
            }
            let label = "\(processes) process\(processes == 1 ? "" : "es")\(log ? ", --accept-log" : "")"
            print("  \(label.padding(toLength: 46, withPad: " ", startingAt: 0)) \(Int(figure))")
        }
    }
}

/// Runs `shares` processes of `ndeftool` with `arguments` at once, process *n* given every
/// URL of `urls` whose index is *n* modulo `shares` on standard input and writing to a file in `folder`
/// (a pipe nobody reads while another process is waited for would stall it); whether each
/// answered every one of its URLs `valid:` and ended with 0.
func runVerifiers(_ ndeftool: String, _ arguments: [String], urls: [String], shares: Int, folder: URL) -> Bool {
    var processes: [(process: Process, output: URL, expected: Int)] = []
    for share in 0..<shares {
        let mine = stride(from: share, to: urls.count, by: shares).map { urls[$0] }
        let output = folder.appendingPathComponent("out-\(share).txt")
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
            let outputHandle = try? FileHandle(forWritingTo: output)
        else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ndeftool)
        process.arguments = arguments
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = outputHandle
        do { try process.run() } catch { return false }
        try? outputHandle.close()
        let input = Data((mine.joined(separator: "\n") + "\n").utf8)
        Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }.start()
        processes.append((process, output, mine.count))
    }
    var ok = true
    for (process, output, expected) in processes {
        process.waitUntilExit()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        ok =
            ok && process.terminationStatus == 0 && lines.count == expected
            && lines.allSatisfy { $0.hasPrefix("valid: ") }
    }
    return ok
}
