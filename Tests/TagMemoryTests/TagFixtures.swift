import Foundation
import HexText
import NDEF
import TagMemory

/// The tag memory images in `Fixtures/tags/`: hex text, one page per line, `#` comments.
enum TagFixtures {
    /// The repository's `Fixtures/tags` directory, found from this file's path.
    static let directory: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Fixtures/tags" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/tags"
    }()

    /// The names of every fixture file.
    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".hex") }
            .sorted()
    }

    /// The bytes of a fixture: everything after `#` on a line is a comment.
    static func load(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        let hexText = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .joined(separator: " ")
        return try Hex.decode(hexText)
    }

    /// The chip a fixture is for, from its file name.
    static func chip(for name: String) -> Type2Chip? {
        let prefixes: [(String, Type2Chip)] = [
            ("ultralight-mf0icu1", .mifareUltralight), ("ultralight-c-mf0icu2", .mifareUltralightC),
            ("ultralight-ev1-mf0ul11", .mifareUltralightEV1MF0UL11),
            ("ultralight-ev1-mf0ul21", .mifareUltralightEV1MF0UL21), ("ntag210", .ntag210), ("ntag212", .ntag212),
            ("ntag213", .ntag213), ("ntag215", .ntag215), ("ntag216", .ntag216),
        ]
        return prefixes.first { name.hasPrefix($0.0 + "-") }?.1
    }

    /// A fixture parsed with its chip.
    static func memory(_ name: String) throws -> Type2Memory {
        Type2Memory(bytes: try load(name), chip: chip(for: name))
    }
}

/// The https://example.com URI record message used by several fixtures: D1 01 0C 55 04 "example.com".
let exampleURIMessage = NFCNDEFMessage(records: [
    NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com".utf8))
])

/// A text record message "en" + `count` × "a", as the long and full fixtures hold.
func textMessage(count: Int) -> NFCNDEFMessage {
    NFCNDEFMessage(records: [
        NFCNDEFPayload(
            format: .nfcWellKnown, type: "T",
            payload: [0x02] + Array("en".utf8) + [UInt8](repeating: 0x61, count: count))
    ])
}
