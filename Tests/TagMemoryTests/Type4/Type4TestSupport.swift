import Foundation
import HexText
import NDEF
import TagMemory
import TestSupport

/// A Type 4 fixture: its bytes and the annotations of its `#` comment lines.
struct Type4Fixture {
    let name: String
    let bytes: [UInt8]
    /// The `# expect: code` annotation of a hostile fixture.
    let expectedError: String?
    /// The `# cc: file` annotation: the CC fixture an NDEF file fixture belongs to.
    let capabilityContainerName: String?

    /// Fixtures/tags/type4, found from this file's path.
    static let directory: String = {
        var path = #filePath
        for _ in 0..<4 {  // Type4TestSupport.swift, Type4, TagMemoryTests, Tests
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        return path + "/Fixtures/tags/type4"
    }()

    /// Reads a fixture: `#` starts a comment, the rest is hex digits and spaces.
    static func load(_ name: String) throws -> Type4Fixture {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        var digits = ""
        var expect: String?
        var cc: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let parts = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            digits += parts.first.map(String.init) ?? ""
            guard parts.count == 2 else { continue }
            let comment = parts[1].trimmingCharacters(in: .whitespaces)
            if comment.hasPrefix("expect:") { expect = comment.dropFirst(7).trimmingCharacters(in: .whitespaces) }
            if comment.hasPrefix("cc:") { cc = comment.dropFirst(3).trimmingCharacters(in: .whitespaces) }
        }
        return Type4Fixture(
            name: name, bytes: try Hex.decode(digits), expectedError: expect, capabilityContainerName: cc)
    }

    /// The names of the fixtures starting with `prefix`, sorted.
    static func names(prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".hex") }.sorted()
    }

    /// The capability container of a CC fixture.
    static func capabilityContainer(_ name: String) throws -> Type4CapabilityContainer {
        try Type4CapabilityContainer(parsing: load(name).bytes)
    }
}

/// A random valid NDEF message whose encoding is at most `maximumLength` bytes (at least one record).
func randomMessage(maximumLength: Int, using generator: inout SeededRandom) -> NFCNDEFMessage {
    var records: [NFCNDEFPayload] = []
    let count = Int.random(in: 1...4, using: &generator)
    for _ in 0..<count {
        let payloadSize = Int.random(in: 0...Swift.max(0, Swift.min(600, maximumLength)), using: &generator)
        let payload = (0..<payloadSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let id: [UInt8] = Bool.random(using: &generator) ? [UInt8.random(in: 0x30...0x39, using: &generator)] : []
        let record: NFCNDEFPayload =
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: NFCNDEFPayload(format: .nfcWellKnown, type: "T", identifier: id, payload: payload)
            case 1: NFCNDEFPayload(format: .media, type: "application/octet-stream", identifier: id, payload: payload)
            case 2: NFCNDEFPayload(format: .nfcExternal, type: "example.com:t", identifier: id, payload: payload)
            default: NFCNDEFPayload(format: .unknown, type: [], identifier: id, payload: payload)
            }
        let candidate = NFCNDEFMessage(records: records + [record])
        if candidate.length <= maximumLength {
            records.append(record)
        }
    }
    if records.isEmpty {
        records = [NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [])]
    }
    return NFCNDEFMessage(records: records)
}

/// The number of command data bytes (after Lc) in the UPDATE BINARY for `step`; Int.max when
/// no command can be built.
func commandDataCount(_ step: PlanStep) -> Int {
    guard let command = try? Type4Command.updateBinary(step), command.bytes.count > 5 else { return Int.max }
    return command.bytes.count - (command.bytes[4] == 0 ? 7 : 5)
}
