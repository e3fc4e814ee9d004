import NFCCrypto

/// The two AES-128 session keys of an NTAG 424 DNA secure messaging session, derived after
/// AuthenticateEV2First or AuthenticateEV2NonFirst (NT4H2421Gx datasheet 9.1.7; AN12196 3.3):
///
/// - SV1 = `A5 5A 00 01 00 80` || RndA[15..14] || (RndA[13..8] ⊕ RndB[15..10]) || RndB[9..0] ||
///   RndA[7..0], where byte 15 is the first byte sent; SesAuthENCKey = CMAC(Kx, SV1).
/// - SV2 is the same with `5A A5`; SesAuthMACKey = CMAC(Kx, SV2).
///
/// The description never shows the keys.
public struct NTAG424SessionKeys: Sendable, Hashable, CustomStringConvertible {
    /// SesAuthENCKey: encrypts the data of CommMode Full commands and responses.
    public let encryption: [UInt8]
    /// SesAuthMACKey: MACs commands and responses in CommMode MAC and Full.
    public let mac: [UInt8]

    /// The session keys the authentication with `key` and the random numbers `rndA` (the
    /// reader's) and `rndB` (the tag's) leads to.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless the key and both random numbers are
    ///   16 bytes.
    public init(key: [UInt8], rndA: [UInt8], rndB: [UInt8]) throws(NTAG424Error) {
        guard key.count == 16, rndA.count == 16, rndB.count == 16 else {
            throw NTAG424Error(.invalidInput, "a key, RndA and RndB are 16 bytes each")
        }
        let mixed = (2..<8).map { rndA[$0] ^ rndB[$0 - 2] }
        let context = Array(rndA[0..<2]) + mixed + Array(rndB[6..<16]) + Array(rndA[8..<16])
        do {
            encryption = try AESCMAC.authenticationCode(for: [0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context, key: key)
            mac = try AESCMAC.authenticationCode(for: [0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context, key: key)
        } catch {
            throw NTAG424Error(error)
        }
    }

    /// Session keys given directly (a test, or keys kept by a caller).
    public init(encryption: [UInt8], mac: [UInt8]) throws(NTAG424Error) {
        guard encryption.count == 16, mac.count == 16 else {
            throw NTAG424Error(.invalidInput, "session keys are 16 bytes each")
        }
        self.encryption = encryption
        self.mac = mac
    }

    /// Always `NTAG424SessionKeys(**)`.
    public var description: String { "NTAG424SessionKeys(**)" }
}

/// Helpers every NTAG 424 DNA computation shares.
enum NTAG424Bytes {
    /// MACt: the 8 bytes S14, S12, ..., S0 of a 16-byte CMAC S15..S0 (S15 sent first), that is
    /// the bytes at offsets 1, 3, ..., 15 (NT4H2421Gx 9.1.3; AN12196 3.4).
    static func truncated(_ mac: [UInt8]) -> [UInt8] {
        stride(from: 1, to: mac.count, by: 2).map { mac[$0] }
    }

    /// `data` padded with 80h and then 00h to a whole number of blocks, always at least one byte
    /// (ISO/IEC 9797-1 padding method 2, NT4H2421Gx 9.1.4).
    static func padded(_ data: [UInt8]) -> [UInt8] {
        var padded = data + [0x80]
        while padded.count % 16 != 0 { padded.append(0x00) }
        return padded
    }

    /// `data` without its method 2 padding, or nil when the padding is not 80h and zeros.
    static func unpadded(_ data: [UInt8]) -> [UInt8]? {
        guard let marker = data.lastIndex(where: { $0 != 0x00 }), data[marker] == 0x80, data.count - marker <= 16
        else { return nil }
        return Array(data[..<marker])
    }

    /// `value` as `count` bytes, least significant first.
    static func littleEndian(_ value: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// The little-endian number in `bytes`.
    static func integer(littleEndian bytes: some Collection<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// `bytes` rotated left by one byte (RndA' and RndB', NT4H2421Gx 9.1.5).
    static func rotatedLeft(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first else { return bytes }
        return Array(bytes.dropFirst()) + [first]
    }

    /// Whether `a` and `b` are equal, compared in time that does not depend on where they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
