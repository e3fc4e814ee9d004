import NFCCrypto
import TagMemory

/// A public key that signs chips' UIDs: the originality signature READ_SIG returns is its ECDSA
/// signature of the UID (NTAG213/215/216 datasheet 10.8, MF0ULX1 8.8.9; NXP application note
/// AN11350 "NTAG21x Originality Signature Validation").
///
/// The signature is `r ‖ s`, 16 bytes each on secp128r1, computed over the 7-byte UID itself as
/// the digest (no hash). NXP publishes the keys of its chip families; ``nxpNTAG21x`` and
/// ``nxpUltralightEV1`` are those of the chips this package knows. Keys of other vendors, or test
/// keys, come from PEM or DER files (``init(name:pem:)``, ``init(name:der:)``).
public struct NFCOriginalityKey: Sendable, Hashable {
    /// The key's name, shown with a signature it verified: `NXP NTAG21x key`.
    public var name: String
    /// The public key.
    public var key: ECDSAPublicKey

    /// The key of NXP's MIFARE Ultralight and NTAG21x signatures (secp128r1), as AN11350 gives it
    /// and proxmark3 lists it (client/src/cmdhfmfu.c, "NXP NTAG21x (2013)").
    public static let nxpNTAG21xPoint: [UInt8] = [
        0x04, 0x49, 0x4E, 0x1A, 0x38, 0x6D, 0x3D, 0x3C, 0xFE, 0x3D, 0xC1, 0x0E, 0x5D, 0xE6, 0x8A, 0x49, 0x9B,
        0x1C, 0x20, 0x2D, 0xB5, 0xB1, 0x32, 0x39, 0x3E, 0x89, 0xED, 0x19, 0xFE, 0x5B, 0xE8, 0xBC, 0x61,
    ]

    /// The key of NXP's MIFARE Ultralight EV1 signatures (secp128r1), as proxmark3 lists it
    /// (client/src/cmdhfmfu.c, "NXP Ultralight Ev1").
    public static let nxpUltralightEV1Point: [UInt8] = [
        0x04, 0x90, 0x93, 0x3B, 0xDC, 0xD6, 0xE9, 0x9B, 0x4E, 0x25, 0x5E, 0x3D, 0xA5, 0x53, 0x89, 0xA8, 0x27,
        0x56, 0x4E, 0x11, 0x71, 0x8E, 0x01, 0x72, 0x92, 0xFA, 0xF2, 0x32, 0x26, 0xA9, 0x66, 0x14, 0xB8,
    ]

    /// The key of NXP's NTAG 424 DNA signatures (secp224r1), as AN12196 ("NTAG 424 DNA and NTAG 424
    /// DNA TagTamper features and hints", section 7.2) gives it. Read_Sig's 56 bytes are r ‖ s
    /// over the 7-byte UID as the digest (no hash), as for NTAG21x.
    public static let nxpNTAG424Point: [UInt8] = [
        0x04, 0x8A, 0x9B, 0x38, 0x0A, 0xF2, 0xEE, 0x1B, 0x98, 0xDC, 0x41, 0x7F, 0xEC, 0xC2, 0x63, 0xF8, 0x44,
        0x9C, 0x76, 0x25, 0xCE, 0xCE, 0x82, 0xD9, 0xB9, 0x16, 0xC9, 0x92, 0xDA, 0x20, 0x9D, 0x68, 0x42, 0x2B,
        0x81, 0xEC, 0x20, 0xB6, 0x5A, 0x66, 0xB5, 0x10, 0x2A, 0x61, 0x59, 0x6A, 0xF3, 0x37, 0x92, 0x00, 0x59,
        0x93, 0x16, 0xA0, 0x0A, 0x14, 0x10,
    ]

    /// NXP's key of NTAG 424 DNA signatures; nil only when libcrypto lacks secp224r1.
    public static let nxpNTAG424DNA = try? NFCOriginalityKey(
        name: "NXP NTAG 424 DNA key", key: ECDSAPublicKey(curve: "secp224r1", point: nxpNTAG424Point))

    /// NXP's key of NTAG21x (and MIFARE Ultralight) signatures; nil only when libcrypto lacks
    /// secp128r1.
    public static let nxpNTAG21x = try? NFCOriginalityKey(
        name: "NXP NTAG21x key", key: ECDSAPublicKey(curve: "secp128r1", point: nxpNTAG21xPoint))
    /// NXP's key of MIFARE Ultralight EV1 signatures; nil only when libcrypto lacks secp128r1.
    public static let nxpUltralightEV1 = try? NFCOriginalityKey(
        name: "NXP Ultralight EV1 key", key: ECDSAPublicKey(curve: "secp128r1", point: nxpUltralightEV1Point))

    /// The NXP keys of Type 2 chips this package knows, tried in this order.
    public static var nxpKeys: [NFCOriginalityKey] { [nxpNTAG21x, nxpUltralightEV1].compactMap { $0 } }

    /// The NXP keys of NTAG 424 DNA signatures this package knows.
    public static var nxpNTAG424Keys: [NFCOriginalityKey] { [nxpNTAG424DNA].compactMap { $0 } }

    /// A key named `name`.
    public init(name: String, key: ECDSAPublicKey) {
        self.name = name
        self.key = key
    }

    /// The key in the PEM text `pem` (`-----BEGIN PUBLIC KEY-----`).
    ///
    /// - Throws: ``NFCCrypto/CryptoError/Code/invalidKey`` when it holds no elliptic-curve public key.
    public init(name: String, pem: String) throws(CryptoError) {
        self.init(name: name, key: try ECDSAPublicKey(pem: pem))
    }

    /// The key in the DER bytes `der` (a SubjectPublicKeyInfo, RFC 5480).
    ///
    /// - Throws: ``NFCCrypto/CryptoError/Code/invalidKey`` when they hold no elliptic-curve public key.
    public init(name: String, der: [UInt8]) throws(CryptoError) {
        self.init(name: name, key: try ECDSAPublicKey(der: der))
    }

    /// Checks `signature` (READ_SIG's answer) of the chip `uid` against `keys`, in order: the first
    /// that verifies it names it. An all-zero signature is reported as such, never as valid.
    ///
    /// - Throws: ``NFCCrypto/CryptoError`` only when libcrypto fails to run a check.
    public static func check(
        signature: [UInt8], uid: [UInt8], keys: [NFCOriginalityKey] = nxpKeys
    ) throws(CryptoError) -> OriginalitySignatureCheck {
        guard signature.contains(where: { $0 != 0 }) else {
            return OriginalitySignatureCheck(signature: signature, status: .allZero)
        }
        for key in keys where try key.key.isValidSignature(signature, for: uid) {
            return OriginalitySignatureCheck(signature: signature, status: .valid, keyName: key.name)
        }
        return OriginalitySignatureCheck(signature: signature, status: .notValid)
    }

    /// ``check(signature:uid:keys:)`` of a signature a tag command read, with libcrypto's
    /// failures as ``NFCReaderError/Code/unsupportedFeature``.
    static func checkRead(
        signature: [UInt8], uid: [UInt8], keys: [NFCOriginalityKey]
    ) throws(NFCReaderError) -> OriginalitySignatureCheck {
        do {
            return try check(signature: signature, uid: uid, keys: keys)
        } catch {
            throw NFCReaderError(.unsupportedFeature, "checking the originality signature: \(error.reason)")
        }
    }
}
