import HexText
import SystemSupport

/// What a simulated NTAG 424 DNA's tag file says about its keys: the facts the NTAG 424
/// exploration's invariants are about, read from the state text the simulated reader keeps
/// (`ntag424-keys`, `ntag424-key-versions`; NT4H2421Gx 8.2.3, 10.6.1).
struct Type4TagState: Equatable, CustomStringConvertible {
    /// The file's lines, but for the SDM read counter and comments: reading an SDM file advances
    /// the counter (NT4H2421Gx 9.3.4), which is a read, not a change.
    var lines: [String]
    /// Keys 0-4, 16 bytes each.
    var keys: [[UInt8]]
    /// The versions of keys 0-4.
    var versions: [UInt8]
    /// Whether the tag speaks LRP (`ntag424-mode LRP`, NT4H2421Gx 9.2).
    var isLRP: Bool

    /// The factory key: 16 zero bytes (NT4H2421Gx 8.2.3).
    static let factoryKey = [UInt8](repeating: 0, count: 16)

    /// The state in the tag file at `path`; nil when there is no file yet.
    init?(path: String) throws {
        guard let bytes = FileBytes.read(path) else { return nil }
        var lines: [String] = []
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmed(of: " ")
            guard !trimmed.isEmpty, !trimmed.hasPrefix("ntag424-sdm-counter") else { continue }
            lines.append(trimmed)
            let parts = trimmed.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let keyBytes = values["ntag424-keys"].flatMap(Self.bytes), keyBytes.count == 80,
            let versions = values["ntag424-key-versions"].flatMap(Self.bytes), versions.count == 5
        else { throw ExplorationFailure("the tag file \(path) has no NTAG 424 DNA keys") }
        self.lines = lines
        keys = (0..<5).map { Array(keyBytes[($0 * 16)..<($0 * 16 + 16)]) }
        self.versions = versions
        isLRP = values["ntag424-mode"] == "LRP"
    }

    /// Whether key `number` is still the factory's.
    func isFactory(_ number: Int) -> Bool { keys[number] == Self.factoryKey }

    /// Hex bytes separated by spaces; nil for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        let pairs = text.split(separator: " ")
        guard pairs.allSatisfy({ $0.utf8.count == 2 }) else { return nil }
        return Hex.decodeDigits(pairs.joined())
    }

    var description: String {
        "keys "
            + keys.map { $0 == Self.factoryKey ? "factory" : String(Hex.encode($0, uppercase: true).prefix(6)) + "…" }
            .joined(separator: " ") + ", versions " + versions.map(String.init).joined(separator: " ")
            + (isLRP ? ", LRP" : "")
    }
}

extension StringProtocol {
    /// Without `character` at either end.
    func trimmed(of character: Character) -> String {
        var slice = Substring(self)
        while slice.first == character { slice = slice.dropFirst() }
        while slice.last == character { slice = slice.dropLast() }
        return String(slice)
    }
}
