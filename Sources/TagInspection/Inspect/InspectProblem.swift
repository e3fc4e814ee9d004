import TagMemory

/// A problem found in the tag's memory, as JSON shows it: `{"code", "offset", "reason"}`.
package struct InspectProblem: Encodable {
    /// The stable code, for example `malformed-tlv`.
    package var code: String
    /// The byte address, when one applies.
    package var offset: Int?
    /// What is wrong.
    package var reason: String

    package init(_ error: TagMemoryError) {
        code = error.code.rawValue
        offset = error.offset
        reason = error.reason
    }

    private enum CodingKeys: String, CodingKey { case code, offset, reason }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(offset, forKey: .offset)
        try container.encode(reason, forKey: .reason)
    }
}
