import HexText

/// Helpers shared by the `Codable` forms of the typed record views (the JSON `value` object).
extension KeyedDecodingContainer {
    /// Decodes a hex string (for example a `dataHex` key) into bytes.
    func decodeHex(forKey key: Key) throws -> [UInt8] {
        let text = try decode(String.self, forKey: key)
        do {
            return try Hex.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.description)
        }
    }

    /// Decodes a hex string when the key is present.
    func decodeHexIfPresent(forKey key: Key) throws -> [UInt8]? {
        guard contains(key) else { return nil }
        return try decodeHex(forKey: key)
    }

    /// Decodes an integer that must fit in `T` (for example a byte), with a clear error otherwise.
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try decode(Int64.self, forKey: key)
        guard let exact = T(exactly: value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "\(value) is out of range \(T.min)...\(T.max)"
            )
        }
        return exact
    }
}

/// What a JSON key holds: nothing (use the default), an explicit `null` (leave the attribute
/// out), or a value.
enum JSONField<T> {
    case absent
    case null
    case value(T)

    /// `.value` for a value, `.null` for `nil`: how a parsed property is written.
    init(_ value: T?) {
        self = value.map(JSONField.value) ?? .null
    }

    /// The value, `default` when absent, `nil` when explicitly null.
    func resolved(default value: T) -> T? {
        switch self {
        case .absent: value
        case .null: nil
        case .value(let found): found
        }
    }

    /// The value, or `nil` when absent or null.
    var value: T? {
        if case .value(let found) = self { return found }
        return nil
    }

    /// The field at the first of `keys` present in `container`, read by `read`.
    static func decode<K: CodingKey>(
        _ container: KeyedDecodingContainer<K>,
        _ keys: [K],
        _ read: (K) throws -> T?
    ) throws -> JSONField<T> {
        for key in keys where container.contains(key) {
            if try container.decodeNil(forKey: key) { return .null }
            if let value = try read(key) { return .value(value) }
        }
        return .absent
    }
}
