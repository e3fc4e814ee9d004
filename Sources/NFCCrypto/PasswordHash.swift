internal import CCrypto

/// scrypt (RFC 7914) through libcrypto's `EVP_PBE_scrypt`: a key derived from a password slowly
/// and with much memory, so that a record of it costs an attacker years to search, even for a
/// password of only 4 bytes.
public enum PasswordHash {
    /// The cost parameters: N (a power of two), r and p of RFC 7914 section 2.
    public struct Cost: Sendable, Hashable {
        /// CPU and memory cost N, a power of two above 1.
        public var n: UInt64
        /// The block size r.
        public var r: UInt64
        /// The parallelisation p.
        public var p: UInt64

        /// Costs N, r, p.
        public init(n: UInt64, r: UInt64, p: UInt64) {
            self.n = n
            self.r = r
            self.p = p
        }

        /// N = 2^15, r = 8, p = 1: 32 MiB and some 50 to 100 ms on a desktop core.
        public static let interactive = Cost(n: 1 << 15, r: 8, p: 1)
    }

    /// The `length` bytes scrypt derives from `password` and `salt` at `cost`
    /// (RFC 7914 section 2; the test vectors of section 12 check it).
    ///
    /// - Throws: ``CryptoError/Code/invalidInput`` for a length outside 1-64 or costs libcrypto
    ///   refuses; ``CryptoError/Code/library`` when libcrypto fails.
    public static func scrypt(
        password: [UInt8], salt: [UInt8], cost: Cost = .interactive, length: Int = 32
    ) throws(CryptoError) -> [UInt8] {
        guard (1...64).contains(length) else { throw CryptoError(.invalidInput, "scrypt derives 1 to 64 bytes here") }
        guard cost.n > 1, cost.n & (cost.n - 1) == 0, cost.r > 0, cost.p > 0 else {
            throw CryptoError(.invalidInput, "scrypt's N is a power of two above 1, r and p at least 1")
        }
        // 128 r N bytes for the big array, and room for the rest.
        let memory = 128 * cost.r * cost.n + 128 * cost.r * cost.p + 1 << 20
        var output = [UInt8](repeating: 0, count: length)
        let done = password.withUnsafeBufferPointer { passwordBytes in
            salt.withUnsafeBufferPointer { saltBytes in
                output.withUnsafeMutableBufferPointer { outputBytes in
                    passwordBytes.withMemoryRebound(to: CChar.self) { passwordChars in
                        EVP_PBE_scrypt(
                            passwordChars.baseAddress, passwordBytes.count, saltBytes.baseAddress, saltBytes.count,
                            cost.n, cost.r, cost.p, memory, outputBytes.baseAddress, outputBytes.count)
                    }
                }
            }
        }
        guard done == 1 else { throw .library("scrypt failed", code: .invalidInput) }
        return output
    }
}
