internal import CCrypto

/// AES (FIPS 197) through libcrypto: single blocks (ECB) and CBC without padding (NIST SP
/// 800-38A), the modes NTAG 424 DNA secure messaging uses (NT4H2421Gx datasheet, 9.1; AN12196).
///
/// The key stays in this value; its description never shows it.
public struct AES: Sendable, CustomStringConvertible {
    /// The length of a block in bytes.
    public static let blockCount = 16

    private let key: [UInt8]

    /// A cipher under `key`: 16, 24 or 32 bytes (AES-128, -192, -256).
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` for a key of another length.
    public init(key: some Collection<UInt8>) throws(CryptoError) {
        guard Self.cbcName(keyCount: key.count) != nil else {
            throw CryptoError(.invalidKey, "an AES key is 16, 24 or 32 bytes, not \(key.count)")
        }
        self.key = Array(key)
    }

    /// `plaintext` encrypted in CBC mode from `iv` (16 bytes; zeros by default), without padding:
    /// the plaintext must be whole blocks. One block with the zero IV is that block in ECB mode.
    ///
    /// - Throws: ``CryptoError/Code/invalidInput`` when the input is not whole blocks or the IV
    ///   is not one block.
    public func encrypt(_ plaintext: some Collection<UInt8>, iv: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        try crypt(plaintext, iv: iv, encrypting: true)
    }

    /// `ciphertext` decrypted in CBC mode from `iv` (zeros by default), without padding.
    ///
    /// - Throws: as ``encrypt(_:iv:)``.
    public func decrypt(_ ciphertext: some Collection<UInt8>, iv: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        try crypt(ciphertext, iv: iv, encrypting: false)
    }

    /// Always `AES(**)`: a key is never printed.
    public var description: String { "AES(**)" }

    /// libcrypto's name of AES in CBC mode for a key of `keyCount` bytes.
    static func cbcName(keyCount: Int) -> String? {
        switch keyCount {
        case 16: "AES-128-CBC"
        case 24: "AES-192-CBC"
        case 32: "AES-256-CBC"
        default: nil
        }
    }

    private func crypt(_ input: some Collection<UInt8>, iv: [UInt8]?, encrypting: Bool) throws(CryptoError) -> [UInt8] {
        let what = encrypting ? "encrypt" : "decrypt"
        guard input.count % Self.blockCount == 0 else {
            throw CryptoError(
                .invalidInput, "AES in CBC mode without padding cannot \(what) \(input.count) bytes (not whole blocks)")
        }
        let iv = iv ?? [UInt8](repeating: 0, count: Self.blockCount)
        guard iv.count == Self.blockCount else {
            throw CryptoError(.invalidInput, "an AES IV is \(Self.blockCount) bytes, not \(iv.count)")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw .library("AES: no cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        let cipher: OpaquePointer? =
            switch key.count {
            case 16: EVP_aes_128_cbc()
            case 24: EVP_aes_192_cbc()
            default: EVP_aes_256_cbc()
            }
        var output = [UInt8](repeating: 0, count: input.count + Self.blockCount)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let done = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                withContiguousBytes(input) { input in
                    output.withUnsafeMutableBufferPointer { output in
                        guard
                            EVP_CipherInit_ex(context, cipher, nil, key.baseAddress, iv.baseAddress, encrypting ? 1 : 0)
                                == 1,
                            EVP_CIPHER_CTX_set_padding(context, 0) == 1,
                            let count = Int32(exactly: input.count),
                            EVP_CipherUpdate(context, output.baseAddress, &written, input.baseAddress, count) == 1
                        else { return false }
                        return EVP_CipherFinal_ex(context, output.baseAddress.map { $0 + Int(written) }, &finalWritten)
                            == 1
                    }
                }
            }
        }
        guard done, Int(written) + Int(finalWritten) == input.count else { throw .library("AES: could not \(what)") }
        return Array(output.prefix(input.count))
    }
}
