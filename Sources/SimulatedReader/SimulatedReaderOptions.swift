import NDEF
import NFCSession
import TagSimulator

/// The options of a ``SimulatedReaderURL`` as they are read, one `key=value` item at a time.
struct SimulatedReaderOptions {
    /// The whole URL, for error messages.
    let url: String
    /// Whether the URL names a Type 4 tag (`sim:type4`), which takes the Type 4 options.
    let isType4: Bool
    var filePath: String?
    var uid: [UInt8]?
    var removeAfter: Int?
    var inFlight: SimulatedField.InFlightOutcome?
    var tear: Bool?
    var secondTag = false
    var latency: Int?
    var corruptEvery: Int?
    /// The write fault options read so far.
    var writeFaults = WriteFaultOptions()
    /// The Type 4 options read so far.
    var type4 = SimulatedReaderURL.Type4Settings()
    /// The supply options read so far.
    var supply = SupplyOptions()
    /// The unplug options read so far.
    var unplug = UnplugOptions()
    /// `v1=`, another way to say `version=1`.
    var versionOne: Bool?
    /// The keys met so far.
    private var seen: Set<String> = []

    /// The keys every URL understands.
    static let commonKeys = [
        "file", "uid", "remove-after", "in-flight", "tear", "second-tag", "latency-ms", "corrupt-every",
    ]
    /// The keys only `sim:type4` understands.
    static let type4Keys = [
        "version", "v1", "mle", "mlc", "ndef-size", "read-access", "write-access", "cc-writable", "nak-status",
    ]
    /// The keys only Type 2 chips understand.
    static let type2Keys = ["nak-code", "get-version"]
    /// Every key understood.
    static let keys = commonKeys + ["nak-write", "lose-write"] + type2Keys + type4Keys + supplyKeys + unplugKeys

    init(url: String, isType4: Bool) {
        self.url = url
        self.isType4 = isType4
    }

    /// Reads one `key=value` item.
    mutating func take(_ item: Substring) throws(NFCReaderError) {
        guard let equals = item.firstIndex(of: "=") else {
            let what =
                item.isEmpty ? "an empty option (two \"&\" in a row, or a trailing \"&\" or \"?\")" : "\"\(item)\""
            throw error("\(what) is not KEY=VALUE")
        }
        let key = item[..<equals].lowercased()
        let rawValue = item[item.index(after: equals)...]
        guard Self.keys.contains(key) else {
            throw error("unknown option \"\(item[..<equals])\"; options: \(Self.keys.joined(separator: ", "))")
        }
        guard seen.insert(key).inserted else { throw error("option \"\(key)\" is given twice") }
        let value = try decoded(rawValue, key: key)
        guard !value.isEmpty else { throw error("option \"\(key)\" has no value") }
        if Self.type2Keys.contains(key), isType4 {
            throw error("option \"\(key)\" is for Type 2 chips only, not sim:\(SimulatedReaderURL.type4ChipName)")
        }
        if Self.type4Keys.contains(key), !isType4 {
            throw error("option \"\(key)\" is for Type 4 tags only (sim:\(SimulatedReaderURL.type4ChipName))")
        }
        if try takeWriteFault(key: key, value: value) { return }
        if try takeSupply(key: key, value: value) { return }
        if try takeUnplug(key: key, value: value) { return }
        if Self.type4Keys.contains(key) {
            try takeType4(key: key, value: value)
            return
        }
        switch key {
        case "file": filePath = value
        case "uid": uid = try parseUID(value)
        case "remove-after": removeAfter = try number(value, key: key, range: 0...1_000_000_000)
        case "in-flight":
            guard let outcome = SimulatedField.InFlightOutcome(rawValue: value.lowercased()) else {
                throw error("in-flight=\(value): expected complete, none or tear")
            }
            inFlight = outcome
        case "tear": tear = try boolean(value, key: key)
        case "second-tag": secondTag = try boolean(value, key: key)
        case "latency-ms":
            latency = try number(value, key: key, range: 0...SimulatedReaderURL.maximumLatencyMilliseconds)
        default: corruptEvery = try number(value, key: key, range: 1...1_000_000_000)
        }
    }

    /// The faults the options describe, checked as a whole.
    func faults() throws(NFCReaderError) -> SimulatedField.Faults {
        var outcome = inFlight ?? .doesNothing
        if let tear {
            if let inFlight, inFlight != .tearsPage, tear {
                throw error("tear=1 contradicts in-flight=\(inFlight.rawValue)")
            }
            if tear { outcome = .tearsPage }
        }
        if removeAfter == nil, inFlight != nil || tear == true {
            throw error(
                "\(inFlight != nil ? "in-flight" : "tear") says what the command in flight does when the "
                    + "tag leaves: it needs remove-after=N")
        }
        var faults = SimulatedField.Faults(
            removeAfterCommands: removeAfter, inFlight: outcome, secondTag: secondTag,
            latencyMilliseconds: latency, corruptEveryNthResponse: corruptEvery)
        try writeFaults.apply(to: &faults, options: self)
        return faults
    }

    func error(_ reason: String) -> NFCReaderError {
        SimulatedReaderURL.error(url, reason)
    }

    /// `text` with `%XX` sequences decoded as UTF-8.
    private func decoded(_ text: Substring, key: String) throws(NFCReaderError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { throw error("option \"\(key)\": \"%\" must be followed by two hex digits") }
            bytes.append(high << 4 | low)
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw error("option \"\(key)\": the percent-encoded value is not UTF-8")
        }
        // A NUL would cut a path short (another file would be read and written), and no value
        // holds a control character.
        if let offset = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw error(
                "option \"\(key)\": the value holds a control character (byte \(offset) of it, "
                    + "\(bytes[offset] == 0 ? "NUL" : "0x" + String(bytes[offset], radix: 16))): refused")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func number(_ value: String, key: String, range: ClosedRange<Int>) throws(NFCReaderError) -> Int {
        guard value.utf8.count <= 10, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(value),
            range.contains(number)
        else {
            throw error("\(key)=\(value): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func boolean(_ value: String, key: String) throws(NFCReaderError) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw error("\(key)=\(value): expected 1 or 0")
        }
    }

    /// A 7-byte UID (ISO/IEC 14443-3 6.5.4: double size) for a Type 2 chip; 4, 7 or 10 bytes
    /// (single, double or triple size) for a Type 4 tag. Bytes are optionally separated by `:`
    /// or `-`. UID0 may not be 88h, the cascade tag.
    private func parseUID(_ value: String) throws(NFCReaderError) -> [UInt8] {
        let digits = value.filter { $0 != ":" && $0 != "-" }
        let sizes = isType4 ? [4, 7, 10] : [7]
        guard let bytes = try? NDEFHex.decode(digits), sizes.contains(bytes.count) else {
            let expected = isType4 ? "4, 7 or 10 bytes in hex (8, 14 or 20 digits)" : "7 bytes in hex (14 digits)"
            throw error("uid=\(value): expected \(expected), as in uid=04A1B2C3D4E5F6")
        }
        guard bytes[0] != 0x88 else {
            throw error("uid=\(value): a UID cannot start with 88h, the cascade tag (ISO/IEC 14443-3 6.5.4)")
        }
        return bytes
    }

    /// `text` with every byte outside letters, digits and `-._~/` percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~/".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + NDEFHex.encode([byte], uppercase: true, separator: "")
            }
        }
        return result
    }
}
