import HexText
import NDEF
import NFCSession
import TagMemory
import TagSimulator

/// The options of a ``SimulatedReaderURL`` as they are read, one `key=value` item at a time.
struct SimulatedReaderOptions {
    /// The whole URL, for error messages.
    let url: String
    /// Whether the URL names a Type 4 tag (`sim:type4`), which takes the Type 4 options.
    let isType4: Bool
    /// Whether the chip is an NTAG 424 DNA (`sim:ntag424`), whose Read_Sig takes `signature` and
    /// `signing-key` too.
    let isNTAG424: Bool
    /// Whether the URL names a MIFARE Classic card (`sim:classic1k`), which takes `nak-code` but
    /// no other Type 2 option, and a UID of 4 or 7 bytes.
    let isClassic: Bool
    var filePath: String?
    var uid: [UInt8]?
    var signature: [UInt8]?
    var signingKeyPath: String?
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
    /// `signal-after=N`: the process signals itself after N tag commands.
    var signalAfter: Int?
    /// `signal=NAME`: the signal `signal-after` sends.
    var signalName: SimulatedReaderURL.ProcessSignal.Name?
    /// `gen1a=1`: a MIFARE Classic card that answers the Gen1a backdoor (a magic clone).
    var gen1a = false
    /// `mode=lrp`: an NTAG 424 DNA in LRP mode.
    var lrpMode = false
    /// Whether the URL names an NTAG 424 DNA TT (`sim:ntag424tt`), which takes `tamper`.
    let isTagTamper: Bool
    /// `tamper=open|closed`: the tamper loop of an NTAG 424 DNA TT.
    var tamperLoopOpen: Bool?
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
    static let type2Keys = ["nak-code", "get-version", "signature", "signing-key"]
    /// The keys only MIFARE Classic cards understand.
    static let classicKeys = ["gen1a"]
    /// The keys only NTAG 424 DNA tags understand.
    static let ntag424Keys = ["mode", "tamper"]
    /// Every key understood.
    static let keys =
        commonKeys + ["nak-write", "lose-write"] + type2Keys + type4Keys + classicKeys + ntag424Keys + supplyKeys
        + unplugKeys
        + processSignalKeys

    init(url: String, isType4: Bool, isNTAG424: Bool = false, isClassic: Bool = false, isTagTamper: Bool = false) {
        self.url = url
        self.isTagTamper = isTagTamper
        self.isType4 = isType4
        self.isNTAG424 = isNTAG424
        self.isClassic = isClassic
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
        // An NTAG 424 DNA has an originality signature too (Read_Sig, NT4H2421Gx 10.10.1).
        if Self.type2Keys.contains(key), isType4, !(isNTAG424 && ["signature", "signing-key"].contains(key)) {
            throw error("option \"\(key)\" is for Type 2 chips only, not sim:\(SimulatedReaderURL.type4ChipName)")
        }
        if isClassic, Self.type2Keys.contains(key), key != "nak-code" {
            throw error("option \"\(key)\" is for NTAG and Ultralight chips, not MIFARE Classic")
        }
        if Self.classicKeys.contains(key), !isClassic {
            throw error("option \"\(key)\" is for MIFARE Classic cards only (sim:classic1k, classic4k, classic-mini)")
        }
        if Self.ntag424Keys.contains(key), !isNTAG424 {
            throw error("option \"\(key)\" is for NTAG 424 DNA tags only (sim:\(SimulatedReaderURL.ntag424ChipName))")
        }
        if Self.type4Keys.contains(key), !isType4 {
            throw error("option \"\(key)\" is for Type 4 tags only (sim:\(SimulatedReaderURL.type4ChipName))")
        }
        if try takeWriteFault(key: key, value: value) { return }
        if try takeSupply(key: key, value: value) { return }
        if try takeUnplug(key: key, value: value) { return }
        if try takeProcessSignal(key: key, value: value) { return }
        if Self.type4Keys.contains(key) {
            try takeType4(key: key, value: value)
            return
        }
        switch key {
        case "file": filePath = value
        case "uid": uid = try parseUID(value)
        case "signature":
            let count = isNTAG424 ? 56 : 32
            guard let bytes = try? Hex.decode(value.filter { $0 != ":" && $0 != "-" }), bytes.count == count else {
                throw error(
                    "signature=\(value): expected the \(count) bytes of \(isNTAG424 ? "Read_Sig" : "READ_SIG") in hex "
                        + "(\(count * 2) digits)")
            }
            signature = bytes
        case "signing-key": signingKeyPath = value
        case "remove-after": removeAfter = try number(value, key: key, range: 0...1_000_000_000)
        case "in-flight":
            guard let outcome = SimulatedField.InFlightOutcome(rawValue: value.lowercased()) else {
                throw error("in-flight=\(value): expected complete, none or tear")
            }
            inFlight = outcome
        case "tear": tear = try boolean(value, key: key)
        case "second-tag": secondTag = try boolean(value, key: key)
        case "gen1a": gen1a = try boolean(value, key: key)
        case "tamper":
            guard isTagTamper else {
                throw error(
                    "option \"tamper\" is for NTAG 424 DNA TT tags only (sim:\(SimulatedReaderURL.ntag424TTChipName))")
            }
            guard ["open", "closed"].contains(value.lowercased()) else {
                throw error("tamper=\(value): expected closed or open (the tamper loop)")
            }
            tamperLoopOpen = value.lowercased() == "open"
        case "mode":
            guard ["aes", "lrp"].contains(value.lowercased()) else {
                throw error("mode=\(value): expected aes (the factory's) or lrp")
            }
            lrpMode = value.lowercased() == "lrp"
        case "latency-ms":
            latency = try number(value, key: key, range: 0...SimulatedReaderURL.maximumLatencyMilliseconds)
        default: corruptEvery = try number(value, key: key, range: 1...1_000_000_000)
        }
    }

    /// Refuses `signature` with `signing-key`: a tag has one signature.
    func checkSignatureOptions() throws(NFCReaderError) {
        if signature != nil && signingKeyPath != nil {
            throw error("signature and signing-key both give the READ_SIG answer: give one")
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
                    + "\(bytes[offset] == 0 ? "NUL" : "0x" + Hex.number(bytes[offset], uppercase: false))): refused")
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

    /// A 7-byte UID (ISO/IEC 14443-3 6.5.4: double size) for a Type 2 chip; 4 or 7 bytes for a
    /// MIFARE Classic card; 4, 7 or 10 bytes (single, double or triple size) for a Type 4 tag. Bytes are optionally separated by `:`
    /// or `-`. UID0 may not be 88h, the cascade tag.
    private func parseUID(_ value: String) throws(NFCReaderError) -> [UInt8] {
        let digits = value.filter { $0 != ":" && $0 != "-" }
        let sizes = isType4 ? [4, 7, 10] : isClassic ? [4, 7] : [7]
        guard let bytes = try? Hex.decode(digits), sizes.contains(bytes.count) else {
            let expected =
                isType4
                ? "4, 7 or 10 bytes in hex (8, 14 or 20 digits)"
                : isClassic ? "4 or 7 bytes in hex (8 or 14 digits)" : "7 bytes in hex (14 digits)"
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
                result += "%" + Hex.encode([byte], uppercase: true)
            }
        }
        return result
    }
}

extension SimulatedReaderOptions {
    /// The options of an unplugged reader (``SimulatedReaderURL/Unplug``).
    struct UnplugOptions {
        var afterCommands: Int?
        var milliseconds: Int?
    }

    /// The keys of an unplugged reader.
    static let unplugKeys = ["unplug-after", "unplug-ms"]

    /// The longest time away, in milliseconds: one hour.
    static let maximumUnplugMilliseconds = 3_600_000

    /// Reads one unplug option; false when `key` is not one.
    mutating func takeUnplug(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "unplug-after": unplug.afterCommands = try number(value, key: key, range: 0...1_000_000_000)
        case "unplug-ms": unplug.milliseconds = try number(value, key: key, range: 0...Self.maximumUnplugMilliseconds)
        default: return false
        }
        return true
    }

    /// The unplug the options describe; nil without `unplug-after`.
    func unplugSettings() throws(NFCReaderError) -> SimulatedReaderURL.Unplug? {
        guard let afterCommands = unplug.afterCommands else {
            if unplug.milliseconds != nil {
                throw error("unplug-ms says how long the reader stays away: it needs unplug-after=N")
            }
            return nil
        }
        return SimulatedReaderURL.Unplug(afterCommands: afterCommands, milliseconds: unplug.milliseconds)
    }
}

extension SimulatedReaderOptions {
    /// The options of a tag supply (``SimulatedReaderURL/Supply``).
    struct SupplyOptions {
        var count: Int?
        var seed: UInt64?
        var duplicate: Int?
        var swapMilliseconds: Int?
    }

    /// The keys of a tag supply.
    static let supplyKeys = ["supply", "seed", "duplicate", "swap-ms"]

    /// The largest supply, in tags.
    static let maximumSupply = 100_000

    /// Reads one supply option; false when `key` is not one.
    mutating func takeSupply(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "supply": supply.count = try number(value, key: key, range: 1...Self.maximumSupply)
        case "seed":
            guard value.utf8.count <= 20, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let seed = UInt64(value)
            else { throw error("seed=\(value): expected a whole number from 0 to \(UInt64.max)") }
            supply.seed = seed
        case "duplicate": supply.duplicate = try number(value, key: key, range: 1...Self.maximumSupply)
        case "swap-ms":
            supply.swapMilliseconds = try number(
                value, key: key, range: 0...SimulatedReaderURL.maximumLatencyMilliseconds)
        default:
            return false
        }
        return true
    }

    /// The supply the options describe, checked against the other options; nil without `supply`.
    func supplySettings() throws(NFCReaderError) -> SimulatedReaderURL.Supply? {
        guard let count = supply.count else {
            if supply.seed != nil || supply.duplicate != nil || supply.swapMilliseconds != nil {
                throw error("seed, duplicate and swap-ms describe a supply of tags: they need supply=N")
            }
            return nil
        }
        if let duplicate = supply.duplicate, duplicate > count {
            throw error("duplicate=\(duplicate): the supply has only \(count) tags")
        }
        if uid != nil { throw error("uid= names one tag: a supply's UIDs come from seed=S") }
        if secondTag { throw error("second-tag=1 cannot be used with supply: the supply has one tag in the field") }
        if let filePath, !filePath.hasSuffix("/") {
            throw error("file=\(filePath): with supply, file= names a directory, ending in \"/\" (file=tags/)")
        }
        return SimulatedReaderURL.Supply(
            count: count, seed: supply.seed ?? SimulatedReaderURL.Supply.defaultSeed, duplicate: supply.duplicate,
            swapMilliseconds: supply.swapMilliseconds ?? 0)
    }
}

extension SimulatedReaderOptions {
    /// Reads one Type 4 option (``SimulatedReaderURL/Type4Settings``).
    mutating func takeType4(key: String, value: String) throws(NFCReaderError) {
        switch key {
        case "version": type4.majorVersion = try version(value)
        case "v1": versionOne = try boolean(value, key: key)
        case "mle": type4.maximumResponseDataSize = try number(value, key: key, range: 15...0xFFFF)
        case "mlc": type4.maximumCommandDataSize = try number(value, key: key, range: 1...0xFFFF)
        case "ndef-size":
            type4.maximumNDEFFileSize = try number(
                value, key: key, range: 5...SimulatedType4Tag.Configuration.maximumSimulatedFileSize)
        case "read-access": type4.readAccess = try access(value, key: key)
        case "write-access": type4.writeAccess = try access(value, key: key)
        default: type4.isCapabilityContainerWritable = try boolean(value, key: key)
        }
    }

    /// The Type 4 options, checked as a whole: `v1` against `version`, `ndef-size` against the
    /// version, and the capability container they make.
    func type4Settings() throws(NFCReaderError) -> SimulatedReaderURL.Type4Settings {
        var settings = type4
        if let versionOne {
            if let major = settings.majorVersion, (major == 1) != versionOne {
                throw error("v1=\(versionOne ? 1 : 0) contradicts version=\(major)")
            }
            if versionOne { settings.majorVersion = 1 }
        }
        let major = settings.majorVersion ?? SimulatedType4Tag.Configuration().majorVersion
        if let size = settings.maximumNDEFFileSize {
            let range = major >= 3 ? 7...SimulatedType4Tag.Configuration.maximumSimulatedFileSize : 5...0x7FFF
            guard range.contains(size) else {
                let more = major < 3 ? "; version=3 allows larger files" : ""
                throw error(
                    "ndef-size=\(size): mapping version \(major).0 allows \(range.lowerBound) to \(range.upperBound) "
                        + "bytes\(more)")
            }
        }
        do {
            _ = try settings.configuration(uid: uid).capabilityContainer()
        } catch {
            throw self.error("the Type 4 options make no valid capability container: \(error.reason)")
        }
        return settings
    }

    /// `1`, `2` or `3` (or `1.0`, `2.0`, `3.0`): the major mapping version.
    private func version(_ value: String) throws(NFCReaderError) -> Int {
        switch value {
        case "1", "1.0": 1
        case "2", "2.0": 2
        case "3", "3.0": 3
        default: throw error("version=\(value): expected 1, 2 or 3 (Type 4 mapping version 1.0, 2.0 or 3.0)")
        }
    }

    /// An access condition byte in two hex digits: `00`, `FF` or `80`-`FE` (NFC Forum Type 4
    /// Tag 3.0, 5.1.2); `01`-`7F` are reserved.
    private func access(_ value: String, key: String) throws(NFCReaderError) -> Type4AccessCondition {
        guard value.utf8.count == 2, let byte = try? Hex.decode(value), let first = byte.first else {
            throw error("\(key)=\(value): expected one byte in hex: 00, FF or 80 to FE")
        }
        let condition = Type4AccessCondition(rawValue: first)
        guard !condition.isReserved else {
            throw error("\(key)=\(value): 01 to 7F are reserved (Type 4 Tag 3.0, 5.1.2); expected 00, FF or 80 to FE")
        }
        return condition
    }
}
