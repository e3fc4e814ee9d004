/// Helpers shared by the `Codable` forms of the typed record views (the JSON `value` object).
extension KeyedDecodingContainer {
    /// Decodes a hex string (for example a `dataHex` key) into bytes.
    func decodeHex(forKey key: Key) throws -> [UInt8] {
        let text = try decode(String.self, forKey: key)
        do {
            return try NDEFHex.decode(text)
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
