import HexText

/// Where one record of a message lies in its bytes, as `ndeftool decode -v` shows it: the header
/// byte and its flags, and the byte ranges of the type, the ID and the payload (NFC Forum NDEF
/// 1.0, section 3.2: header, TYPE LENGTH, PAYLOAD LENGTH of 1 byte with SR or 4, ID LENGTH with
/// IL, then TYPE, ID, PAYLOAD).
///
/// A record sent in chunks (CF, section 2.3.3) is one record of the decoded message but several
/// on the wire: ``scan(_:)`` groups them, so that the groups match the message's records.
package struct RecordLayout: Sendable, Hashable {
    /// The offset of the header byte.
    package var offset: Int
    /// The header byte: MB, ME, CF, SR, IL and the TNF.
    package var header: UInt8
    /// The offset of the type and its length.
    package var typeOffset: Int
    package var typeLength: Int
    /// The offset of the ID and its length (0 without IL).
    package var idOffset: Int
    package var idLength: Int
    /// The offset of the payload and its length.
    package var payloadOffset: Int
    package var payloadLength: Int

    /// The offset just past the record.
    package var end: Int { payloadOffset + payloadLength }

    /// The records of `bytes` on the wire, grouped by the record of the message they make up
    /// (chunks together); nil when the bytes do not walk as a well-formed sequence of records.
    package static func scan(_ bytes: [UInt8]) -> [[RecordLayout]]? {
        var groups: [[RecordLayout]] = []
        var chunks: [RecordLayout] = []
        var offset = 0
        while offset < bytes.count {
            guard let record = record(in: bytes, at: offset) else { return nil }
            chunks.append(record)
            if record.header & 0x20 == 0 {
                groups.append(chunks)
                chunks = []
            }
            offset = record.end
            if record.header & 0x40 != 0 { break }
        }
        guard chunks.isEmpty, offset == bytes.count else { return nil }
        return groups
    }

    /// The record whose header is at `offset`, nil when it does not fit in `bytes`.
    private static func record(in bytes: [UInt8], at offset: Int) -> RecordLayout? {
        var index = offset
        func next() -> Int? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return Int(bytes[index])
        }
        guard let header = next(), let typeLength = next() else { return nil }
        var payloadLength = 0
        for _ in 0..<(header & 0x10 != 0 ? 1 : 4) {
            guard let byte = next() else { return nil }
            payloadLength = payloadLength << 8 | byte
        }
        var idLength = 0
        if header & 0x08 != 0 {
            guard let length = next() else { return nil }
            idLength = length
        }
        let typeOffset = index
        let idOffset = typeOffset + typeLength
        let payloadOffset = idOffset + idLength
        guard payloadLength <= bytes.count, payloadOffset <= bytes.count - payloadLength else { return nil }
        return RecordLayout(
            offset: offset, header: UInt8(truncatingIfNeeded: header), typeOffset: typeOffset,
            typeLength: typeLength, idOffset: idOffset, idLength: idLength, payloadOffset: payloadOffset,
            payloadLength: payloadLength)
    }

    /// The flags set in the header, by their names in NDEF 1.0, 3.2: `MB ME SR`.
    package var flags: String {
        let names: [(UInt8, String)] = [(0x80, "MB"), (0x40, "ME"), (0x20, "CF"), (0x10, "SR"), (0x08, "IL")]
        let set = names.filter { header & $0.0 != 0 }.map(\.1)
        return set.isEmpty ? "no flags" : set.joined(separator: " ")
    }

    /// `bytes 0-15: header D1h (MB ME SR), type at byte 3, payload at bytes 4-15`.
    package var line: String {
        var parts = [
            "\(Self.range(offset, end - offset)): header \(Hex.byte(header))h (\(flags))"
        ]
        parts.append(typeLength == 0 ? "no type" : "type at \(Self.range(typeOffset, typeLength))")
        if header & 0x08 != 0 { parts.append(idLength == 0 ? "empty ID" : "ID at \(Self.range(idOffset, idLength))") }
        parts.append(payloadLength == 0 ? "no payload" : "payload at \(Self.range(payloadOffset, payloadLength))")
        return parts.joined(separator: ", ")
    }

    /// `byte 3`, `bytes 4-15`.
    package static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "byte \(start)" : "bytes \(start)-\(start + count - 1)"
    }
}
