import NDEF
import NFCCrypto

/// An error from NTAG 424 DNA secure messaging, file settings, secure unique NFC message (SUN)
/// verification or a counter store.
///
/// ``code`` is stable and is what equality compares; ``reason`` says what happened, and never
/// holds a key or a session key.
public struct NTAG424Error: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `integrity-error`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// Input of the wrong length or form: a key that is not 16 bytes, a response that is not
        /// whole blocks, hex that is not hex.
        public static let invalidInput = Code(.invalidInput)
        /// A MAC that does not verify (NT4H2421Gx 9.1.9: INTEGRITY_ERROR), or a SUN message whose
        /// SDMMAC does not.
        public static let integrityError = Code(.integrityError)
        /// An authentication whose proof does not match: RndA' from the tag is not RndA rotated
        /// (a wrong key), or RndB' from the reader is not RndB rotated.
        public static let authenticationError = Code(.authenticationError)
        /// File settings that are not valid: an offset outside the file, overlapping mirrors,
        /// options that do not go together (NT4H2421Gx 10.7.1).
        public static let invalidSettings = Code(.invalidSettings)
        /// libcrypto failed.
        public static let crypto = Code(.crypto)
        /// A counter store (``NTAG424CounterStore``) could not decide whether a counter is new:
        /// it could not be reached, or it failed. The URL is not accepted; the request may be
        /// sent again with its token.
        public static let counterStoreUnavailable = Code(.counterStoreUnavailable)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case invalidInput = "invalid-input"
            case integrityError = "integrity-error"
            case authenticationError = "authentication-error"
            case invalidSettings = "invalid-settings"
            case crypto = "crypto"
            case counterStoreUnavailable = "counter-store-unavailable"
        }
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
