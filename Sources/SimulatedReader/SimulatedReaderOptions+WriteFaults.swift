import HexText
import NDEF
import NFCSession
import TagSimulator

extension SimulatedReaderOptions {
    /// The options of the write faults and the GET_VERSION answer
    /// (``TagSimulator/SimulatedField/Faults/nakWrite``, ``TagSimulator/SimulatedField/Faults/loseWrite``,
    /// ``TagSimulator/SimulatedField/Faults/versionAnswer``).
    struct WriteFaultOptions {
        var nakWrite: Int?
        var nakCode: UInt8?
        var nakStatus: UInt16?
        var loseWrite: Int?
        var versionAnswer: [UInt8]?

        /// Puts the options into `faults`, checking that a NAK's code or status comes with
        /// `nak-write`.
        func apply(to faults: inout SimulatedField.Faults, options: SimulatedReaderOptions) throws(NFCReaderError) {
            if nakWrite == nil, nakCode != nil || nakStatus != nil {
                let key = nakCode != nil ? "nak-code" : "nak-status"
                throw options.error("\(key) says what the refused write answers: it needs nak-write=N")
            }
            faults.nakWrite = nakWrite
            if let nakCode { faults.nakCode = nakCode }
            if let nakStatus { faults.nakStatusWord = nakStatus }
            faults.loseWrite = loseWrite
            faults.versionAnswer = versionAnswer
        }
    }

    /// The largest GET_VERSION answer `get-version` takes, in bytes.
    static let maximumVersionAnswerSize = 64

    /// Reads one write fault option; false when `key` is not one.
    mutating func takeWriteFault(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "nak-write": writeFaults.nakWrite = try number(value, key: key, range: 1...1_000_000_000)
        case "lose-write": writeFaults.loseWrite = try number(value, key: key, range: 1...1_000_000_000)
        case "nak-code":
            guard value.utf8.count == 1, let digit = try? Hex.decode("0" + value), let code = digit.first else {
                throw error("nak-code=\(value): expected one hex digit, the 4-bit NAK (5 for an EEPROM write error)")
            }
            writeFaults.nakCode = code
        case "nak-status":
            guard value.utf8.count == 4, let bytes = try? Hex.decode(value), bytes.count == 2 else {
                throw error("nak-status=\(value): expected a status word in four hex digits, as 6581")
            }
            let word = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            guard word != 0x9000 else {
                throw error("nak-status=9000 is success: a write acknowledged but not stored is lose-write=N")
            }
            writeFaults.nakStatus = word
        case "get-version":
            let digits = value.filter { $0 != ":" && $0 != "-" }
            guard let bytes = try? Hex.decode(digits), (1...Self.maximumVersionAnswerSize).contains(bytes.count)
            else {
                throw error(
                    "get-version=\(value): expected 1 to \(Self.maximumVersionAnswerSize) bytes in hex, as "
                        + "get-version=0004040502011303")
            }
            writeFaults.versionAnswer = bytes
        default:
            return false
        }
        return true
    }

    /// The URL items of the write faults in `faults`, in canonical order (Type 2 or Type 4 ones
    /// as `isType4` says).
    static func writeFaultItems(_ faults: SimulatedField.Faults, isType4: Bool) -> [String] {
        let defaults = SimulatedField.Faults()
        var items: [String] = []
        if let count = faults.nakWrite {
            items.append("nak-write=\(count)")
            if isType4, faults.nakStatusWord != defaults.nakStatusWord {
                items.append(
                    "nak-status="
                        + Hex.encode(
                            [
                                UInt8(truncatingIfNeeded: faults.nakStatusWord >> 8),
                                UInt8(truncatingIfNeeded: faults.nakStatusWord),
                            ],
                            uppercase: true, separator: ""))
            } else if !isType4, faults.nakCode != defaults.nakCode {
                items.append("nak-code=" + Hex.number(faults.nakCode & 0x0F))
            }
        }
        if let count = faults.loseWrite { items.append("lose-write=\(count)") }
        if !isType4, let version = faults.versionAnswer {
            items.append("get-version=" + Hex.encode(version, uppercase: true))
        }
        return items
    }
}
