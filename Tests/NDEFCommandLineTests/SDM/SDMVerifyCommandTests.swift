import Foundation
import SystemSupport
import TestSupport
import Testing

/// `ndeftool sdm verify` through the built binary: AN12196's URLs and sdm-backend's, changed
/// ones, replays, key files, many URLs on standard input, and its help.
@Suite struct SDMVerifyCommandTests {
    static let url = "https://x.test/?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086"

    /// A folder with the zero key as hex text (`zero.hex`) and as 16 raw bytes (`zero.bin`).
    static func keys() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("sdm")
        _ = try folder.file("zero.hex", text: String(repeating: "0", count: 32) + "\n")
        _ = try folder.file("zero.bin", [UInt8](repeating: 0, count: 16))
        _ = try folder.file("other.hex", text: String(repeating: "0", count: 31) + "1")
        _ = try folder.file("bad.hex", text: "not a key")
        return folder
    }

    func run(_ arguments: [String], in folder: TemporaryDirectory, input: [UInt8] = []) async throws -> RunResult {
        try await BinaryRunner.run(
            ["sdm", "verify"] + arguments.map { $0.hasSuffix(".hex") || $0.hasSuffix(".bin") ? folder.path($0) : $0 },
            input: input)
    }

    @Test("AN12196's URL verifies with zero keys (hex or raw key files): UID 04DE5F1EACC040, counter 61")
    func valid() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let text = try await run(
            [Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.bin"], in: folder)
        #expect(text.status == 0 && text.outputText == "valid: UID 04DE5F1EACC040, counter 61\n", "\(text.error)")
        let json = try await run(
            [Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex", "--json"], in: folder)
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "sdm-verify.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["uid"] as? String == "04DE5F1EACC040" && object["counter"] as? Int == 61)
        #expect(object["valid"] as? Bool == true)
    }

    @Test("Refused with 83: one changed character, another key, a replayed counter; usage and key file errors")
    func refused() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let changed = Self.url.replacingOccurrences(of: "7086", with: "7087")
        for (arguments, status) in [
            ([changed, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex"], Int32(83)),
            ([Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "other.hex"], 83),
            ([Self.url, "--meta-read-key-file", "other.hex", "--file-read-key-file", "zero.hex"], 83),
            (
                [
                    Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex", "--last-counter",
                    "61",
                ], 83
            ),
            ([Self.url, "--meta-read-key-file", "zero.hex"], 64),
            ([Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "bad.hex"], 65),
            ([Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "missing.hex"], 66),
        ] {
            let result = try await run(arguments, in: folder)
            #expect(result.status == status, "\(arguments): \(result.outputText)\(result.error)")
        }
        let replay = try await run(
            [Self.url, "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex", "--last-counter", "61"],
            in: folder)
        #expect(replay.outputText.hasPrefix("NOT VALID: replayed: counter 61"), "\(replay.outputText)")
    }

    @Test("- reads URLs from standard input, one answer line each, in order; 83 when one is not valid")
    func standardInput() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let lines = [
            Self.url, String(repeating: "a", count: 100_000),
            "https://x/?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3", "",
            "https://x/?uid=041E3C8A2D6B80&ctr=000006&cmac=AB00064004B0B3AB", "not a url",
        ]
        let result = try await run(
            ["-", "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex", "--json"], in: folder,
            input: Array(lines.joined(separator: "\n").utf8))
        #expect(result.status == 83)
        let output = result.outputText.split(separator: "\n")
        let answers = output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(answers.count == 5 && answers[1]["problem"] as? String == "a line of more than 8192 bytes")
        #expect(answers.map { $0["valid"] as? Bool } == [true, false, true, false, false])
        #expect(answers.map { $0["counter"] as? Int } == [61, nil, 6, 6, nil])
        var validator = JSONSchemaValidator()
        for line in output { #expect(try validator.problems(String(line), schema: "sdm-verify.schema.json").isEmpty) }
    }

    @Test("- answers each line while standard input stays open: a server can keep one process")
    func answersAsLinesArrive() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let fifo = folder.path("urls.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open for writing before the child starts: its open for reading returns at once
        // (Linux opens a FIFO O_RDWR without waiting), and closing it is the end of input.
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        let program = try #require(BinaryRunner.executable)
        let child = try ChildProcess(
            program, ["sdm", "verify", "-", "--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex"],
            directory: folder.url, input: .file(fifo))
        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
        }
        send(Self.url)
        #expect(await child.waitForOutput { output, _ in output.contains("valid: UID 04DE5F1EACC040, counter 61\n") })
        send(String(Self.url.dropLast()) + "7")
        #expect(await child.waitForOutput { output, _ in output.contains("NOT VALID:") })
        #expect(child.isRunning, "the process waits for more lines")
        close(writer)
        #expect(await child.exit(within: .seconds(60)))
        let end = await child.exit()
        #expect(end.status == 83 && !end.signalled)
    }

    /// sdm-backend's published AES demo URL with encrypted file data (all-zero keys).
    static let fileDataURL =
        "https://sdm.nfcdeveloper.com/tagpt?picc_data=FDD387BF32A33A7C40CF259675B3A1E2"
        + "&enc=EA050C282D8E9043E28F7A171464D697&cmac=758110182134ECE9"

    @Test("sdm-backend's AES demo with encrypted file data: UID 0469879A226880, counter 2, file data CC and 14 dashes")
    func encryptedFileData() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let keys = ["--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex"]
        let text = try await run(keys + [Self.fileDataURL], in: folder)
        #expect(text.status == 0, "\(text.error)")
        #expect(
            text.outputText == "valid: UID 0469879A226880, counter 2, file data \"CC--------------\"\n",
            "\(text.outputText)")
        let json = try await run(keys + ["--json", Self.fileDataURL], in: folder)
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "sdm-verify.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["fileDataHex"] as? String == "4343" + String(repeating: "2D", count: 14))
        #expect(object["fileData"] as? String == "CC" + String(repeating: "-", count: 14))
        #expect(object["uid"] as? String == "0469879A226880" && object["counter"] as? Int == 2)
        // AN12196's URL with encrypted file data: sixteen x.
        let an12196 = try await run(
            keys + [
                "--json",
                "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40"
                    + "&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6",
            ], in: folder)
        #expect(an12196.outputText.contains("\"fileData\":\"xxxxxxxxxxxxxxxx\""), "\(an12196.outputText)")
        // Another name for the parameter; a changed block: the SDMMAC fails, nothing is decrypted.
        let renamed = try await run(
            keys + ["--enc-param", "d", Self.fileDataURL.replacingOccurrences(of: "&enc=", with: "&d=")], in: folder)
        #expect(renamed.outputText.hasSuffix(", file data \"CC--------------\"\n"), "\(renamed.outputText)")
        let changed = try await run(
            keys + ["--json", Self.fileDataURL.replacingOccurrences(of: "enc=EA05", with: "enc=EA06")], in: folder)
        #expect(changed.status == 83, "\(changed.outputText)")
        #expect(changed.outputText.contains("\"fileDataHex\":null"), "\(changed.outputText)")
        let short = try await run(
            keys + [Self.fileDataURL.replacingOccurrences(of: "D697&cmac", with: "&cmac")], in: folder)
        #expect(short.status == 83 && short.outputText.contains("whole AES blocks"), "\(short.outputText)")
    }

    /// sdm-backend's published LRP demo URLs (all-zero keys): (a) PICCData and SDMMAC, (c) with
    /// encrypted file data.
    static let lrpURL =
        "https://sdm.nfcdeveloper.com/tag?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F"
        + "&cmac=4231608BA7B02BA9"
    static let lrpFileDataURL =
        "https://sdm.nfcdeveloper.com/tagpt?picc_data=8EE8E27DE3974FFE245F96C71087129B2E8449C9FF346F65"
        + "&enc=48987A0D55638C017D1F4DC3D8ADD910&cmac=862E781E52244A75"

    @Test("sdm-backend's LRP demos: UID 04940E2A2F7080 with counter 3, and counter 1 with file data OO and 14 dashes")
    func lrpDemos() async throws {
        let folder = try Self.keys()
        defer { folder.remove() }
        let keys = ["--meta-read-key-file", "zero.hex", "--file-read-key-file", "zero.hex"]
        let plain = try await run(keys + [Self.lrpURL], in: folder)
        #expect(
            plain.status == 0 && plain.outputText == "valid: UID 04940E2A2F7080, counter 3\n", "\(plain.outputText)")
        let withData = try await run(keys + [Self.lrpFileDataURL], in: folder)
        #expect(
            withData.status == 0
                && withData.outputText == "valid: UID 04940E2A2F7080, counter 1, file data \"OO--------------\"\n",
            "\(withData.outputText)")
        let json = try await run(keys + ["--json", Self.lrpFileDataURL], in: folder)
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "sdm-verify.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["mode"] as? String == "LRP" && object["macInput"] as? String == "from enc")
        #expect(object["fileDataHex"] as? String == "4F4F" + String(repeating: "2D", count: 14))
        let aes = try await run(keys + ["--json", Self.fileDataURL], in: folder)
        #expect(aes.outputText.contains("\"mode\":\"AES\""), "\(aes.outputText)")
        // One changed digit in each part: the MAC, the PICCRand, the ciphertext, the file data.
        for (from, to) in [("22C5F&", "22C5E&"), ("picc_data=1F", "picc_data=1E"), ("cmac=4231", "cmac=4331")] {
            let changed = try await run(keys + [Self.lrpURL.replacingOccurrences(of: from, with: to)], in: folder)
            #expect(
                changed.status == 83 && changed.outputText.hasPrefix("NOT VALID:"), "\(from): \(changed.outputText)")
        }
        let changedData = try await run(
            keys + ["--json", Self.lrpFileDataURL.replacingOccurrences(of: "enc=4898", with: "enc=4899")], in: folder)
        #expect(changedData.status == 83 && changedData.outputText.contains("\"fileDataHex\":null"))
        // PICCData of neither length names both.
        let odd = try await run(
            keys + [Self.lrpURL.replacingOccurrences(of: "22C5F&", with: "22C5F00&")], in: folder)
        #expect(odd.status == 83 && odd.outputText.contains("32 hex characters (AES) or 48 (LRP)"), "\(odd.outputText)")
    }
}
