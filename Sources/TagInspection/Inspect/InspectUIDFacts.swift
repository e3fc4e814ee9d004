import HexText
import NDEF
import TagMemory

/// The UID in the memory image and its check bytes.
///
/// Type 2 (NFC Forum Type 2 Tag 1.1, 2.1.1; ISO/IEC 14443-3 cascade level 2): UID0-2 in bytes
/// 0-2, BCC0 = 88h ⊕ UID0 ⊕ UID1 ⊕ UID2 in byte 3, UID3-6 in bytes 4-7, BCC1 = UID3 ⊕ UID4 ⊕
/// UID5 ⊕ UID6 in byte 8. MIFARE Classic with a 4-byte UID (MF1S50yyX, 8.6.1): UID0-3 in block 0
/// bytes 0-3 and BCC = UID0 ⊕ UID1 ⊕ UID2 ⊕ UID3 in byte 4.
package struct InspectUIDFacts: Encodable {
    /// One check byte: its value and the value it should have.
    package struct Check: Encodable {
        package var name: String
        package var value: UInt8
        package var expected: UInt8
        package var isValid: Bool { value == expected }

        private enum CodingKeys: String, CodingKey { case value, expected, valid }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Hex.encode([value]), forKey: .value)
            try container.encode(Hex.encode([expected]), forKey: .expected)
            try container.encode(isValid, forKey: .valid)
        }

        package var text: String {
            let shown = Hex.bytes([value])
            return isValid
                ? "\(name) \(shown) correct" : "\(name) \(shown) wrong, should be \(Hex.bytes([expected]))"
        }
    }

    /// The UID as stored in the memory image.
    package var uid: [UInt8]
    /// The check bytes.
    package var checks: [Check]
    /// The UID the file states when it differs from the memory image's.
    package var statedUID: [UInt8]?

    /// The UID of a Type 2 image, nil when the image is shorter than 9 bytes.
    package init?(type2 memory: [UInt8], stated: [UInt8]?) {
        guard memory.count >= 9 else { return nil }
        uid = Array(memory[0..<3] + memory[4..<8])
        checks = [
            Check(name: "BCC0", value: memory[3], expected: 0x88 ^ memory[0] ^ memory[1] ^ memory[2]),
            Check(name: "BCC1", value: memory[8], expected: memory[4] ^ memory[5] ^ memory[6] ^ memory[7]),
        ]
        statedUID = stated.flatMap { $0 == uid ? nil : $0 }
    }

    /// The UID of a MIFARE Classic image: the one the file states, else a 4-byte UID in block
    /// 0 when its BCC is right; nil otherwise (a 7-byte UID card keeps no check byte there).
    package init?(mifareClassic memory: [UInt8], stated: [UInt8]?) {
        guard memory.count >= 5 else { return nil }
        let expected = memory[0] ^ memory[1] ^ memory[2] ^ memory[3]
        if let stated, stated.count != 4 || Array(memory[0..<4]) != stated {
            uid = stated
            checks = []
            statedUID = nil
            return
        }
        guard memory[4] == expected else { return nil }
        uid = Array(memory[0..<4])
        checks = [Check(name: "BCC", value: memory[4], expected: expected)]
        statedUID = nil
    }

    private enum CodingKeys: String, CodingKey { case value, checks, statedInFile }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UIDText.json(uid), forKey: .value)
        var checks: [String: Check] = [:]
        for check in self.checks { checks[check.name.lowercased()] = check }
        try container.encode(checks, forKey: .checks)
        try container.encodeIfPresent(statedUID.map { UIDText.json($0) }, forKey: .statedInFile)
    }

    /// `UID: 04 17 28 39 4A 5B 6C; BCC0 B3 correct, BCC1 44 correct`.
    package var lines: [String] {
        var line = "UID: " + UIDText.description(uid)
        if !checks.isEmpty { line += "; " + checks.map(\.text).joined(separator: ", ") }
        var lines = [line]
        if let statedUID {
            lines.append("  the file states the UID " + UIDText.description(statedUID) + ", not the one in memory")
        }
        return lines
    }
}
