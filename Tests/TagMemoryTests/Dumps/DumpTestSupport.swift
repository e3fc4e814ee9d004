import Foundation
import TagMemory
import TestSupport
import Testing

/// Fixture files under `Fixtures/dumps/`, found from this file's path.
enum DumpFixtures {
    static let directory: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Fixtures/dumps" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/dumps"
    }()

    /// The bytes of a fixture.
    static func bytes(_ name: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        return [UInt8](data)
    }

    /// The text of a fixture, as lines without their line breaks.
    static func lines(_ name: String) throws -> [String] {
        let text = String(decoding: try bytes(name), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The NTAG213 image every NTAG213 fixture holds (Flipper v4 fixture, read through the raw
    /// reader's independent path: the hex of each `Page n:` line).
    static func ntag213Memory() throws -> [UInt8] {
        var memory: [UInt8] = []
        for line in try lines("ntag213-uri-flipper-v4.nfc") where line.hasPrefix("Page ") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            memory += hex(String(line[line.index(after: colon)...]))
        }
        return memory
    }
}

/// The error `body` throws, or nil; any error other than a ``TagMemoryError`` fails the test.
func dumpError(_ body: () throws -> Void) -> TagMemoryError? {
    do {
        try body()
        return nil
    } catch let error as TagMemoryError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// The line number a text-format error names (`line 12: …`), or nil.
func errorLine(_ error: TagMemoryError?) -> Int? {
    guard let reason = error?.reason, reason.hasPrefix("line ") else { return nil }
    let digits = reason.dropFirst(5).prefix { $0.isNumber }
    return Int(digits)
}

/// Text as UTF-8 bytes.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
