import HexText

/// JSON helpers shared by the carrier configuration and handover views.
enum CarrierJSON {
    /// The `{"type": Int, "dataHex": String}` form of an attribute or data structure that no
    /// named key covers.
    struct TypedData: Codable, Hashable {
        var type: Int
        var dataHex: String
    }

    /// Decodes hex text at `key`, or `nil` when the key is absent.
    static func hex<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> [UInt8]? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        do {
            return try Hex.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
        }
    }

    /// Decodes bytes given as UTF-8 text at `text`, or else as hex at `hex`.
    static func textOrHex<K: CodingKey>(_ container: KeyedDecodingContainer<K>, text: K, hex: K) throws -> [UInt8]? {
        if let string = try container.decodeIfPresent(String.self, forKey: text) { return Array(string.utf8) }
        return try self.hex(container, hex)
    }

    /// Encodes `bytes` as text at `text` when they are readable text (valid UTF-8 without
    /// control characters other than tab, line feed and carriage return), else as hex at `hex`.
    static func encodeTextOrHex<K: CodingKey>(
        _ bytes: some Collection<UInt8>,
        into container: inout KeyedEncodingContainer<K>,
        text: K,
        hex: K
    ) throws {
        if RecordText.isReadable(bytes), let string = CarrierCoding.utf8String(bytes) {
            try container.encode(string, forKey: text)
        } else {
            try container.encode(Hex.encode(bytes), forKey: hex)
        }
    }

    /// A decoding error at `key` that explains why a builder refused the value.
    static func invalid<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K, _ error: NDEFError)
        -> DecodingError
    {
        DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
    }

    /// A decoding error at `key` with a plain explanation.
    static func invalid<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K, _ reason: String)
        -> DecodingError
    {
        DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: reason)
    }

    /// Decodes `[TypedData]` at `key` (absent = empty) into typed values.
    static func typedData<K: CodingKey, T>(
        _ container: KeyedDecodingContainer<K>,
        _ key: K,
        maximumType: Int,
        make: (Int, [UInt8]) -> T
    ) throws -> [T] {
        guard let entries = try container.decodeIfPresent([TypedData].self, forKey: key) else { return [] }
        var out: [T] = []
        for entry in entries {
            guard entry.type >= 0, entry.type <= maximumType else {
                throw invalid(container, key, "type \(entry.type) is outside 0...\(maximumType)")
            }
            let data: [UInt8]
            do {
                data = try Hex.decode(entry.dataHex)
            } catch {
                throw invalid(container, key, NDEFError(error))
            }
            out.append(make(entry.type, data))
        }
        return out
    }
}
