import NFCSession
import NFCWireFormat

/// Picking the reader a URL names from pcscd's list, and percent-encoding.
extension PCSCReaderURL {
    /// The reader name ``selector`` picks from `readers` (pcscd's list, in its order).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the list is empty or
    ///   nothing matches (the message lists the readers there are, and explains the usual cause
    ///   of an empty list); ``NFCSession/NFCReaderError/Code/invalidParameter`` when a prefix
    ///   matches several readers.
    public func resolve(among readers: [String]) throws(NFCReaderError) -> String {
        guard !readers.isEmpty else {
            throw NFCReaderError(
                .readerUnavailable,
                "pcscd lists no reader (SCARD_E_NO_READERS_AVAILABLE). " + PCSCError.kernelDriverHint)
        }
        let list = readers.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "; ")
        switch selector {
        case .first:
            return readers[0]
        case .index(let index):
            guard readers.indices.contains(index) else {
                throw NFCReaderError(.readerUnavailable, "there is no reader \(index); pcscd lists \(list)")
            }
            return readers[index]
        case .name(let name):
            if let exact = readers.first(where: { $0 == name }) { return exact }
            let lower = name.lowercased()
            if let exact = readers.first(where: { $0.lowercased() == lower }) { return exact }
            let matches = readers.filter { $0.lowercased().hasPrefix(lower) }
            guard let match = matches.first else {
                throw NFCReaderError(.readerUnavailable, "no reader is named \"\(name)\"; pcscd lists \(list)")
            }
            guard matches.count == 1 else {
                throw NFCReaderError(
                    .invalidParameter,
                    "\"\(name)\" starts the names of \(matches.count) readers (\(matches.joined(separator: "; "))): "
                        + "give more of the name, or the reader's index")
            }
            return match
        }
    }

    /// `text` with `%XX` escapes decoded as UTF-8.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a `%` not followed by
    ///   two hex digits, or escapes that are not UTF-8.
    static func percentDecoded(_ text: String, url: String) throws(NFCReaderError) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let high = hexValue(rest[rest.startIndex]),
                let low = hexValue(rest[rest.startIndex + 1])
            else {
                throw error(url, "\"%\" must be followed by two hex digits (%20 for a space)")
            }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw error(url, "the percent escapes are not UTF-8")
        }
        return decoded
    }

    /// `text` with everything but letters, digits and `-._~` percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                    || "-._~".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + WireHex.byte(byte)
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
