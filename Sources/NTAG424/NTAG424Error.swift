import NDEF
import NFCCrypto

/// An error from NTAG 424 DNA secure messaging, file settings or secure unique NFC message
/// (SUN) verification.
///
/// ``code`` is stable and is what equality compares; ``reason`` says what happened, and never
/// holds a key or a session key.
public struct NTAG424Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `integrity-error`.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// Input of the wrong length or form: a key that is not 16 bytes, a response that is not
        /// whole blocks, hex that is not hex.
        public static let invalidInput = Code("invalid-input")
        /// A MAC that does not verify (NT4H2421Gx 9.1.9: INTEGRITY_ERROR), or a SUN message whose
        /// SDMMAC does not.
        public static let integrityError = Code("integrity-error")
        /// An authentication whose proof does not match: RndA' from the tag is not RndA rotated
        /// (a wrong key), or RndB' from the reader is not RndB rotated.
        public static let authenticationError = Code("authentication-error")
        /// File settings that are not valid: an offset outside the file, overlapping mirrors,
        /// options that do not go together (NT4H2421Gx 10.7.1).
        public static let invalidSettings = Code("invalid-settings")
        /// libcrypto failed.
        public static let crypto = Code("crypto")

        /// Every code this version knows, in the order above.
        public static let allCases: [Code] = [
            .invalidInput, .integrityError, .authenticationError, .invalidSettings, .crypto,
        ]
    }

    /// The stable error code.
    public var code: Code
    /// A human explanation, without secrets.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// A libcrypto failure as an error of this module.
    init(_ error: CryptoError) {
        self.init(error.code == .invalidKey ? .invalidInput : .crypto, error.reason)
    }

    public static func == (lhs: NTAG424Error, rhs: NTAG424Error) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: reason`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
