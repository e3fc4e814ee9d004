import NDEF
import RecordSpecifications
import TestSupport
import Testing

/// Inputs offering environment variables and no files, as a tool with its own secrets store would.
private struct EnvironmentOnly: RecordInputs {
    var variables: [String: String]

    func read(_ path: String, for argument: String) throws(RecordSpecError) -> [UInt8] {
        throw RecordSpecError(.unreadableInput, "no files here (\(argument) asked for \(path))")
    }

    func environment(_ name: String) -> String? { variables[name] }
}

/// The record-specification library as a client sees it: products only, no `@testable`.
@Suite("Record specifications as a library")
struct RecordSpecificationsTests {
    @Test func wordsMakeTypedRecords() throws {
        let message = try RecordSpecGrammar.standard.message(from: [
            "text", "Grüß Gott", "--lang", "de-AT", "uri", "https://example.com/a", "aar", "com.example.app",
        ])
        #expect(message.records.count == 3)
        let text = try #require(message.records.first?.wellKnownText)
        #expect(text.0 == "Grüß Gott")
        #expect(text.1 == "de-AT")
        #expect(message.records[1].wellKnownURI == "https://example.com/a")
        #expect(message.records[2].typeString == "android.com:pkg")
        // The same bytes as the NFC Forum URI RTD 1.0 form: prefix 04h ("https://").
        #expect(Array(message.records[1].payload) == [0x04] + Array("example.com/a".utf8))
    }

    @Test func rawRecordWithIDAndHexPayload() throws {
        let records = try RecordSpecGrammar.standard.records(from: [
            "raw", "--tnf", "2", "--type", "application/octet-stream", "--payload-hex", "de:ad:be:ef", "--id", "r1",
        ])
        #expect(records.count == 1)
        #expect(records[0].typeNameFormat == .media)
        #expect(Array(records[0].payload) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(Array(records[0].identifier) == Array("r1".utf8))
    }

    @Test func filesAreReadThroughTheInputs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("logo.bin", [1, 2, 3])
        let message = try RecordSpecGrammar.standard.message(from: ["mime", "image/png", "--file", path])
        #expect(Array(message.records[0].payload) == [1, 2, 3])
        let missing = directory.path("missing.bin")
        let error = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["mime", "image/png", "--file", missing])
        }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message.contains("missing.bin") == true)
        #expect(error?.underlying != nil)
        let standardInput = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["mime", "image/png", "--file", "-"])
        }
        #expect(standardInput?.code == .unreadableInput)
    }

    @Test func environmentComesFromTheInputs() throws {
        let inputs = EnvironmentOnly(variables: ["WIFI_KEY": "correct horse"])
        let message = try RecordSpecGrammar.standard.message(
            from: ["wifi", "Office", "--key-env", "WIFI_KEY"], inputs: inputs)
        #expect(message.records[0].typeString == "application/vnd.wfa.wsc")
        // Wi-Fi Simple Configuration 2.0.x: the Network Key attribute (1027h) holds the key.
        let payload = Array(message.records[0].payload)
        let key = Array("correct horse".utf8)
        #expect(payload.indices.contains { Array(payload[$0...].prefix(4 + key.count)) == [0x10, 0x27, 0, 13] + key })
        let unset = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["wifi", "Office", "--key-env", "WIFI_KEY"])
        }
        #expect(unset?.code == .invalidSpecification)
        #expect(unset?.message.contains("WIFI_KEY") == true)
    }

    @Test func errorsNameTheWordAndSuggest() {
        let unknown = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["txet", "hello"])
        }
        #expect(unknown?.code == .invalidSpecification)
        #expect(unknown?.message.contains("Unknown record kind 'txet'") == true)
        #expect(unknown?.message.contains("Did you mean 'text'?") == true)
        let option = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["text", "hello", "--lnag", "de"])
        }
        #expect(option?.message == "Unknown option '--lnag'. Did you mean '--lang'?")
        let language = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["text", "hello", "--lang", "not a tag"])
        }
        #expect(language?.message.contains("--lang") == true)
        let empty = #expect(throws: RecordSpecError.self) { try RecordSpecGrammar.standard.message(from: []) }
        #expect(empty?.code == .invalidSpecification)
    }

    @Test func messageFilesAreDecodedStrictly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A URI record "https://a" (NDEF 1.0 short record), then a truncated copy of it.
        let good = try directory.file("good.ndef", [0xD1, 0x01, 0x02, 0x55, 0x04, 0x61])
        let bad = try directory.file("bad.ndef", [0xD1, 0x01, 0x05, 0x55, 0x04, 0x61])
        let message = try RecordSpecGrammar.standard.message(from: ["message", good, "text", "after"])
        #expect(message.records.count == 2)
        let error = #expect(throws: RecordSpecError.self) {
            try RecordSpecGrammar.standard.message(from: ["message", bad])
        }
        #expect(error?.code == .invalidMessage)
        #expect(error?.underlying is NDEFError)
    }

    @Test("Codes: kebab-case identifiers that read back; the former camelCase spelling; a newer code is kept")
    func codesAreOpen() {
        let all = RecordSpecError.Code.allCases
        #expect(all.map(\.rawValue) == ["invalid-specification", "unreadable-input", "invalid-message"])
        #expect(all.allSatisfy { RecordSpecError.Code(rawValue: $0.rawValue) == $0 })
        #expect(RecordSpecError.Code(rawValue: "unreadableInput") == .unreadableInput)
        let newer = RecordSpecError.Code(rawValue: "a-code-of-a-newer-version")
        #expect(!newer.isKnown && newer.rawValue == "a-code-of-a-newer-version")
        #expect(RecordSpecGrammar.standard.kindNames.starts(with: ["text", "uri"]))
    }
}
