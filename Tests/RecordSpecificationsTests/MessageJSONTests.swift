import Foundation
import NDEF
import RecordSpecifications
import TestSupport
import Testing

/// Message JSON (the contract `decode --json` prints) is read by one decoder,
/// `TypedRecordJSON.message(json:)`: whatever Foundation's encoder writes, it reads back.
@Suite struct MessageJSONTests {
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: PackagePaths.fixture("ndef"))) ?? []
        return names.filter { $0.hasSuffix(".hex") }.sorted()
    }()

    @Test("Every NDEF fixture: encoded by JSONEncoder, decoded by the package's decoder, the same bytes")
    func fixturesRoundTrip() throws {
        #expect(Self.fixtures.count >= 10)
        for name in Self.fixtures {
            let text = try #require(FileManager.default.contents(atPath: PackagePaths.fixture("ndef/\(name)")))
            let message = try RecordData.message(Array(text), hex: true, source: name)
            let json = try JSONEncoder().encode(message)
            let decoded = try TypedRecordJSON.message(json: Array(json))
            #expect(try decoded.encoded() == message.encoded(), "\(name)")
        }
    }

    @Test("A syntax error names its line and byte")
    func syntaxError() {
        #expect {
            try TypedRecordJSON.message(json: Array("{\n  \"records\": [\n    {\"tnf\": 1,]\n}".utf8))
        } throws: { error in
            guard let error = error as? RecordSpecError else { return false }
            return error.code == .invalidMessage && error.reason.hasPrefix("line 3 (byte ")
        }
    }

    @Test("A value the contract refuses is named by its JSON path")
    func contractError() {
        let json = #"{"records": [{"tnf": 9, "type": "U", "payloadHex": ""}]}"#
        #expect {
            try TypedRecordJSON.message(json: Array(json.utf8))
        } throws: { error in
            guard let error = error as? RecordSpecError else { return false }
            return error.code == .invalidMessage && error.reason.contains("records[0]")
        }
    }

    @Test("A key given twice is refused, not read at one of its places")
    func duplicateKey() {
        let json = #"{"records": [], "records": [{"tnf": 0}]}"#
        #expect(throws: RecordSpecError.self) { try TypedRecordJSON.message(json: Array(json.utf8)) }
    }
}
