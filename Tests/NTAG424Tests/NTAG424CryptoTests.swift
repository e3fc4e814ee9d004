import NFCCrypto
import NTAG424
import TestSupport
import Testing

/// Published vectors and round trips of NTAG 424 DNA's cryptography.
@Suite struct NTAG424CryptoTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    @Test(
        "AN12196 SUN example: PICCData EF963FF7…1E88 and SDMMAC 94EED9EE65337086 with zero keys: UID 04DE5F1EACC040, counter 61"
    )
    func an12196SUN() throws {
        let verifier = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: Self.zeroKey)
        let result = verifier.verify(
            piccData: hex("EF963FF7828658A599F3041510671E88"), mac: hex("94EED9EE65337086"),
            inputs: [("empty", [])])
        #expect(result.isValid, "\(result.problem ?? "")")
        #expect(result.uid == hex("04DE5F1EACC040") && result.counter == 61)
        // One changed MAC byte, or another key, and it does not verify.
        let changed = verifier.verify(
            piccData: hex("EF963FF7828658A599F3041510671E88"), mac: hex("94EED9EE65337087"),
            inputs: [("empty", [])])
        #expect(!changed.isValid)
        var otherKey = Self.zeroKey
        otherKey[15] = 1
        let other = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: otherKey)
        #expect(
            !other.verify(
                piccData: hex("EF963FF7828658A599F3041510671E88"), mac: hex("94EED9EE65337086"),
                inputs: [("empty", [])]
            ).isValid)
    }

    @Test("AN10922 2.2.1 example: AES-128 diversification of 00112233…EEFF with UID, AID and system identifier")
    func an10922() throws {
        let key = try NTAG424KeyDiversification.diversify(
            masterKey: hex("00112233445566778899AABBCCDDEEFF"), input: hex("04782E21801D803042F54E585020416275"))
        #expect(key == hex("A8DD63A3B89D54B37CA802473FDA9175"))
    }

    @Test("CRC32 of ChangeKey: IEEE polynomial, no final XOR (JAMCRC of 123456789 is 340BC6D9)")
    func crc32() {
        #expect(NTAG424KeyChecksum.crc32(Array("123456789".utf8)) == hex("D9 C6 0B 34"))
    }

    @Test("EV2First round trip: the tag's and the reader's halves agree on TI, keys and MACs")
    func authenticationRoundTrip() throws {
        let key = hex("00112233445566778899AABBCCDDEEFF")
        let rndA = hex("B04D0787C93EE0CC8CACC8E86F16C6FE")
        let rndB = hex("FA659AD0DCA738DD65DC7DC38612AD81")
        let challenge = try NTAG424Authentication.challenge(key: key, rndB: rndB)
        let answer = try NTAG424Authentication.answer(challenge: challenge, key: key, rndA: rndA)
        #expect(answer.rndB == rndB)
        #expect(try NTAG424Authentication.checkAnswer(answer.data, key: key, rndB: rndB) == rndA)
        let response = try NTAG424Authentication.tagResponseFirst(
            key: key, transactionIdentifier: hex("9D00C4DF"), rndA: rndA, pdCap2: [0, 0, 0, 0, 0, 0],
            pcdCap2: [0, 0, 0, 0, 0, 0])
        let result = try NTAG424Authentication.finishFirst(response: response, key: key, answer: answer, keyNumber: 0)
        var reader = result.channel
        #expect(reader.transactionIdentifier == hex("9D00C4DF") && reader.commandCounter == 0)
        // A wrong key is found by the reader.
        var wrong = key
        wrong[0] ^= 1
        #expect(throws: NTAG424Error.self) {
            try NTAG424Authentication.finishFirst(response: response, key: wrong, answer: answer, keyNumber: 0)
        }
        // Full mode both ways.
        var tag = reader
        let data = hex("00 11 22 33 44 55 66 77 88 99")
        let sent = try reader.protectCommand(0x8D, header: hex("02 00 00 00 0A 00 00"), data: data, mode: .full)
        #expect(sent.count == 16 + 8)
        #expect(try tag.openCommand(0x8D, header: hex("02 00 00 00 0A 00 00"), payload: sent, mode: .full) == data)
        let reply = try tag.protectResponse(status: 0x00, data: hex("CAFE"), mode: .full)
        #expect(try reader.openResponse(status: 0x00, payload: reply, mode: .full) == hex("CAFE"))
        #expect(reader.commandCounter == 1 && tag.commandCounter == 1)
        // A flipped bit in a MAC is an integrity error.
        var tampered = try tag.protectResponse(status: 0x00, data: [], mode: .mac)
        tampered[tampered.count - 1] ^= 1
        let error = #expect(throws: NTAG424Error.self) {
            try reader.openResponse(status: 0x00, payload: tampered, mode: .mac)
        }
        #expect(error?.code == .integrityError)
    }
}

/// Per-tag keys from a master key (AN10922 with the inputs ``NTAG424/NTAG424MasterKey`` names).
@Suite struct NTAG424MasterKeyTests {
    static let master = [UInt8](0..<16)
    static let uid: [UInt8] = [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80]

    @Test("The keys are AN10922 over the documented inputs; one is shared, the others are each tag's own")
    func inputs() throws {
        let master = try NTAG424MasterKey(Self.master)
        let keys = try master.keys(uid: Self.uid)
        let application: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
        for number in [0, 2, 3, 4] {
            #expect(
                keys[number]
                    == (try NTAG424KeyDiversification.diversify(
                        masterKey: Self.master, input: Self.uid + application + [UInt8(number)])))
        }
        #expect(
            keys[1]
                == (try NTAG424KeyDiversification.diversify(
                    masterKey: Self.master, input: application + [0x01, 0x53, 0x44, 0x4D])))
        var other = Self.uid
        other[6] ^= 1
        let otherKeys = try master.keys(uid: other)
        #expect(otherKeys[1] == keys[1])
        #expect(Set([0, 2, 3, 4].map { otherKeys[$0] }).isDisjoint(with: [0, 2, 3, 4].map { keys[$0] }))
        #expect(Set(keys).count == 5)
    }

    @Test("The key check value is the first 3 bytes of AES-128(key, zero block): 66E94B for the zero key")
    func checkValue() throws {
        #expect(Array(try NTAG424MasterKey([UInt8](repeating: 0, count: 16)).keyCheckValue()) == [0x66, 0xE9, 0x4B])
    }

    @Test("Refused: a key of another length, key numbers outside 1-4, one key number for both")
    func refused() {
        #expect(throws: NTAG424Error.self) { try NTAG424MasterKey([1, 2, 3]) }
        #expect(throws: NTAG424Error.self) { try NTAG424MasterKey(Self.master, metaReadKey: 0) }
        #expect(throws: NTAG424Error.self) { try NTAG424MasterKey(Self.master, metaReadKey: 2, fileReadKey: 2) }
        #expect(throws: NTAG424Error.self) { try NTAG424MasterKey(Self.master).tagKey(5, uid: Self.uid) }
        #expect(throws: NTAG424Error.self) { try NTAG424MasterKey(Self.master).tagKey(0, uid: [4, 5]) }
    }
}
