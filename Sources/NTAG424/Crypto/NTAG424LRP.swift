import NFCCrypto

/// NXP's Leakage Resilient Primitive (LRP, AN12304), the cipher of an NTAG 424 DNA in LRP mode:
/// sixteen plaintexts and an updated key derived from a key with AES-128 (AN12304 2.1-2.2),
/// the LRP evaluation of a nibble string (2.3), LRICB encryption (2.5) and CMAC with LRP (2.4).
/// Every AES operation is one block through OpenSSL's libcrypto (``NFCCrypto/AES``).
///
/// Keys are never printed: the description shows none.
public struct NTAG424LRP: Sendable, Hashable, CustomStringConvertible {
    /// The sixteen plaintexts P[0]-P[15] of the key (m = 4).
    private let plaintexts: [[UInt8]]
    /// The updated key the evaluations start from.
    private let updatedKey: [UInt8]

    /// The LRP of `key` (16 bytes) with updated key number `updatedKeyIndex` (0: MAC and
    /// PICCData, 1: encryption in CommMode Full, AN12304 2.2).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a key that is not 16 bytes or a negative
    ///   index; the errors of libcrypto.
    public init(key: [UInt8], updatedKeyIndex: Int = 0) throws(NTAG424Error) {
        guard key.count == 16 else { throw NTAG424Error(.invalidInput, "an LRP key is 16 bytes") }
        guard updatedKeyIndex >= 0 else { throw NTAG424Error(.invalidInput, "updated keys are numbered from 0") }
        plaintexts = try Self.plaintexts(key: key)
        updatedKey = try Self.updatedKeys(key: key, count: updatedKeyIndex + 1)[updatedKeyIndex]
    }

    /// Algorithm 1 (generatePlaintexts, m = 4): h = E(k, 55…55); then sixteen times P[i] =
    /// E(h, AA…AA), h = E(h, 55…55).
    public static func plaintexts(key: [UInt8]) throws(NTAG424Error) -> [[UInt8]] {
        var state = try encryptBlock(fives, key: key)
        var result: [[UInt8]] = []
        for _ in 0..<16 {
            result.append(try encryptBlock(tens, key: state))
            state = try encryptBlock(fives, key: state)
        }
        return result
    }

    /// Algorithm 2 (generateUpdatedKeys): h = E(k, AA…AA); then for each key k[i] = E(h, AA…AA),
    /// h = E(h, 55…55).
    public static func updatedKeys(key: [UInt8], count: Int) throws(NTAG424Error) -> [[UInt8]] {
        var state = try encryptBlock(tens, key: key)
        var result: [[UInt8]] = []
        for _ in 0..<max(0, count) {
            result.append(try encryptBlock(tens, key: state))
            state = try encryptBlock(fives, key: state)
        }
        return result
    }

    /// Algorithm 3 (EvalLRP): from the updated key, y = E(y, P[n]) for each nibble n of
    /// `nibbles` (values 0-15, most significant first), then y = E(y, 0…0) when `final`.
    public func evaluate(nibbles: [UInt8], final: Bool) throws(NTAG424Error) -> [UInt8] {
        var value = updatedKey
        for nibble in nibbles {
            value = try Self.encryptBlock(plaintexts[Int(nibble & 0x0F)], key: value)
        }
        if final { value = try Self.encryptBlock(Self.zeros, key: value) }
        return value
    }

    /// The nibbles of `bytes`, most significant first.
    public static func nibbles(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { [$0 >> 4, $0 & 0x0F] }
    }

    /// Algorithm 4 (LRICB encryption): each 16-byte block encrypted with AES under
    /// EvalLRP(counter, final), the counter (big-endian, any length) one more after each block
    /// and wrapping to zero; with `padding`, ISO/IEC 9797-1 method 2 first (80h then zeros, a
    /// whole block when the data fills its last one).
    ///
    /// - Returns: the ciphertext and the counter after the last block.
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data that is not whole blocks without
    ///   padding, or an empty counter.
    public func encrypt(
        _ data: [UInt8], counter: [UInt8], padding: Bool
    ) throws(NTAG424Error) -> (ciphertext: [UInt8], counter: [UInt8]) {
        let input = padding ? data + [0x80] + [UInt8](repeating: 0, count: 15 - data.count % 16) : data
        return try crypt(input, counter: counter, encrypting: true)
    }

    /// LRICB decryption (AN12304 2.5), the inverse of ``encrypt(_:counter:padding:)``; with
    /// `padding` the method 2 padding is removed.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data that is not whole blocks, or an
    ///   empty counter; ``NTAG424Error/Code/integrityError`` for padding that is not method 2's.
    public func decrypt(
        _ data: [UInt8], counter: [UInt8], padding: Bool
    ) throws(NTAG424Error) -> (plaintext: [UInt8], counter: [UInt8]) {
        var (plain, next) = try crypt(data, counter: counter, encrypting: false)
        if padding {
            guard let marker = plain.lastIndex(where: { $0 != 0 }), plain[marker] == 0x80, plain.count - marker <= 16
            else { throw NTAG424Error(.integrityError, "the LRICB plaintext does not end in method 2 padding") }
            plain.removeSubrange(marker...)
        }
        return (plain, next)
    }

    private func crypt(
        _ data: [UInt8], counter: [UInt8], encrypting: Bool
    ) throws(NTAG424Error) -> ([UInt8], [UInt8]) {
        guard data.count % 16 == 0 else { throw NTAG424Error(.invalidInput, "LRICB takes whole 16-byte blocks") }
        guard !counter.isEmpty else { throw NTAG424Error(.invalidInput, "the LRICB counter is empty") }
        var count = counter
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        var offset = 0
        while offset < data.count {
            let key = try evaluate(nibbles: Self.nibbles(count), final: true)
            let block = Array(data[offset..<(offset + 16)])
            do {
                let cipher = try AES(key: key)
                output += encrypting ? try cipher.encrypt(block) : try cipher.decrypt(block)
            } catch {
                throw NTAG424Error(error)
            }
            Self.increment(&count)
            offset += 16
        }
        return (output, count)
    }

    /// The counter one more, big-endian, wrapping to zero.
    static func increment(_ counter: inout [UInt8]) {
        for index in counter.indices.reversed() {
            counter[index] &+= 1
            if counter[index] != 0 { return }
        }
    }

    /// CMAC (NIST SP 800-38B) with EvalLRP of the block's 32 nibbles (final) in place of AES
    /// (AN12304 2.4): subkeys K1 = K0·x and K2 = K0·x² in GF(2^128) from K0 = EvalLRP(0…0);
    /// 16 bytes (NTAG 424 DNA sends bytes 1, 3, ..., 15 of it: NT4H2421Gx 9.1.3).
    public func mac(_ message: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        let base = try evaluate(nibbles: Self.nibbles(Self.zeros), final: true)
        let first = Self.double(base)
        let second = Self.double(first)
        var blocks = stride(from: 0, to: message.count, by: 16).map {
            Array(message[$0..<min(message.count, $0 + 16)])
        }
        if blocks.isEmpty { blocks = [[]] }
        var last = blocks.removeLast()
        if last.count == 16 {
            last = zip(last, first).map { $0 ^ $1 }
        } else {
            last += [0x80] + [UInt8](repeating: 0, count: 15 - last.count)
            last = zip(last, second).map { $0 ^ $1 }
        }
        var value = Self.zeros
        for block in blocks + [last] {
            value = try evaluate(nibbles: Self.nibbles(zip(value, block).map { $0 ^ $1 }), final: true)
        }
        return value
    }

    /// `block`·x in GF(2^128) with the polynomial x^128 + x^7 + x^2 + x + 1 (87h).
    static func double(_ block: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for index in (0..<16).reversed() {
            result[index] = block[index] << 1 | carry
            carry = block[index] >> 7
        }
        if carry != 0 { result[15] ^= 0x87 }
        return result
    }

    /// One AES-128 block, encrypted.
    static func encryptBlock(_ block: [UInt8], key: [UInt8]) throws(NTAG424Error) -> [UInt8] {
        do {
            return try AES(key: key).encrypt(block)
        } catch {
            throw NTAG424Error(error)
        }
    }

    static let fives = [UInt8](repeating: 0x55, count: 16)
    static let tens = [UInt8](repeating: 0xAA, count: 16)
    static let zeros = [UInt8](repeating: 0, count: 16)

    /// The updated key the evaluations start from (a session key's value, for
    /// ``NTAG424SessionKeys``).
    var updatedKeyValue: [UInt8] { updatedKey }

    /// `NTAG424LRP(**)`: no key is ever printed.
    public var description: String { "NTAG424LRP(**)" }
}
