import Foundation
import TestSupport
import Testing

/// ndeftool against implementations that are not ours, through one simulated PN532 (`ndeftool sim
/// serve --pn532`) and libnfc's real `pn532_uart` driver: nfcpy 1.0.4 reads what `ndeftool write`
/// wrote and `ndeftool read` reads what nfcpy wrote; libnfc's `nfc-mfultralight r` dumps the
/// pages `ndeftool write` wrote, byte for byte as NFC Forum Type 2 Tag 1.1 (2.3, 2.4) lays them
/// out. Runs when Scripts/test installed nfcpy (NDEFTOOL_NFCPY_PYTHON) and libnfc's tools are
/// there; skipped otherwise, saying why.
@Suite(.enabled(if: CrossCheckTools.isAvailable, CrossCheckTools.skipNote), .timeLimit(.minutes(5)))
struct NfcpyCrossCheckTests {
    /// A served PN532 with a factory NTAG215, and the reader URL and environment to reach it.
    struct Bench {
        let directory: TemporaryDirectory
        let link: String
        let server: ServeProcess
        var reader: String { "libnfc:pn532_uart:\(link)" }
        var environment: [String: String] {
            ["NDEFTOOL_READER": "", "XDG_CONFIG_HOME": directory.path("config"), "LIBNFC_AUTO_SCAN": "false"]
        }

        init() async throws {
            directory = try TemporaryDirectory("cli")
            link = directory.path("pn532")
            server = try ServeProcess(["sim", "serve", "--pn532", link, "sim:ntag215"])
            #expect(await server.waitForError(containing: "Press Ctrl-C"))
        }

        func stop() async throws {
            server.terminate()
            #expect(try await server.waitForExit() == 0)
        }

        /// nfcpy-tag.py's JSON answer to `arguments` (after the link), or nil when it failed.
        /// (The script waits for the served PN532 however busy the machine is: its
        /// HOST_WAIT_FLOOR_MS.)
        func nfcpy(_ arguments: [String]) async throws -> [String: Any]? {
            let python = URL(fileURLWithPath: try #require(CrossCheckTools.python))
            let result = try await BinaryRunner.run(
                [CrossCheckTools.script, link] + arguments, environment: environment, program: python)
            #expect(result.status == 0, "nfcpy-tag.py: \(result.error)")
            return try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any]
        }
    }

    /// The message bytes `ndeftool encode` makes of `records`, as hex.
    static func encoded(_ records: [String]) async throws -> String {
        let result = try await BinaryRunner.run(["encode"] + records + ["--hex"])
        #expect(result.status == 0, "\(result.error)")
        return result.outputText.filter(\.isHexDigit).lowercased()
    }

    @Test("nfcpy reads what ndeftool wrote; nfc-mfultralight dumps the TLV ndeftool wrote at page 4")
    func nfcpyReadsOurs() async throws {
        let bench = try await Bench()
        let records = ["uri", "https://example.com/" + String(repeating: "x", count: 70)]
        let message = try await Self.encoded(records)
        let write = try await BinaryRunner.run(
            ["write"] + records + ["--reader", bench.reader, "--wait", "5"], environment: bench.environment)
        #expect(write.status == 0, "\(write.error)")
        let read = try await bench.nfcpy(["read"])
        #expect(read?["message"] as? String == message)

        let dumpPath = bench.directory.path("dump.mfd")
        var environment = bench.environment
        environment["LIBNFC_DEVICE"] = "pn532_uart:\(bench.link)"
        // libnfc waits a fixed time for each answer (made for a chip); a busy machine may
        // schedule the served PN532 later. The dump only reads: a failed one is run again.
        let mfultralight = URL(fileURLWithPath: try #require(CrossCheckTools.mfultralight))
        var dump = try await BinaryRunner.run(["r", dumpPath], environment: environment, program: mfultralight)
        for _ in 1..<3 where dump.status != 0 || dump.outputText.contains("unable to read") {
            print("nfc-mfultralight failed, run again: \(dump.outputText) \(dump.error)")
            dump = try await BinaryRunner.run(["r", dumpPath], environment: environment, program: mfultralight)
        }
        #expect(dump.status == 0, "\(dump.outputText) \(dump.error)")
        let pages = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dumpPath)))
        #expect(pages.count == 135 * 4)
        // T2T 1.1: CC E1 10 3E 00 at page 3 (NTAG215: 496 bytes), then at page 4 the NDEF
        // Message TLV (03, length, message) and the Terminator TLV FE.
        let bytes = hex(message)
        #expect(Array(pages[12..<16]) == [0xE1, 0x10, 0x3E, 0x00])
        let tlv = [0x03, UInt8(bytes.count)] + bytes + [0xFE]
        #expect(Array(pages[16..<(16 + tlv.count)]) == tlv)
        try await bench.stop()
    }

    @Test("nfcpy-tag.py waits for a PN532 that answers late: the server halted well past nfcpy's 100 ms")
    func latePN532IsWaitedFor() async throws {
        let bench = try await Bench()
        bench.server.send(SIGSTOP)
        #expect(await eventually { bench.server.child.isStopped }, "the server did not halt")
        async let reading = bench.nfcpy(["read"])
        // nfcpy sends its first frame into a PN532 that cannot answer; a second later the
        // server goes on. nfcpy's own 100 ms would have ended it with ENODEV or EIO.
        try await Task.sleep(for: .seconds(1))
        bench.server.send(SIGCONT)
        let read = try await reading
        #expect(read?["message"] as? String == "", "a factory NTAG215 holds an empty NDEF message")
        try await bench.stop()
    }

    @Test("ndeftool reads what nfcpy wrote")
    func weReadNfcpys() async throws {
        let bench = try await Bench()
        let message = try await Self.encoded([
            "text", "written by nfcpy 1.0.4, read by ndeftool", "uri", "https://nfcpy.org",
        ])
        let written = try await bench.nfcpy(["write", message])
        #expect(written?["message"] as? String == message)
        let read = try await BinaryRunner.run(
            ["read", "--reader", bench.reader, "--hex", "--wait", "5"], environment: bench.environment)
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.filter(\.isHexDigit).lowercased() == message)
        try await bench.stop()
    }
}

/// Where the cross-check tools are, and why the checks are skipped when they are not.
enum CrossCheckTools {
    static let environment = ProcessInfo.processInfo.environment
    /// The Python with nfcpy 1.0.4 (Scripts/lib/nfcpy.sh).
    static let python = environment["NDEFTOOL_NFCPY_PYTHON"]
    /// libnfc's nfc-mfultralight.
    static let mfultralight = ["/usr/bin/nfc-mfultralight", "/usr/local/bin/nfc-mfultralight"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Scripts/lib/nfcpy-tag.py.
    static let script = PackagePaths.root.appendingPathComponent("Scripts/lib/nfcpy-tag.py").path

    static var isAvailable: Bool { python != nil && mfultralight != nil }

    static var skipNote: Comment {
        var reasons: [String] = []
        if python == nil {
            reasons.append(environment["NDEFTOOL_NFCPY_SKIPPED"] ?? "no nfcpy (NDEFTOOL_NFCPY_PYTHON unset)")
        }
        if mfultralight == nil { reasons.append("no nfc-mfultralight (Debian package libnfc-examples)") }
        return Comment(rawValue: "SKIPPED cross-checks with nfcpy and libnfc: " + reasons.joined(separator: "; "))
    }
}
