import Foundation
import NTAG424
import TestSupport
import Testing

/// ``NTAG424LRP`` against NXP AN12304's vectors (Fixtures/vectors/an12304-lrp.json: the
/// plaintexts and updated keys of 3.1, the 50 evaluations of 3.2, the 50 LRICB encryptions of
/// 3.3 and the 50 CMACs of 3.4) and AN12343's LRP keys.
@Suite struct LRPVectorTests {
    /// The vectors of `name` in the fixture.
    static func vectors(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.fixture("vectors/an12304-lrp.json")))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object[name] as? [[String: Any]], "no \(name) in the fixture")
    }

    static func bytes(_ vector: [String: Any], _ key: String) throws -> [UInt8] {
        hex(try #require(vector[key] as? String, "no \(key)"))
    }

    @Test("generatePlaintexts and generateUpdatedKeys (AN12304 3.1, AN12343)")
    func plaintextsAndUpdatedKeys() throws {
        let plaintextVectors = try Self.vectors("generatePlaintexts")
        #expect(plaintextVectors.count >= 1)
        for vector in plaintextVectors {
            let expected = try #require(vector["plaintexts"] as? [String]).map { hex($0) }
            #expect(try NTAG424LRP.plaintexts(key: Self.bytes(vector, "key")) == expected)
        }
        let keyVectors = try Self.vectors("updatedKeys")
        #expect(keyVectors.count >= 1)
        for vector in keyVectors {
            let expected = try #require(vector["updatedKeys"] as? [[String: Any]])
            let count = (expected.compactMap { $0["index"] as? Int }.max() ?? 0) + 1
            let keys = try NTAG424LRP.updatedKeys(key: Self.bytes(vector, "key"), count: count)
            for entry in expected {
                let index = try #require(entry["index"] as? Int)
                #expect(keys[index] == hex(try #require(entry["value"] as? String)), "updated key \(index)")
            }
        }
    }

    @Test("EvalLRP: AN12304 3.2's 50 vectors")
    func evaluation() throws {
        let vectors = try Self.vectors("evalLRP")
        #expect(vectors.count == 50)
        for (number, vector) in vectors.enumerated() {
            let lrp = try NTAG424LRP(
                key: try Self.bytes(vector, "key"), updatedKeyIndex: try #require(vector["updatedKeyIndex"] as? Int))
            let text = try #require(vector["x"] as? String)
            let nibbles = try text.map { character in UInt8(try #require(character.hexDigitValue)) }
            let final = try #require(vector["final"] as? Bool)
            #expect(
                try lrp.evaluate(nibbles: nibbles, final: final) == Self.bytes(vector, "result"), "vector \(number + 1)"
            )
        }
    }

    @Test("LRICB: AN12304 3.3's 50 vectors encrypt, and decrypt back")
    func lricb() throws {
        let vectors = try Self.vectors("lricbEncrypt")
        #expect(vectors.count == 50)
        for (number, vector) in vectors.enumerated() {
            let lrp = try NTAG424LRP(
                key: try Self.bytes(vector, "key"), updatedKeyIndex: try #require(vector["updatedKeyIndex"] as? Int))
            let counter = try Self.bytes(vector, "counter")
            let padding = try #require(vector["padding"] as? Bool)
            let plaintext = try Self.bytes(vector, "plaintext")
            let ciphertext = try Self.bytes(vector, "ciphertext")
            #expect(
                try lrp.encrypt(plaintext, counter: counter, padding: padding).ciphertext == ciphertext, "\(number + 1)"
            )
            #expect(
                try lrp.decrypt(ciphertext, counter: counter, padding: padding).plaintext == plaintext, "\(number + 1)")
        }
    }

    @Test("CMAC with LRP: AN12304 3.4's 50 vectors")
    func cmac() throws {
        let vectors = try Self.vectors("cmacLRP")
        #expect(vectors.count == 50)
        for (number, vector) in vectors.enumerated() {
            let lrp = try NTAG424LRP(
                key: try Self.bytes(vector, "key"), updatedKeyIndex: try #require(vector["updatedKeyIndex"] as? Int))
            #expect(try lrp.mac(Self.bytes(vector, "message")) == Self.bytes(vector, "mac"), "vector \(number + 1)")
        }
    }

    @Test("Bad input: a short key, LRICB on part of a block or with an empty counter, broken padding")
    func refusals() throws {
        #expect(throws: NTAG424Error.self) { try NTAG424LRP(key: [1, 2, 3]) }
        let lrp = try NTAG424LRP(key: [UInt8](repeating: 0, count: 16))
        #expect(throws: NTAG424Error.self) { try lrp.encrypt([1, 2, 3], counter: [0], padding: false) }
        #expect(throws: NTAG424Error.self) { try lrp.encrypt([], counter: [], padding: true) }
        let sealed = try lrp.encrypt([UInt8](repeating: 7, count: 16), counter: [0, 0, 0, 1], padding: false)
        #expect(throws: NTAG424Error.self) { try lrp.decrypt(sealed.ciphertext, counter: [0, 0, 0, 1], padding: true) }
        #expect(sealed.counter == [0, 0, 0, 2])
        #expect(try lrp.encrypt([], counter: [0xFF, 0xFF], padding: true).counter == [0, 0])
        #expect(lrp.description == "NTAG424LRP(**)")
    }

    @Test("sdm-backend's LRP demo URL from the primitives: PICCData by LRICB under PICCRand, SDMMAC by LRP CMAC")
    func sunDemo() throws {
        // picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9, zero keys
        // (NT4H2421Tx 9.3.4.2: PICCRand || LRICB ciphertext; 9.3.9.2: the session keys).
        let zero = [UInt8](repeating: 0, count: 16)
        let picc = hex("1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F")
        let meta = try NTAG424LRP(key: zero)
        let plain = try meta.decrypt(Array(picc[8...]), counter: Array(picc[..<8]), padding: false).plaintext
        #expect(plain[0] == 0xC7 && Array(plain[1..<8]) == hex("04940E2A2F7080") && Array(plain[8..<11]) == [3, 0, 0])
        let vector = [0x00, 0x01, 0x00, 0x80] + hex("04940E2A2F7080") + [3, 0, 0] + [0x1E, 0xE1]
        let master = try NTAG424LRP(key: zero).mac(vector)
        let full = try NTAG424LRP(key: master).mac([])
        let truncated = stride(from: 1, to: 16, by: 2).map { full[$0] }
        #expect(truncated == hex("4231608BA7B02BA9"))
    }
}

@Suite("NTAG424SUNVerifier in LRP mode")
struct LRPSUNVerifierTests {
    let zero = [UInt8](repeating: 0, count: 16)

    @Test("sdm-backend's LRP demo through the verifier; a verifier held to AES refuses it, a wrong key fails")
    func demo() throws {
        let url = try NTAG424SUNURL(
            "https://sdm.nfcdeveloper.com/tag?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F"
                + "&cmac=4231608BA7B02BA9")
        let result = url.verify(with: try NTAG424SUNVerifier(metaReadKey: zero, fileReadKey: zero))
        #expect(result.isValid && result.mode == .lrp && result.counter == 3)
        #expect(result.uid == hex("04940E2A2F7080"))
        let aesOnly = url.verify(with: try NTAG424SUNVerifier(metaReadKey: zero, fileReadKey: zero, mode: .aes))
        #expect(!aesOnly.isValid && aesOnly.problem?.contains("16 bytes (32 hex characters) in AES") == true)
        var other = zero
        other[15] = 1
        #expect(!url.verify(with: try NTAG424SUNVerifier(metaReadKey: zero, fileReadKey: other)).isValid)
        let wrongMeta = url.verify(with: try NTAG424SUNVerifier(metaReadKey: other, fileReadKey: zero))
        #expect(!wrongMeta.isValid && wrongMeta.uid == nil)
    }

    @Test("a plain-mirror LRP URL verifies in LRP only, and a verifier held to AES refuses it")
    func plainMirror() throws {
        let verifier = try NTAG424SUNVerifier(metaReadKey: nil, fileReadKey: zero)
        let uid = hex("04940E2A2F7080")
        let mac = try verifier.mac(uid: uid, counter: 7, input: [], mode: .lrp)
        let result = verifier.verify(uid: uid, counter: 7, mac: mac, inputs: [("empty", [])])
        #expect(result.isValid && result.mode == .lrp)
        #expect(try verifier.mac(uid: uid, counter: 7, input: [], mode: .aes) != mac)
        let aesOnly = try NTAG424SUNVerifier(metaReadKey: nil, fileReadKey: zero, mode: .aes)
        #expect(!aesOnly.verify(uid: uid, counter: 7, mac: mac, inputs: [("empty", [])]).isValid)
    }
}
