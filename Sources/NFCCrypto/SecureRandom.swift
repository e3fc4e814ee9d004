internal import CCrypto

/// Random bytes from libcrypto's cryptographically secure generator (`RAND_bytes`), for keys,
/// challenges and nonces (the RndA of an NTAG 424 DNA authentication).
public enum SecureRandom {
    /// `count` random bytes.
    ///
    /// - Throws: ``CryptoError/Code/library`` when the generator is not seeded or fails.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, let count32 = Int32(exactly: count) else {
            throw CryptoError(.invalidInput, "cannot make \(count) random bytes")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let done = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, count32) }
        guard done == 1 else { throw .library("the random generator failed") }
        return bytes
    }
}
