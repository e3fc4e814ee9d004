import HexText
import NDEF
import NTAG424
import TagMemory

/// The reader of ``SimulatedType4Tag/stateText``: lines of `key value`, `#` comments, hex values.
///
/// Every value is checked as it is read and the NDEF bytes are capped at
/// ``SimulatedType4Tag/Configuration/maximumSimulatedFileSize`` while they accumulate, so
/// hostile text costs no more memory than itself.
struct SimulatedType4StateText {
    static let formatName = "ndeftool-type4-tag"
    static let formatVersion = "1"
    /// Keys that must appear once.
    static let requiredKeys: Set<String> = [
        "uid", "mapping-version", "mle", "mlc", "ndef-file", "ndef-file-size", "read-access", "write-access", "cc",
    ]

    var configuration = SimulatedType4Tag.Configuration()
    var capabilityContainerFile: [UInt8] = []
    var ndefFile: [UInt8] = []
    /// The NTAG 424 DNA state, when the text has `ntag424-*` lines.
    var ntag424: SimulatedNTAG424Chip?

    /// One content line: its number from 1, where it starts, its key and value.
    private struct Line {
        var number: Int
        var offset: Int
        var key: String
        var value: String

        func error(_ reason: String) -> TagMemoryError {
            TagMemoryError(.malformedDump, at: offset, "line \(number): \(reason)")
        }
    }

    init(parsing text: String) throws(TagMemoryError) {
        let bytes = Array(text.utf8)
        var seen: Set<String> = []
        var sawHeader = false
        var sawEnd = false
        var start = 0
        var number = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            defer { start = end + 1 }
            var content = bytes[start..<end]
            if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = content[..<hash] }
            content = Self.trimmed(content)
            if content.isEmpty { continue }
            let split = content.firstIndex(where: Self.isBlank) ?? content.endIndex
            let line = Line(
                number: number, offset: start, key: String(decoding: content[..<split], as: UTF8.self),
                value: String(decoding: Self.trimmed(content[split...]), as: UTF8.self))
            guard !sawEnd else { throw line.error("\"\(line.key)\" after the end line") }
            guard sawHeader else {
                guard line.key == Self.formatName, line.value == Self.formatVersion else {
                    throw line.error(
                        "the text does not start with \"\(Self.formatName) \(Self.formatVersion)\": it is not a saved "
                            + "simulated Type 4 tag")
                }
                sawHeader = true
                continue
            }
            if line.key != "ndef", !seen.insert(line.key).inserted {
                throw line.error("\"\(line.key)\" appears twice")
            }
            sawEnd = line.key == "end"
            try read(line)
        }
        guard sawHeader else {
            throw TagMemoryError(.malformedDump, at: 0, "the text is empty: it is not a saved simulated Type 4 tag")
        }
        guard sawEnd else {
            throw TagMemoryError(.malformedDump, at: bytes.count, "the text stops before its end line: it is cut off")
        }
        if let missing = Self.requiredKeys.subtracting(seen).sorted().first {
            throw TagMemoryError(.malformedDump, at: bytes.count, "the \"\(missing)\" line is missing")
        }
    }

    private mutating func read(_ line: Line) throws(TagMemoryError) {
        switch line.key {
        case "uid": configuration.uid = try Self.bytes(line, count: 4...10)
        case "mapping-version": configuration.mappingVersion = try Self.byte(line)
        case "mle": configuration.maximumResponseDataSize = try Self.number(line, digits: 4)
        case "mlc": configuration.maximumCommandDataSize = try Self.number(line, digits: 4)
        case "ndef-file":
            configuration.ndefFileIdentifier = UInt16(truncatingIfNeeded: try Self.number(line, digits: 4))
        case "ndef-file-size": configuration.maximumNDEFFileSize = try Self.number(line, digits: 8)
        case "read-access": configuration.readAccess = Type4AccessCondition(rawValue: try Self.byte(line))
        case "write-access": configuration.writeAccess = Type4AccessCondition(rawValue: try Self.byte(line))
        case "cc-writable": configuration.isCapabilityContainerWritable = try Self.flag(line)
        case "end-of-file-warning": configuration.reportsEndOfFile = try Self.flag(line)
        case "frame-size": configuration.frameSize = try Self.number(line, digits: 4)
        case "cc": capabilityContainerFile = try Self.bytes(line, count: 15...0xFFFF)
        case "ndef":
            let data = try Self.bytes(line, count: 1...Int.max)
            guard data.count <= SimulatedType4Tag.Configuration.maximumSimulatedFileSize - ndefFile.count else {
                throw line.error(
                    "the NDEF file grows past \(SimulatedType4Tag.Configuration.maximumSimulatedFileSize) bytes, "
                        + "more than a simulated tag holds")
            }
            ndefFile += data
        case "end":
            guard line.value.isEmpty else { throw line.error("the end line takes no value") }
        case let key where key.hasPrefix("ntag424-"):
            var chip = ntag424 ?? SimulatedNTAG424Chip()
            try Self.read(line, into: &chip)
            ntag424 = chip
        default:
            throw line.error("unknown key \"\(line.key)\"")
        }
    }

    /// An `ntag424-*` line: keys, key versions, file settings, the SDM counter, the
    /// proprietary file, the signature.
    private static func read(_ line: Line, into chip: inout SimulatedNTAG424Chip) throws(TagMemoryError) {
        switch line.key {
        case "ntag424-keys":
            let bytes = try bytes(line, count: 80...80)
            chip.keys = (0..<5).map { Array(bytes[($0 * 16)..<($0 * 16 + 16)]) }
        case "ntag424-key-versions": chip.keyVersions = try bytes(line, count: 5...5)
        case "ntag424-file-1", "ntag424-file-2", "ntag424-file-3":
            let number = UInt8(line.key.utf8.last.map { $0 - UInt8(ascii: "0") } ?? 0)
            do {
                let settings = try NTAG424FileSettings(response: try bytes(line, count: 7...64))
                guard settings.size == chip.fileSettings[number]?.size else {
                    throw line.error("file \(number) has the wrong size")
                }
                chip.fileSettings[number] = settings
            } catch let error as TagMemoryError {
                throw error
            } catch {
                throw line.error("\"\(line.key)\" holds no valid file settings: \(error)")
            }
        case "ntag424-sdm-counter": chip.sdmReadCounter = try number(line, digits: 6)
        case "ntag424-proprietary-file": chip.proprietaryFile = try bytes(line, count: 128...128)
        case "ntag424-signature": chip.signature = try bytes(line, count: 56...56)
        case "ntag424-tag-tamper":
            guard let tamper = SimulatedTagTamper(stateBytes: try bytes(line, count: 4...4)) else {
                throw line.error("\"ntag424-tag-tamper\" takes enabled (00/01), a key nibble, C or O, and C or O")
            }
            chip.tagTamper = tamper
        case "ntag424-mode":
            guard let mode = NTAG424CryptoMode(rawValue: line.value) else {
                throw line.error("\"ntag424-mode\" is AES or LRP, not \"\(line.value.prefix(20))\"")
            }
            chip.mode = mode
        default: throw line.error("unknown key \"\(line.key)\"")
        }
    }

    private static func bytes(_ line: Line, count: ClosedRange<Int>) throws(TagMemoryError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(line.value)
        } catch {
            throw line.error("\"\(line.key)\" takes hex bytes: \(error.reason)")
        }
        guard count.contains(bytes.count) else {
            let (low, high) = (count.lowerBound, count.upperBound)
            let range = high == Int.max ? "at least \(low)" : "\(low) to \(high)"
            throw line.error("\"\(line.key)\" takes \(range) bytes, not \(bytes.count)")
        }
        return bytes
    }

    private static func byte(_ line: Line) throws(TagMemoryError) -> UInt8 {
        try bytes(line, count: 1...1)[0]
    }

    private static func number(_ line: Line, digits: Int) throws(TagMemoryError) -> Int {
        let text = line.value.utf8
        guard (1...digits).contains(text.count), text.allSatisfy(isHexDigit),
            let value = Int(line.value, radix: 16)
        else { throw line.error("\"\(line.key)\" takes a hexadecimal number of 1 to \(digits) digits") }
        return value
    }

    private static func flag(_ line: Line) throws(TagMemoryError) -> Bool {
        switch line.value {
        case "yes": return true
        case "no": return false
        default: throw line.error("\"\(line.key)\" takes yes or no")
        }
    }

    private static func isHexDigit(_ char: UInt8) -> Bool {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    private static func isBlank(_ char: UInt8) -> Bool {
        char == UInt8(ascii: " ") || char == UInt8(ascii: "\t") || char == UInt8(ascii: "\r")
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }
}
