import Foundation
import HexText
import NDEF
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `ndeftool encode`, run in process; expected bytes derived from NDEF 1.0 and the RTDs.
@Suite struct EncodeCommandTests {
    /// Runs `encode ARGUMENTS --hex` and returns the hex printed.
    func hex(_ arguments: [String], input: [UInt8] = [], variables: [String: String] = [:]) async -> String {
        let result = await runInProcess(["encode", "--hex"] + arguments, input: input, variables: variables)
        #expect(result.status == 0, "\(arguments): \(result.error)")
        #expect(result.error.isEmpty)
        return result.outputText.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: [
        // MB|ME|SR + TNF 1, type "U", prefix 0x02 "https://www." + "proxmark.com" (URI RTD 1.0, 3.2.2).
        (["uri", "https://www.proxmark.com"], "d1010d550270726f786d61726b2e636f6d"),
        // Prefix 0x00: nothing abbreviated.
        (["uri", "mms://x"], "d1010855006d6d733a2f2f78"),
        // Text RTD 1.0: status 0x02 (UTF-8, 2-byte language), "en", "Hello".
        (["text", "Hello"], "d101085402656e48656c6c6f"),
        // Status 0x82: UTF-16 (big endian, no byte order mark), language "de".
        (["text", "Hello", "--utf16", "--lang", "de"], "d1010d5482646500480065006c006c006f"),
        // TNF 2 type "text/plain", payload "hi".
        (["mime", "text/plain", "hi"], "d20a02746578742f706c61696e6869"),
        (["mime", "a/b", "--data-hex", "01 02:03"], "d2030361" + "2f62010203"),
        // TNF 3: the URI is the type; empty payload (SR length 0).
        (["absolute", "https://a.b/c"], "d30d0068747470733a2f2f612e622f63"),
        // TNF 4 "example.com:t", payload 01 02 (the record's --hex; encode's --hex came first).
        (["external", "example.com:t", "--data-hex", "0102"], "d40d026578616d706c652e636f6d3a740102"),
        (["external", "example.com:t"], "d40d006578616d706c652e636f6d3a74"),
        // Android Application Record: TNF 4 "android.com:pkg", payload the package name.
        (
            ["aar", "com.example.app"],
            "d40f0f616e64726f69642e636f6d3a706b67636f6d2e6578616d706c652e617070"
        ),
        // IL flag (0x08) and ID "a": header 0xda, type length, payload length, ID length.
        (
            ["raw", "--tnf", "2", "--type", "text/plain", "--payload", "hi", "--id", "a"],
            "da0a0201746578742f706c61696e616869"
        ),
        // Two records: MB on the first (0x95: TNF 5, SR), ME on the second (0x51).
        (
            [
                "raw", "--tnf", "5", "--payload-hex", "0102", "raw", "--tnf", "1", "--type-hex", "55", "--payload-hex",
                "00",
            ],
            "95000201025101015500"
        ),
        // The two-record vector of nfc-facts section 8: "ABC" then "XYZ" with ID "0".
        (
            [
                "raw", "--tnf", "1", "--type", "ABC", "--payload-hex", "00", "raw", "--tnf", "1", "--type", "XYZ",
                "--id", "0", "--payload-hex", "ff",
            ],
            "910301414243005903010158595a30ff"
        ),
        // An empty record (TNF 0): the empty message.
        (["raw", "--tnf", "0"], "d00000"),
        (["uri", "https://www.proxmark.com", "--id-hex", "0a0b"], "d9010d02550a0b0270726f786d61726b2e636f6d"),
    ])
    func records(_ arguments: [String], expected: String) async {
        #expect(await hex(arguments) == expected)
    }

    @Test func chunking() async {
        // "hello" in chunks of 2: first chunk MB|CF|SR TNF 2 (0xb2) with the type, then TNF 6 chunks
        // without type: CF|SR (0x36) and ME|SR (0x56) (NDEF 1.0, 3.2.3).
        let expected = "b20302612f626865" + "3600026c6c" + "5600016f"
        #expect(
            await hex(["--chunk-size", "2", "raw", "--tnf", "2", "--type", "a/b", "--payload", "hello"]) == expected)
        #expect(await hex(["raw", "--tnf", "2", "--type", "a/b", "--payload", "hello", "--chunk-size=2"]) == expected)
    }

    @Test func smartPoster() async {
        // Smart Poster RTD 1.0: the URI, the title, then the action record "act" (2 = open).
        let uri = "91010c55046578616d706c652e636f6d"
        let title = "1101085402656e48656c6c6f"
        let action = "51030161637402"
        let payload = uri + title + action
        let expected = "d102" + String(format: "%02x", payload.count / 2) + "5370" + payload
        #expect(
            await hex(["smartposter", "https://example.com", "--title", "Hello@en", "--action", "open"]) == expected)
    }

    @Test func smartPosterIcon() async throws {
        let folder = try TemporaryDirectory("cli")
        let icon = try folder.file("icon.png", [0x89, 0x50, 0x4e, 0x47])
        let result = await runInProcess(["encode", "smartposter", "https://example.com", "--icon", icon, "--size", "4"])
        #expect(result.status == 0, "\(result.error)")
        let message = try NFCNDEFMessage(decoding: result.output)
        let poster = try SmartPosterRecord(parsing: try #require(message.records.first))
        #expect(poster.description.contains("https://example.com"))
        let nested = try NFCNDEFMessage(decoding: try #require(message.records.first).payload)
        #expect(nested.records.contains { $0.hasType(.media, "image/png") && $0.payload == [0x89, 0x50, 0x4e, 0x47] })
        #expect(nested.records.contains { $0.hasType(.nfcWellKnown, "s") && $0.payload == [0, 0, 0, 4] })
    }

    @Test func wifi() async throws {
        let folder = try TemporaryDirectory("cli")
        let keyFile = try folder.file("key", text: "pass1234\n")
        // Wi-Fi Simple Configuration 2.0: Version 1.0, then a Credential (0x100e) holding network
        // index 1, SSID, authentication WPA2-Personal (0x0020), encryption AES (0x0008), network key
        // and the broadcast MAC address, then the WFA vendor extension with Version2 2.0.
        let payload =
            "104a000110" + "100e0030" + "1026000101" + "104500054d794e6574" + "100300020020" + "100f00020008"
            + "102700087061737331323334" + "10200006ffffffffffff" + "1049000600372a000120"
        let type = Array("application/vnd.wfa.wsc".utf8)
        let expected = "d2" + String(format: "%02x%02x", type.count, payload.count / 2) + Hex.encode(type) + payload
        #expect(await hex(["wifi", "MyNet", "--key-file", keyFile]) == expected)
        #expect(await hex(["wifi", "MyNet", "--key-env", "WIFI_KEY"], variables: ["WIFI_KEY": "pass1234"]) == expected)
        #expect(await hex(["wifi", "MyNet", "--key-file", "-"], input: Array("pass1234\r\n".utf8)) == expected)
    }

    @Test func wifiWithoutKeyIsOpen() async throws {
        let result = await runInProcess(["encode", "wifi", "Cafe", "--mac", "00:0c:78:51:c4:06"])
        #expect(result.status == 0, "\(result.error)")
        let record = try #require(try NFCNDEFMessage(decoding: result.output).records.first)
        let description = try #require(try record.interpreted()).description
        #expect(description.contains("open"))
        #expect(description.contains("no key"))
        #expect(record.payload.windowsEqual(TestSupport.hex("10200006000c7851c406")))
    }

    @Test func messageFiles() async throws {
        let folder = try TemporaryDirectory("cli")
        let binary = try folder.file("m.ndef", TestSupport.hex("d1010d550270726f786d61726b2e636f6d"))
        let hexFile = try folder.file("m.hex", text: "# a comment\n9101075402656e54585431\n5101075402656e54585432\n")
        #expect(await hex(["message", binary]) == "d1010d550270726f786d61726b2e636f6d")
        #expect(await hex(["message", hexFile, "--hex-input"]) == "9101075402656e545854315101075402656e54585432")
        // A message's records join the others; MB and ME are set anew.
        #expect(
            await hex(["text", "A", "message", binary, "text", "B"])
                == "9101045402656e41" + "11010d550270726f786d61726b2e636f6d" + "5101045402656e42"
        )
        #expect(
            await hex(["message", "-"], input: TestSupport.hex("d1010d550270726f786d61726b2e636f6d"))
                == "d1010d550270726f786d61726b2e636f6d"
        )
        // --id on a message of one record sets that record's ID (IL flag, ID length 1, ID "x").
        #expect(await hex(["message", binary, "--id", "x"]) == "d9010d015578" + "0270726f786d61726b2e636f6d")
    }

    @Test func json() async throws {
        let text = """
            {"records":[{"tnf":1,"type":"U","value":{"uri":"https://www.proxmark.com"}},
            {"tnf":5,"payloadHex":"0102","idHex":"aa"}]}
            """
        let folder = try TemporaryDirectory("cli")
        let file = try folder.file("m.json", text: text)
        let expected = "91010d550270726f786d61726b2e636f6d" + "5d000201aa0102"
        #expect(await hex(["--from-json", file]) == expected)
        #expect(await hex(["--from-json", "-"], input: Array(text.utf8)) == expected)
        #expect(await hex(["--from-json", "-"], input: Array(text.utf8)) == expected)
    }

    @Test func outputFile() async throws {
        let folder = try TemporaryDirectory("cli")
        let path = folder.path("out.ndef")
        let result = await runInProcess(["encode", "uri", "https://www.proxmark.com", "-o", path])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                == TestSupport.hex("d1010d550270726f786d61726b2e636f6d"))
        let stdout = await runInProcess(["encode", "uri", "https://www.proxmark.com", "-o", "-"])
        #expect(stdout.output == TestSupport.hex("d1010d550270726f786d61726b2e636f6d"))
    }

    @Test(arguments: [
        (["encode"], "Missing expected argument '<record> ...'"),
        (["encode", "--chunk-size", "0", "uri", "x"], "The value '0' is invalid for '--chunk-size <n>'"),
        (["encode", "raw", "--tnf", "6"], "The value '6' is invalid for '--tnf <n>'"),
        (["encode", "raw", "--tnf", "1"], "Invalid record 0 (raw): a record of TNF 1 needs --type or --type-hex"),
        (
            ["encode", "raw", "--tnf", "5", "--type", "x"],
            "Invalid record 0 (raw): an unknown record (TNF 5) has no type"
        ),
        (["encode", "raw", "--tnf", "0", "--payload", "x"], "Invalid record 0 (raw): an empty record (TNF 0)"),
        (
            ["encode", "mime", "a/b", "--data-hex", "0g"],
            "The value '0g' is invalid for '--data-hex <hex>': not a hex digit: 'g'"
        ),
        (["encode", "mime", "plain", "x"], "The value 'plain' is invalid for '<type>'"),
        (["encode", "external", "nocolon"], "The value 'nocolon' is invalid for '<domain:type>'"),
        (["encode", "uri", "x", "--id", String(repeating: "i", count: 256)], "an ID has at most 255 bytes"),
        (["encode", "smartposter", "u", "--size", "-1"], "The value '-1' is invalid for '--size <n>'"),
        (["encode", "smartposter", "u", "--icon", "x.bmp"], "The value 'x.bmp' is invalid for '--icon <path>'"),
        (["encode", "wifi", "n", "--key-env", "UNSET_VARIABLE"], "The environment variable 'UNSET_VARIABLE'"),
        (["encode", "wifi", "n", "--mac", "zz"], "Invalid record 0 (wifi)"),
        (["encode", "text", "a", "--lang", String(repeating: "l", count: 64)], "is invalid for '--lang'"),
        (["encode", "message", "-", "message", "-"], "Standard input ('-') can be read only once"),
        (["encode", "--from-json", "a", "b"], "--from-json reads the message from JSON: records cannot be given too"),
        (["encode", "--from-json", "f", "--id", "x"], "Unknown option '--id'"),
        (["encode", "message", "-", "--id", "x"], "holds 2 records; --id sets the ID of a single record"),
    ])
    func usageErrors(_ arguments: [String], message: String) async {
        let result = await runInProcess(
            arguments, input: TestSupport.hex("9101075402656e545854315101075402656e54585432"))
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("Error: "))
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.hasSuffix("  See 'ndeftool encode --help' for more information.\n"))
    }

    @Test func dataErrors() async throws {
        let folder = try TemporaryDirectory("cli")
        let bad = try folder.file("bad.ndef", TestSupport.hex("d1010d55"))
        var result = await runInProcess(["encode", "message", bad])
        #expect(result.status == 65)
        #expect(
            result.error
                == "Error: malformed NDEF message in '\(bad)' at byte 0: record 0: type, ID and payload need 14 bytes but only 1 remain (truncated)\n"
        )
        result = await runInProcess(["encode", "message", "-", "--hex-input"], input: Array("d1 0x".utf8))
        #expect(result.status == 65)
        #expect(result.error == "Error: invalid hex in standard input at character 4: not a hex digit: 'x'\n")
        result = await runInProcess(["encode", "--from-json", "-"], input: Array(#"{"records":[{"tnf":9}]}"#.utf8))
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("Error: invalid JSON message in standard input: tnf must be 0-7, not 9"))
        result = await runInProcess(["encode", "--from-json", "-"], input: Array(#"{"records":[]}"#.utf8))
        #expect(result.status == 65)
        #expect(result.error.contains("(empty-message)"))
        result = await runInProcess(["encode", "--from-json", "-"], input: Array("not json".utf8))
        #expect(result.status == 65)
    }

    @Test func missingInputs() async {
        for arguments in [
            ["encode", "message", "/nonexistent/m.ndef"],
            ["encode", "mime", "a/b", "--file", "/nonexistent/data"],
            ["encode", "--from-json", "/nonexistent/m.json"],
            ["encode", "wifi", "n", "--key-file", "/nonexistent/key"],
        ] {
            let result = await runInProcess(arguments)
            #expect(result.status == 66)
            #expect(result.error.hasPrefix("Error: cannot read '/nonexistent/"))
            #expect(result.error.hasSuffix(": No such file or directory\n"))
        }
    }

    @Test func outputErrors() async {
        let result = await runInProcess(["encode", "uri", "x", "-o", "/nonexistent/folder/out.ndef"])
        #expect(result.status == 74)
        #expect(result.error == "Error: cannot write '/nonexistent/folder/out.ndef': No such file or directory\n")
        let io = TestIO()
        io.failsWriting = true
        let status = await NDEFCommandLine.run(["encode", "uri", "x"], io: io)
        #expect(status == .ioError)
        #expect(io.error == "Error: cannot write standard output: Broken pipe\n")
    }
}

extension ArraySlice where Element == UInt8 {
    /// Whether `bytes` occurs somewhere in the slice.
    func windowsEqual(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= count else { return false }
        return indices.dropLast(bytes.count - 1).contains { self[$0..<$0 + bytes.count].elementsEqual(bytes) }
    }
}
