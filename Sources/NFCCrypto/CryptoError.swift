internal import CCrypto
public import NDEF

/// An error from a cryptographic operation: a key or input this module cannot use, or a
/// failure inside OpenSSL's libcrypto.
///
/// ``code`` is what equality compares; ``reason`` says what happened, with libcrypto's own
/// message where it gave one.
public struct CryptoError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `invalid-key`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// The codes this version knows, by the identifiers below.
        private enum Known: String, KnownErrorCodes {
            case invalidKey = "invalid-key"
            case invalidInput = "invalid-input"
            case unsupportedAlgorithm = "unsupported-algorithm"
            case library = "library"
        }

        /// A key of the wrong length, a PEM or DER text that holds no key of the expected kind,
        /// or a point that is not on the curve.
        public static let invalidKey = Code(.invalidKey)
        /// Input of a length the operation cannot take (a cipher block, an IV, a signature).
        public static let invalidInput = Code(.invalidInput)
        /// A curve or algorithm this build of libcrypto does not have.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// libcrypto failed for a reason of its own (out of memory, an internal error).
        public static let library = Code(.library)
    }

    /// The stable error code.
    public var code: Code
    /// A human explanation of the problem.
    public var reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The one place libcrypto's failures become ``CryptoError``: `what` failed, followed by the
    /// newest message in libcrypto's error queue, which is emptied so it cannot leak into the next
    /// error reported on this thread.
    static func library(_ what: String, code: Code = .library) -> CryptoError {
        var newest: UInt = 0
        while case let error = ERR_get_error(), error != 0 { newest = error }
        guard newest != 0 else { return CryptoError(code, what) }
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(newest, $0.baseAddress, $0.count) }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CryptoError(code, "\(what) (libcrypto: \(text))")
    }
}
