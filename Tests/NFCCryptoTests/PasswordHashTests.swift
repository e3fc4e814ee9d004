import NFCCrypto
import TestSupport
import Testing

@Suite struct PasswordHashTests {
    @Test("RFC 7914 section 12: scrypt(\"password\", \"NaCl\", N 1024, r 8, p 16, 64 bytes)")
    func rfcVector() throws {
        let key = try PasswordHash.scrypt(
            password: Array("password".utf8), salt: Array("NaCl".utf8), cost: .init(n: 1024, r: 8, p: 16), length: 64)
        #expect(
            key
                == hex(
                    "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"))
    }

    @Test("RFC 7914 section 12: the empty password and salt, N 16, r 1, p 1")
    func emptyVector() throws {
        let key = try PasswordHash.scrypt(password: [], salt: [], cost: .init(n: 16, r: 1, p: 1), length: 64)
        #expect(
            key
                == hex(
                    "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"))
    }

    @Test("Costs and lengths out of range are refused before libcrypto")
    func refused() {
        #expect(throws: CryptoError(.invalidInput, "")) {
            try PasswordHash.scrypt(password: [1], salt: [2], cost: .init(n: 3, r: 1, p: 1))
        }
        #expect(throws: CryptoError(.invalidInput, "")) { try PasswordHash.scrypt(password: [1], salt: [2], length: 0) }
    }
}
