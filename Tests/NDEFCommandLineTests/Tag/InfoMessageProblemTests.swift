import Foundation
import TestSupport
import Testing

/// `ndeftool info` on a formatted tag whose NDEF Message TLV cannot be read (T2T 1.1, 2.3: its
/// length runs past the data area): the status stays read/write, since a write replaces the TLV,
/// but the line and the JSON say why no message is shown, instead of a bare "read/write".
@Suite struct InfoMessageProblemTests {
    @Test("info: read/write, and the reason the message cannot be read (text and messageProblem in JSON)")
    func unreadableMessageIsSaid() async throws {
        let folder = try TemporaryDirectory("info-problem")
        let source = PackagePaths.fixture("tags/ntag213-hostile-length-past-end.hex")
        let tag = try folder.file("tag.hex", [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
        let reader = "sim:ntag213?file=\(tag)"
        let text = try await BinaryRunner.run(["info", "--reader", reader, "--wait", "0"])
        #expect(text.status == 0, "\(text.error)")
        #expect(
            text.outputText.contains(
                "NDEF: read/write, capacity 137 bytes; the NDEF message cannot be read: the TLV at byte 21 runs past "
                    + "the end of the data area (byte 160) (malformed-tlv); writing a message replaces it\n"),
            "\(text.outputText)")
        let json = try await BinaryRunner.run(["info", "--json", "--reader", reader, "--wait", "0"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let problem = try #require(object["messageProblem"] as? [String: Any])
        #expect(problem["code"] as? String == "malformed-tlv" && problem["offset"] as? Int == 21)
        // A write replaces the TLV; then the problem is gone.
        #expect(
            try await BinaryRunner.run(["write", "uri", "https://example.com", "--reader", reader, "--wait", "0"])
                .status == 0)
        let after = try await BinaryRunner.run(["info", "--json", "--reader", reader, "--wait", "0"])
        let fixed = try #require(try JSONSerialization.jsonObject(with: Data(after.output)) as? [String: Any])
        #expect(fixed["messageProblem"] == nil)
        folder.remove()
    }
}
