import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// With `--json`, a failure is also a JSON object on standard output, so scripts need not parse
/// standard error.
@Suite struct JSONFailureTests {
    /// The `error` object of `output`, which must be one JSON object and nothing else.
    static func failure(_ output: [UInt8]) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
        #expect(object.count == 1)
        return try #require(object["error"] as? [String: Any])
    }

    @Test("decode --json of a malformed message: 65 and its reason, on both streams")
    func dataError() async throws {
        let result = await runInProcess(["decode", "--json", "-"], input: [0xD1, 0x01, 0x09, 0x55, 0x04])
        #expect(result.status == 65)
        let error = try Self.failure(result.output)
        #expect(error["code"] as? String == "dataError")
        #expect(error["exitStatus"] as? Int == 65)
        let message = try #require(error["message"] as? String)
        #expect(!message.isEmpty)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("A usage error with --json: 64 on both streams; a missing file: 66")
    func usageAndNoInput() async throws {
        let usage = await runInProcess(["decode", "--json", "--bogus"])
        #expect(usage.status == 64)
        let error = try Self.failure(usage.output)
        #expect(error["code"] as? String == "usage")
        #expect((error["message"] as? String)?.contains("--bogus") == true)
        let missing = await runInProcess(["inspect", "--json", "/nonexistent/tag.nfc"])
        #expect(missing.status == 66)
        #expect(try Self.failure(missing.output)["exitStatus"] as? Int == 66)
    }

    @Test("No JSON without --json, after --, or for encode (whose --json names its input)")
    func notWanted() async {
        let plain = await runInProcess(["decode", "-"], input: [0xD1, 0x01, 0x09, 0x55, 0x04])
        #expect(plain.status == 65)
        #expect(plain.output.isEmpty)
        let encode = await runInProcess(["encode", "--json", "/nonexistent/message.json"])
        #expect(encode.status == 66)
        #expect(encode.output.isEmpty)
        let terminated = await runInProcess(["decode", "--", "--json"])
        #expect(terminated.status == 66)
        #expect(terminated.output.isEmpty)
    }
}
