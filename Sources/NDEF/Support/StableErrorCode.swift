/// An error code with a stable identifier, in an open set: a struct with a constant per code
/// (as swift-asn1's `ASN1Error.ErrorCode`), so a later version can add codes without breaking a
/// client's `switch` (which needs a `default`). The identifiers (`invalid-type`) are what JSON
/// output and scripts see, and never change meaning.
///
/// The error codes of ``NDEFError``, and those of the tag-memory, session and provisioning
/// libraries, conform. A conforming type stores its `rawValue` and lists the
/// codes it knows in `allCases`; this protocol gives it the rest.
public protocol StableErrorCode: RawRepresentable, CaseIterable, Sendable, Hashable, Codable,
    CustomStringConvertible
where RawValue == String, AllCases == [Self] {}

extension StableErrorCode {
    /// The code whose identifier is `rawValue`, when it is one this version knows.
    public init?(rawValue: String) {
        guard let code = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = code
    }

    /// The stable identifier.
    public var description: String { rawValue }
}
