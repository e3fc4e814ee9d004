import Foundation
import NDEF
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `ndeftool decode`, run in process.
@Suite struct DecodeCommandTests {
    static let proxmark = hex("d1010d550270726f786d61726b2e636f6d")

    @Test func describesARecord() async {
        let result = await runInProcess(["decode"], input: Self.proxmark)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.outputText == """
                NDEF message: 1 record, 17 bytes
                record 0: well-known (TNF 1), type "U", payload 13 bytes
                  URI: https://www.proxmark.com

                """
        )
    }

    @Test func hexInputIgnoresWhitespaceAndComments() async throws {
        let text = "# the proxmark URI\n d1 01 0d 55\n\t0270726f786d61726b2e636f6d  # end\n"
        let folder = try TemporaryDirectory("cli")
        let file = try folder.file("m.hex", text: text)
        let fromFile = await runInProcess(["decode", "--hex-input", file])
        let fromInput = await runInProcess(["decode", "--hex-input", "-"], input: Array(text.utf8))
        let binary = await runInProcess(["decode", try folder.file("m.ndef", Self.proxmark)])
        #expect(fromFile.status == 0)
        #expect(fromFile.outputText == binary.outputText)
        #expect(fromInput.outputText == binary.outputText)
    }

    @Test func describesIDsChunksAndRawPayloads() async {
        // A chunked media record with ID "a", then an unknown record with a non-printable ID.
        let message = hex("ba0302" + "01" + "612f62" + "61" + "6865" + "3600026c6c" + "1600016f" + "5d000201ff0102")
        let result = await runInProcess(["decode"], input: message)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.outputText == """
                NDEF message: 2 records, \(message.count) bytes
                record 0: media (TNF 2), type "a/b", ID "a", payload 5 bytes, 3 chunks
                  Media a/b (5 bytes)
                record 1: unknown (TNF 5), ID 0xff, payload 2 bytes
                  payload: 0102

                """
        )
    }

    @Test func showsNestedSmartPosterRecords() async throws {
        let text = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("Fixtures/ndef/smartposter-libnfc-title-uri.hex"),
            encoding: .utf8)
        let result = await runInProcess(["decode", "--hex-input"], input: Array(text.utf8))
        #expect(result.status == 0)
        #expect(
            result.outputText == """
                NDEF message: 1 record, 33 bytes
                record 0: well-known (TNF 1), type "Sp", payload 28 bytes
                  Smart poster: http://libnfc.org "Libnfc"
                  record 0.0: well-known (TNF 1), type "T", payload 9 bytes
                    Text (en): "Libnfc"
                  record 0.1: well-known (TNF 1), type "U", payload 11 bytes
                    URI: http://libnfc.org

                """
        )
    }

    @Test func showsNestedHandoverRecords() async {
        // Handover Select 1.2 (payload: version 0x12, then a message of one alternative carrier
        // record "ac": carrier power state 1, reference "0", no auxiliary data), then the carrier
        // record with ID "0".
        let alternativeCarrier = "d10204616301013000"
        let handover = "9102" + "0a" + "4873" + "12" + alternativeCarrier
        let carrier = "5a030101" + "612f62" + "30" + "ff"
        let result = await runInProcess(["decode"], input: hex(handover + carrier))
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "NDEF message: 2 records, 24 bytes")
        #expect(lines.contains("record 0: well-known (TNF 1), type \"Hs\", payload 10 bytes"))
        #expect(lines.contains("  record 0.0: well-known (TNF 1), type \"ac\", payload 4 bytes"))
        #expect(lines.contains("record 1: media (TNF 2), type \"a/b\", ID \"0\", payload 1 byte"))
    }

    @Test func reportsTypedPayloadsThatDoNotParse() async {
        // A text record whose language length (5) runs past its 3-byte payload.
        let result = await runInProcess(["decode"], input: hex("d101035405656e"))
        #expect(result.status == 0)
        #expect(result.outputText.contains("  not a valid text record: "))
        #expect(result.outputText.contains("  payload: 05656e"))
    }

    @Test func json() async {
        let result = await runInProcess(["decode", "--json"], input: Self.proxmark)
        #expect(result.status == 0)
        #expect(
            result.outputText == """
                {
                  "records" : [
                    {
                      "idHex" : "",
                      "payloadHex" : "0270726f786d61726b2e636f6d",
                      "tnf" : 1,
                      "type" : "U",
                      "typeHex" : "55",
                      "value" : {
                        "uri" : "https://www.proxmark.com"
                      }
                    }
                  ]
                }

                """
        )
    }

    @Test func jsonRoundTripsThroughEncode() async throws {
        let original = hex(
            "9101075402656e54585431" + "1a0302" + "01" + "612f62" + "61" + "6869" + "5101085402656e6e66637079")
        let json = await runInProcess(["decode", "--json"], input: original)
        #expect(json.status == 0)
        let encoded = await runInProcess(["encode", "--from-json", "-"], input: json.output)
        #expect(encoded.status == 0, "\(encoded.error)")
        #expect(encoded.output == original)
    }

    @Test func strictErrorsNameTheOffset() async {
        let result = await runInProcess(["decode"], input: Self.proxmark + [0x00])
        #expect(result.status == 65)
        #expect(result.output.isEmpty)
        #expect(
            result.error
                == "Error: malformed NDEF message in standard input at byte 17: 1 bytes follow the last (ME) record (trailing-bytes)\n"
        )
    }

    @Test func lenientRecoversAndListsIssues() async {
        let result = await runInProcess(["decode", "--lenient"], input: Self.proxmark + [0x00])
        #expect(result.status == 0)
        #expect(result.error == "warning: skipped at byte 17: 1 bytes follow the last (ME) record (trailing-bytes)\n")
        #expect(result.outputText.hasPrefix("NDEF message: 1 record, 18 bytes\n"))
        // A first record without MB, and a second record cut short.
        let damaged = await runInProcess(
            ["decode", "--lenient", "--json"], input: hex("11010d550270726f786d61726b2e636f6d" + "5101"))
        #expect(damaged.status == 0)
        #expect(damaged.error.contains("warning: skipped at byte 0: "))
        #expect(damaged.error.contains("(message-begin-misplaced)"))
        #expect(damaged.error.contains("at byte 17: "))
        #expect(damaged.outputText.contains("\"uri\" : \"https://www.proxmark.com\""))
    }

    @Test func lenientFailsWhenNothingIsRecovered() async {
        let result = await runInProcess(["decode", "--lenient"], input: [0xd1, 0x01])
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("Error: malformed NDEF message in standard input at byte 0: "))
        #expect(result.error.hasSuffix("; nothing could be recovered\n"))
    }

    @Test func inputErrors() async throws {
        var result = await runInProcess(["decode"], input: [])
        #expect(result.status == 65)
        #expect(result.error.contains("(empty-input)"))
        result = await runInProcess(["decode", "--hex-input"], input: Array("d10".utf8))
        #expect(result.status == 65)
        #expect(result.error == "Error: invalid hex in standard input at character 2: odd number of hex digits\n")
        result = await runInProcess(["decode", "/nonexistent.ndef"])
        #expect(result.status == 66)
        #expect(result.error == "Error: cannot read '/nonexistent.ndef': No such file or directory\n")
        let folder = try TemporaryDirectory("cli")
        result = await runInProcess(["decode", folder.url.path])
        #expect(result.status == 65)
        #expect(result.error == "Error: cannot read '\(folder.url.path)': it is a folder, not a regular file\n")
        result = await runInProcess(["decode", "a", "b"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: Unexpected argument 'b'\nUsage: ndeftool decode "))
    }

    /// Every fixture message decodes, and its description matches its JSON's record count.
    @Test func fixtures() async throws {
        let folder = PackagePaths.root.appendingPathComponent("Fixtures/ndef")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() {
            let path = folder.appendingPathComponent(name).path
            let hex = name.hasSuffix(".hex")
            let result = await runInProcess(["decode"] + (hex ? ["--hex"] : []) + [path])
            #expect(result.status == 0, "\(name): \(result.error)")
            #expect(result.outputText.hasPrefix("NDEF message: "), "\(name)")
            #expect(!result.outputText.contains("not a valid"), "\(name)")
            let json = await runInProcess(["decode", "--json"] + (hex ? ["--hex"] : []) + [path])
            #expect(json.status == 0, "\(name)")
            let reencoded = await runInProcess(["encode", "--from-json", "-"], input: json.output)
            let original = await runInProcess(["encode", "message", path] + (hex ? ["--hex"] : []))
            #expect(reencoded.output == original.output, "\(name)")
        }
    }
}
