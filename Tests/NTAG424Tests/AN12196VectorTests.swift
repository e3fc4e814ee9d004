import NTAG424
import TestSupport
import Testing

/// The worked examples of NXP AN12196 ("NTAG 424 DNA and NTAG 424 DNA TagTamper features and
/// hints", rev 2.0 table numbers), as transcribed in Fixtures/ntag424/SOURCES.md, byte for byte.
@Suite struct AN12196VectorTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    /// The Table 14 session: AuthenticateEV2First with key 0 (zero key).
    static func table14() throws -> NTAG424SecureChannel {
        let answer = try NTAG424Authentication.answer(
            challenge: hex("A04C124213C186F22399D33AC2A30215"), key: zeroKey,
            rndA: hex("13C5DB8A5930439FC3DEF9A4C675360F"))
        return try NTAG424Authentication.finishFirst(
            response: hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663"), key: zeroKey,
            answer: answer, keyNumber: 0
        ).channel
    }

    @Test("Table 14: AuthenticateEV2First with key 0: RndB, the reader's answer, TI 9D00C4DF, session keys")
    func authenticateFirst() throws {
        let answer = try NTAG424Authentication.answer(
            challenge: hex("A04C124213C186F22399D33AC2A30215"), key: Self.zeroKey,
            rndA: hex("13C5DB8A5930439FC3DEF9A4C675360F"))
        #expect(answer.rndB == hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        #expect(answer.data == hex("35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D"))
        let channel = try Self.table14()
        #expect(channel.transactionIdentifier == hex("9D00C4DF") && channel.commandCounter == 0)
        #expect(channel.keys.encryption == hex("1309C877509E5A215007FF0ED19CA564"))
        #expect(channel.keys.mac == hex("4C6626F5E72EA694202139295C7A7FC7"))
        // The tag's side gives the same bytes.
        #expect(
            try NTAG424Authentication.challenge(key: Self.zeroKey, rndB: answer.rndB)
                == hex("A04C124213C186F22399D33AC2A30215"))
        let rndA = try NTAG424Authentication.checkAnswer(answer.data, key: Self.zeroKey, rndB: answer.rndB)
        #expect(
            try NTAG424Authentication.tagResponseFirst(
                key: Self.zeroKey, transactionIdentifier: hex("9D00C4DF"), rndA: rndA, pdCap2: [0, 0, 0, 0, 0, 0],
                pcdCap2: [0, 0, 0, 0, 0, 0])
                == hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663"))
    }

    @Test("Table 19: AuthenticateEV2First (key 3 example): TI 7614281A and its session keys")
    func authenticateFirstKey3() throws {
        let answer = try NTAG424Authentication.answer(
            challenge: hex("B875CEB0E66A6C5CD00898DC371F92D1"), key: Self.zeroKey,
            rndA: hex("B98F4C50CF1C2E084FD150E33992B048"))
        #expect(answer.rndB == hex("91517975190DCEA6104948EFA3085C1B"))
        #expect(answer.data == hex("FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B1"))
        let channel = try NTAG424Authentication.finishFirst(
            response: hex("0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A"), key: Self.zeroKey,
            answer: answer, keyNumber: 3
        ).channel
        #expect(channel.transactionIdentifier == hex("7614281A"))
        #expect(channel.keys.encryption == hex("7A93D6571E4B180FCA6AC90C9A7488D4"))
        #expect(channel.keys.mac == hex("FC4AF159B62E549B5812394CAB1918CC"))
    }

    @Test("Table 23: AuthenticateEV2NonFirst keeps TI and CmdCtr; new session keys")
    func authenticateNonFirst() throws {
        let previous = try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(encryption: Self.zeroKey, mac: Self.zeroKey),
            transactionIdentifier: hex("7614281A"), commandCounter: 1, keyNumber: 3)
        let answer = try NTAG424Authentication.answer(
            challenge: hex("A6A2B3C572D06C097BB8DB70463E22DC"), key: Self.zeroKey,
            rndA: hex("60BE759EDA560250AC57CDDC11743CF6"))
        #expect(answer.rndB == hex("6924E8D09722659A2E7DEC68E66312B8"))
        #expect(answer.data == hex("BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E991"))
        let channel = try NTAG424Authentication.finishNonFirst(
            response: hex("B888349C24B315EAB5B589E279C8263E"), key: Self.zeroKey, answer: answer, keyNumber: 0,
            previous: previous)
        #expect(channel.keys.encryption == hex("4CF3CB41A22583A61E89B158D252FC53"))
        #expect(channel.keys.mac == hex("5529860B2FC5FB6154B7F28361D30BF9"))
        #expect(channel.transactionIdentifier == hex("7614281A") && channel.commandCounter == 1)
    }

    @Test("Table 7: GetFileSettings in CommMode MAC: MACt 6597A457C8CD442C; the response's MAC verifies")
    func getFileSettingsMAC() throws {
        var channel = try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(encryption: Self.zeroKey, mac: hex("8248134A386E86EB7FAF54A52E536CB6")),
            transactionIdentifier: hex("7A21085E"), keyNumber: 0)
        #expect(try channel.protectCommand(0xF5, header: [0x02], data: [], mode: .mac) == hex("6597A457C8CD442C"))
        let settings = try channel.openResponse(
            status: 0x00, payload: hex("0040EEEE000100D1FE001F00004400004400002000006A0000 2A474282E7A47986"),
            mode: .mac)
        let parsed = try NTAG424FileSettings(response: settings)
        #expect(parsed.sdm?.piccDataOffset == 31 && parsed.sdm?.encryptedDataOffset == 68)
        #expect(
            parsed.sdm?.encryptedDataLength == 32 && parsed.sdm?.macOffset == 106 && parsed.sdm?.macInputOffset == 68)
        #expect(
            parsed.sdm?.metaRead == .key(0) && parsed.sdm?.fileRead == .key(0) && parsed.sdm?.counterRetrieval == .free)
        #expect(parsed.encoded == settings)
    }

    @Test("Tables 17-18: WriteData and ChangeFileSettings in CommMode Full in the Table 14 session")
    func fullModeCommands() throws {
        var channel = try Self.table14()
        let url =
            Array("choose.url.com/ntag424?e=".utf8) + [UInt8](repeating: 0x30, count: 32) + Array("&c=".utf8)
            + [UInt8](repeating: 0x30, count: 16)
        let plain = hex("0051D1014D5504") + url + [UInt8](repeating: 0, count: 45)
        #expect(plain.count == 128)
        let write = try channel.protectCommand(0x8D, header: hex("02 000000 800000"), data: plain, mode: .full)
        #expect(
            write
                == hex(
                    "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642A0"
                        + "FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B407C9D651A"
                        + "3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802AF745660F2B4"
                        + "D1D9A8499661EBF3"))
        #expect(try channel.openResponse(status: 0x00, payload: hex("FC222E5F7A542452"), mode: .mac) == [])
        let settings = hex("4000E0C1F121200000430000430000")
        let change = try channel.protectCommand(0x5F, header: [0x02], data: settings, mode: .full)
        #expect(change == hex("61B6D97903566E84C3AE5274467E89EA D799B7C1A0EF7A04"))
        #expect(try channel.openResponse(status: 0x00, payload: hex("57BFF87B1241E93D"), mode: .mac) == [])
        let parsed = try NTAG424FileSettings(changeCommandData: settings, size: 256)
        #expect(parsed.sdm?.metaRead == .key(2) && parsed.sdm?.fileRead == .key(1))
        #expect(parsed.sdm?.piccDataOffset == 32 && parsed.sdm?.macOffset == 67 && parsed.changeCommandData == settings)
        try parsed.validate()
    }

    @Test("Table 28: GetCardUID's Full response decrypts to UID 04958CAA5C5E80")
    func getCardUID() throws {
        var channel = try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(
                encryption: hex("2B4D963C014DC36F24F69A50A394F875"), mac: hex("379D32130CE61705DD5FD8C36B95D764")),
            transactionIdentifier: hex("DF055522"), keyNumber: 0)
        #expect(try channel.protectCommand(0x51, header: [], data: [], mode: .full) == hex("8E2C155ADDA99BE3"))
        let uid = try channel.openResponse(
            status: 0x00, payload: hex("70756055688505B52A5E26E59E329CD6 595F672298EA41B7"), mode: .full)
        #expect(uid == hex("04958CAA5C5E80"))
    }

    @Test("Tables 25-26: ChangeKey of key 2 (XOR, version, CRC32 789DFADC) and of key 0")
    func changeKey() throws {
        var channel = try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(
                encryption: hex("4CF3CB41A22583A61E89B158D252FC53"), mac: hex("5529860B2FC5FB6154B7F28361D30BF9")),
            transactionIdentifier: hex("7614281A"), commandCounter: 2, keyNumber: 0)
        let data = try NTAG424ChangeKey.commandData(
            keyNumber: 2, newKey: hex("F3847D627727ED3BC9C4CC050489B966"), version: 1, oldKey: Self.zeroKey,
            authenticatedKey: 0)
        #expect(data == hex("F3847D627727ED3BC9C4CC050489B966 01 789DFADC"))
        let sent = try channel.protectCommand(0xC4, header: [0x02], data: data, mode: .full)
        #expect(
            sent
                == hex("2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7 5D0CE20BCD1D06E6"))
        #expect(try channel.openResponse(status: 0x00, payload: hex("203BB55D1089D587"), mode: .mac) == [])
        let key0 = try NTAG424ChangeKey.commandData(
            keyNumber: 0, newKey: hex("5004BF991F408672B1EF00F08F9E8647"), version: 1, oldKey: nil, authenticatedKey: 0)
        #expect(
            try channel.protectCommand(0xC4, header: [0x00], data: key0, mode: .full)
                == hex("C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD A6610234BDED6432"))
        // The tag's side reads both back.
        let back = try NTAG424ChangeKey.newKey(in: data, keyNumber: 2, oldKey: Self.zeroKey, authenticatedKey: 0)
        #expect(back.key == hex("F3847D627727ED3BC9C4CC050489B966") && back.version == 1)
        var broken = data
        broken[20] ^= 1
        #expect(throws: NTAG424Error.self) {
            try NTAG424ChangeKey.newKey(in: broken, keyNumber: 2, oldKey: Self.zeroKey, authenticatedKey: 0)
        }
    }

    @Test("Tables 1, 3, 5: SDM session keys, encrypted file data, SDMMAC over a non-empty input")
    func sdm() throws {
        let verifier = try NTAG424SUNVerifier(
            metaReadKey: Self.zeroKey, fileReadKey: hex("5ACE7E50AB65D5D51FD5BF5A16B8205B"))
        let keys = try verifier.sessionKeys(uid: hex("04C767F2066180"), counter: 1)
        #expect(keys.encryption == hex("66DA61797E23DECA5D8ECA13BBADF7A9"))
        #expect(keys.mac == hex("3A3E8110E05311F7A3FCF0D969BF2B48"))
        let zero = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: Self.zeroKey)
        let input = Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8)
        let result = zero.verify(
            piccData: hex("FD91EC264309878BE6345CBE53BADF40"), mac: hex("ECC1E7F6C6C73BF6"),
            inputs: [("empty", []), ("fromEncryptedData", input)])
        #expect(result.isValid && result.uid == hex("04958CAA5C5E80") && result.counter == 8)
        #expect(result.macInput == "fromEncryptedData")
        let wrong = zero.verify(
            piccData: hex("FD91EC264309878BE6345CBE53BADF40"), mac: hex("3CC1E7F6C6C33B33"),
            inputs: [("empty", []), ("fromEncryptedData", input)])
        #expect(!wrong.isValid)
        // Plain UID and counter mirror (sdm-backend's test_plain_sdm).
        let plain = zero.verify(
            uid: hex("041E3C8A2D6B80"), counter: 6, mac: hex("4B00064004B0B3D3"), inputs: [("empty", [])])
        #expect(plain.isValid)
        #expect(
            !zero.verify(uid: hex("041E3C8A2D6B80"), counter: 6, mac: hex("AB00064004B0B3AB"), inputs: [("empty", [])])
                .isValid)
    }

    @Test("AN10957's short diversification input: AN10922 pads to two blocks (0BB408BA…), not standard CMAC")
    func shortDiversification() throws {
        let key = try NTAG424KeyDiversification.diversify(
            masterKey: hex("F3F9377698707B688EAF84ABE39E3791"), input: hex("04DEADBEEFFEED"))
        #expect(key == hex("0BB408BAFF98B6EE9F2E1585777F6A51"))
    }
}

/// Whole URLs, as a server gets them.
@Suite struct NTAG424SUNURLTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    @Test("AN12196's URLs (empty MAC input, and from the encrypted data to cmac=) and sdm-backend's plain one verify")
    func urls() throws {
        let zero = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: Self.zeroKey)
        let first = try NTAG424SUNURL(
            "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086",
            parameters: .init(piccData: "e", mac: "c"))
        let result = first.verify(with: zero)
        #expect(result.isValid && result.uid == hex("04DE5F1EACC040") && result.counter == 61)
        let second = try NTAG424SUNURL(
            "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962"
                + "&cmac=ECC1E7F6C6C73BF6")
        let checked = second.verify(with: zero)
        #expect(checked.isValid && checked.counter == 8 && checked.macInput == "from enc")
        let plain = try NTAG424SUNURL("https://x/tagpt?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3")
        #expect(plain.verify(with: zero).isValid && plain.counter == 6)
        // One changed character anywhere, and it does not verify.
        let changed = try NTAG424SUNURL("https://x/tagpt?uid=041E3C8A2D6B80&ctr=000007&cmac=4B00064004B0B3D3")
        #expect(!changed.verify(with: zero).isValid)
    }

    @Test("URLs without the parameters, or with values that are not hex of the right length, are refused")
    func refused() {
        for url in [
            "https://x/", "https://x/?cmac=4B00064004B0B3D3", "https://x/?picc_data=EF96&cmac=4B00064004B0B3D3",
            "https://x/?picc_data=EF963FF7828658A599F3041510671E88&cmac=ZZ00064004B0B3D3",
            "https://x/?picc_data=EF963FF7828658A599F3041510671E88",
        ] {
            #expect(throws: NTAG424Error.self, "\(url)") { try NTAG424SUNURL(url) }
        }
    }

    @Test("SDMENCFileData decrypts (AN12196's URL: sixteen x; sdm-backend's AES demo: CC and fourteen dashes)")
    func encryptedFileData() throws {
        let zero = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: Self.zeroKey)
        let an12196 = try NTAG424SUNURL(
            "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962"
                + "&cmac=ECC1E7F6C6C73BF6")
        #expect(an12196.verify(with: zero).fileData == Array("xxxxxxxxxxxxxxxx".utf8))
        let demo = try NTAG424SUNURL(
            "https://sdm.nfcdeveloper.com/tagpt?picc_data=FDD387BF32A33A7C40CF259675B3A1E2"
                + "&enc=EA050C282D8E9043E28F7A171464D697&cmac=758110182134ECE9")
        let result = demo.verify(with: zero)
        #expect(result.isValid && result.uid == hex("0469879A226880") && result.counter == 2)
        #expect(result.fileData == Array("CC".utf8) + Array(repeating: UInt8(ascii: "-"), count: 14))
        #expect(
            try zero.decryptFileData(hex("EA050C282D8E9043E28F7A171464D697"), uid: hex("0469879A226880"), counter: 2)
                == result.fileData)
        // A wrong key: the SDMMAC fails, and nothing is decrypted.
        let other = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: [UInt8](repeating: 1, count: 16))
        #expect(demo.verify(with: other).fileData == nil)
        #expect(throws: NTAG424Error.self) { try zero.decryptFileData([1, 2, 3], uid: nil, counter: 1) }
        #expect(throws: NTAG424Error.self) {
            try NTAG424SUNURL("https://x/?picc_data=FDD387BF32A33A7C40CF259675B3A1E2&enc=AB&cmac=758110182134ECE9")
        }
    }
}
