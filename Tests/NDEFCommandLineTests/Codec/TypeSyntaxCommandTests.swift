import Foundation
import TestSupport
import Testing

/// NDEF 1.0, 3.2.6 through the built binary: a TYPE that breaks the syntax of its TNF is refused
/// by strict decoding (65, with the offset of the TYPE field), kept with a warning by `--lenient`,
/// and refused by `encode` unless a raw record asks for it (`--allow-invalid-type`); TNF 7 is
/// read as unknown but keeps `"tnf": 7`, and is not encoded again.
@Suite struct TypeSyntaxCommandTests {
    /// Each message: one record whose TYPE breaks its TNF's syntax, at byte 3.
    static let invalid: [(String, String)] = [
        ("d102002d54", "starts with \"-\""),
        ("d20500746578742f", "has no subtype"),
        ("d305002f70617468", "relative reference"),
        ("d40300616263", "has no \":\""),
        ("d20b00746578742f706cc3a4696e", "not US-ASCII"),
    ]

    @Test("Strict decode: 65 at the TYPE's offset; --lenient: the record and a warning", arguments: invalid)
    func decodeRefusesInvalidTypes(hex: String, reason: String) async throws {
        let bytes = TestSupport.hex(hex)
        let strict = try await BinaryRunner.run(["decode", "-"], input: bytes)
        #expect(strict.status == 65, "\(strict.error)")
        #expect(strict.error.contains("at byte 3:"), "\(strict.error)")
        #expect(strict.error.contains(reason) && strict.error.contains("(invalid-type)"), "\(strict.error)")
        let lenient = try await BinaryRunner.run(["decode", "--lenient", "--json", "-"], input: bytes)
        #expect(lenient.status == 0, "\(lenient.error)")
        #expect(lenient.error.contains("(invalid-type)"))
        #expect(lenient.outputText.contains("\"typeHex\""))
    }

    @Test("encode refuses an invalid type (64) unless raw --allow-invalid-type; mime and external check theirs")
    func encodeRefusesInvalidTypes() async throws {
        let refused = try await BinaryRunner.run(["encode", "--hex", "raw", "--tnf", "1", "--type", "-T"])
        #expect(refused.status == 64, "\(refused.error)")
        #expect(refused.error.contains("Give --allow-invalid-type"), "\(refused.error)")
        let allowed = try await BinaryRunner.run([
            "encode", "--hex", "raw", "--tnf", "1", "--type", "-T", "--allow-invalid-type",
        ])
        #expect(allowed.status == 0, "\(allowed.error)")
        #expect(allowed.outputText == "d102002d54\n")
        for arguments in [["mime", "text/", "--text", "x"], ["external", "example.com", "--text", "x"]] {
            let result = try await BinaryRunner.run(["encode", "--hex"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.error)")
        }
    }

    @Test("TNF 7: decoded as unknown with \"tnf\": 7 kept; encode --json of it is refused (65), not turned into 5")
    func reservedFormatSurvivesInJSON() async throws {
        let json = try await BinaryRunner.run(["decode", "--json", "-"], input: TestSupport.hex("d70002abcd"))
        #expect(json.status == 0, "\(json.error)")
        #expect(json.outputText.contains("\"tnf\" : 7"), "\(json.outputText)")
        let folder = try TemporaryDirectory("tnf7")
        let path = try folder.file("m.json", json.output)
        let again = try await BinaryRunner.run(["encode", "--json", path])
        #expect(again.status == 65, "\(again.error)")
        #expect(again.error.contains("reserved-tnf"), "\(again.error)")
        folder.remove()
    }
}

/// `decode --json | encode --json` through the built binary gives the chunked message back byte
/// for byte (NDEF 1.0, 3.2.3: the JSON keeps `chunkSizes`).
@Suite struct ChunkedJSONCommandTests {
    @Test("encode --chunk-size 3, decode --json, encode --json: the same bytes")
    func chunkedRoundTrip() async throws {
        let folder = try TemporaryDirectory("chunks")
        let encoded = try await BinaryRunner.run(["encode", "--chunk-size", "3", "text", "hello-world"])
        #expect(encoded.status == 0)
        let message = try folder.file("m.ndef", encoded.output)
        let json = try await BinaryRunner.run(["decode", "--json", message])
        #expect(json.outputText.contains("\"chunkSizes\""), "\(json.outputText)")
        let again = try await BinaryRunner.run(["encode", "--json", try folder.file("m.json", json.output)])
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output == encoded.output)
        folder.remove()
    }
}

/// A message over the decoder's record limit (16,384) is valid NDEF over a limit: `decode`
/// exits 73 naming the limit (not 65, malformed), and `--lenient` prints the records before it.
@Suite struct RecordLimitCommandTests {
    @Test("16,385 empty records: 73 too-many-records; --lenient: 16,384 records and a warning")
    func recordLimit() async throws {
        var bytes: [UInt8] = []
        for index in 0..<16_385 {
            bytes += [(index == 0 ? 0x80 : 0) | (index == 16_384 ? 0x40 : 0) | 0x15, 0x00, 0x00]
        }
        let strict = try await BinaryRunner.run(["decode", "-"], input: bytes)
        #expect(strict.status == 73, "\(strict.error)")
        #expect(strict.error.contains("NDEF message over a decoding limit"), "\(strict.error)")
        #expect(strict.error.contains("(too-many-records)"))
        let lenient = try await BinaryRunner.run(["decode", "--lenient", "-"], input: bytes)
        #expect(lenient.status == 0, "\(lenient.error)")
        #expect(lenient.outputText.hasPrefix("NDEF message: 16384 records"), "\(lenient.outputText.prefix(80))")
        #expect(lenient.error.contains("(too-many-records)"))
    }
}
