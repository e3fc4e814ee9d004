/// The cipher an NTAG 424 DNA speaks (NT4H2421Gx datasheet 9.1): AES-128 as it leaves the
/// factory, or NXP's Leakage Resilient Primitive (LRP, AN12304) once SetConfiguration option
/// 05h has switched it, for good. The mode decides the authentication (AuthenticateEV2First or
/// AuthenticateLRPFirst), the secure messaging, and how SDM encrypts PICCData and file data and
/// computes its MAC (9.3.9).
public enum NTAG424CryptoMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AES-128 secure messaging and SDM (the factory mode).
    case aes = "AES"
    /// LRP secure messaging and SDM (AN12304; PDCap2.1 = 02h).
    case lrp = "LRP"

    /// The length of encrypted PICCData in this mode: 16 bytes in AES, 24 in LRP (an 8-byte
    /// PICCRand before the 16-byte ciphertext, NT4H2421Gx 9.3.4).
    public var piccDataLength: Int { self == .aes ? 16 : 24 }

    /// `AES` or `LRP`.
    public var description: String { rawValue }
}
