/// An error code with a stable identifier, in an open set: a struct with a constant per code
/// (as swift-asn1's `ASN1Error.ErrorCode`), so a later version can add codes without breaking a
/// client's `switch` (which needs a `default`). The identifiers are kebab-case
/// (`invalid-type`, `tag-connection-lost`), are what JSON output and scripts see, and never
/// change meaning.
///
/// The codes of every error this package throws conform (``NDEFToolError``). A conforming type
/// backs its constants with a private enum of the codes it knows, so that `allCases` is
/// derived from the one list, never kept by hand:
///
/// ```swift
/// public struct Code: StableErrorCode {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }
///     private init(_ known: Known) { rawValue = known.rawValue }
///     public static var allCases: [Code] { Known.allCases.map(Code.init) }
///
///     private enum Known: String, KnownErrorCodes {
///         case emptyInput = "empty-input"
///     }
///     public static let emptyInput = Code(.emptyInput)
/// }
/// ```
///
/// ``init(rawValue:)`` never fails: a code a newer version wrote (in a journal, in JSON) keeps
/// its identifier, and ``isKnown`` tells that this version has no constant for it.
public protocol StableErrorCode: RawRepresentable, CaseIterable, Sendable, Hashable, Codable,
    CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    /// The code `rawValue` names: one of `allCases`, or one this version does not know, kept
    /// as it is. A code's former spelling (the camelCase of its constant, `malformedPlan`) is
    /// read as its identifier (`malformed-plan`).
    init(rawValue: String)
}

extension StableErrorCode {
    /// The stable identifier.
    public var description: String { rawValue }

    /// Whether this version knows the code (it is one of `allCases`).
    public var isKnown: Bool { Self.allCases.contains(self) }

    /// Decodes the identifier; a code this version does not know keeps its identifier.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The private enum behind a ``StableErrorCode``: one case per code this version knows, its raw
/// value the kebab-case identifier.
public protocol KnownErrorCodes: RawRepresentable, CaseIterable where RawValue == String {}

extension KnownErrorCodes {
    /// The identifier `text` stands for: itself, or the identifier of the code whose case name
    /// it is (the camelCase spelling some codes had before they were kebab-case).
    public static func identifier(_ text: String) -> String {
        if Self(rawValue: text) != nil { return text }
        return allCases.first { String(describing: $0) == text }?.rawValue ?? text
    }
}
