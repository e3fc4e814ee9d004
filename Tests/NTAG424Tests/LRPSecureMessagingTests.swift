import Foundation
import NTAG424
import TestSupport
import Testing

/// AuthenticateLRPFirst/NonFirst (``NTAG424LRPAuthentication``) and secure messaging in LRP
/// (``NTAG424SecureChannel`` in ``NTAG424CryptoMode/lrp``) against the transcripts of
/// Fixtures/vectors/an12304-lrp.json: AN12343's Tables 19 and 20, a real tag's answers, and the
/// GetCardUID, WriteData and ReadData exchanges, each with its source in the fixture.
@Suite struct LRPSecureMessagingTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    @Test("AN12343 Tables 19-20: SV, PCDResponse, PICCData and PICCResponse, both sides; TI 58EE9424")
    func an12343() throws {
        let vector = try #require(try LRPVectorTests.vectors("authenticateLRPFirst").first)
        let rndA = try LRPVectorTests.bytes(vector, "rndA")
        let rndB = try LRPVectorTests.bytes(vector, "rndB")
        #expect(
            try NTAG424LRPAuthentication.sessionVector(rndA: rndA, rndB: rndB)
                == (try LRPVectorTests.bytes(vector, "sessionVector")))
        let answer = try NTAG424LRPAuthentication.answer(challenge: [0x01] + rndB, key: Self.zero, rndA: rndA)
        #expect(answer.data == rndA + (try LRPVectorTests.bytes(vector, "pcdResponse")))
        let response = try LRPVectorTests.bytes(vector, "piccData") + (try LRPVectorTests.bytes(vector, "piccResponse"))
        let first = try NTAG424LRPAuthentication.finishFirst(
            response: response, key: Self.zero, answer: answer, keyNumber: 0)
        #expect(first.channel.transactionIdentifier == hex("58EE9424") && first.channel.mode == .lrp)
        #expect(first.pdCap2 == hex("020000000000") && first.channel.encryptionCounter == 1)
        // The tag's side gives the same bytes, and refuses a changed PCDResponse.
        let checked = try NTAG424LRPAuthentication.checkAnswer(answer.data, key: Self.zero, rndB: rndB)
        #expect(checked.rndA == rndA)
        #expect(
            try NTAG424LRPAuthentication.tagResponseFirst(
                keys: checked.keys, transactionIdentifier: hex("58EE9424"), rndA: rndA, rndB: rndB,
                pdCap2: hex("020000000000"), pcdCap2: hex("020000000000")) == response)
        #expect(throws: NTAG424Error(.invalidInput, "")) {
            try NTAG424LRPAuthentication.sessionVector(rndA: rndA, rndB: Array(rndB.prefix(15)))
        }
        var wrong = answer.data
        wrong[31] ^= 1
        #expect(throws: NTAG424Error(.authenticationError, "")) {
            try NTAG424LRPAuthentication.checkAnswer(wrong, key: Self.zero, rndB: rndB)
        }
        var other = Self.zero
        other[0] = 1
        #expect(throws: NTAG424Error(.authenticationError, "")) {
            try NTAG424LRPAuthentication.finishFirst(
                response: response,
                key: other,
                answer: try NTAG424LRPAuthentication.answer(challenge: [0x01] + rndB, key: other, rndA: rndA),
                keyNumber: 0)
        }
    }

    @Test("A real tag's AuthenticateLRPFirst and NonFirst: TI 9D96C13C; NonFirst keeps TI and CmdCtr, EncCtr 0")
    func hardware() throws {
        let vector = try #require(try LRPVectorTests.vectors("authenticateLRPHardware").first)
        let first = try #require(vector["first"] as? [String: Any])
        let nonFirst = try #require(vector["nonFirst"] as? [String: Any])
        let answer = try NTAG424LRPAuthentication.answer(
            challenge: try LRPVectorTests.bytes(first, "part1Response"), key: Self.zero,
            rndA: try LRPVectorTests.bytes(first, "rndA"))
        let part2 = try LRPVectorTests.bytes(first, "part2CApdu")
        #expect(answer.data == Array(part2[5..<37]))
        var channel = try NTAG424LRPAuthentication.finishFirst(
            response: try LRPVectorTests.bytes(first, "part2Response"), key: Self.zero, answer: answer, keyNumber: 0
        ).channel
        #expect(channel.transactionIdentifier == hex("9D96C13C"))
        for _ in 0..<10 { _ = try channel.openResponse(status: 0, payload: [], mode: .plain) }
        let again = try NTAG424LRPAuthentication.answer(
            challenge: try LRPVectorTests.bytes(nonFirst, "part1Response"), key: Self.zero,
            rndA: try LRPVectorTests.bytes(nonFirst, "rndA"))
        #expect(again.data == Array(try LRPVectorTests.bytes(nonFirst, "part2CApdu")[5..<37]))
        let continued = try NTAG424LRPAuthentication.finishNonFirst(
            response: try LRPVectorTests.bytes(nonFirst, "part2Response"), key: Self.zero, answer: again,
            keyNumber: 0, previous: channel)
        #expect(continued.transactionIdentifier == hex("9D96C13C") && continued.commandCounter == 10)
        #expect(continued.encryptionCounter == 0)
    }

    /// The channel of a transcript that gives SV (the session's random numbers are not printed).
    static func channel(_ vector: [String: Any]) throws -> NTAG424SecureChannel {
        let master = try NTAG424LRP(key: Self.zero).mac(try LRPVectorTests.bytes(vector, "sessionVector"))
        return try NTAG424SecureChannel(
            lrpKeys: (try NTAG424LRP(key: master, updatedKeyIndex: 0), try NTAG424LRP(key: master, updatedKeyIndex: 1)),
            transactionIdentifier: try LRPVectorTests.bytes(vector, "ti"), encryptionCounter: 1, keyNumber: 0)
    }

    @Test("GetCardUID three times in CommMode Full: each command's MAC and each response's UID, EncCtr 2, 3, 4")
    func getCardUID() throws {
        let vector = try #require(try LRPVectorTests.vectors("lrpSecureMessaging").first)
        var channel = try Self.channel(vector)
        for (index, exchange) in try #require(vector["exchanges"] as? [[String: Any]]).enumerated() {
            #expect(
                try channel.protectCommand(0x51, header: [], data: [], mode: .full)
                    == (try LRPVectorTests.bytes(exchange, "cmdMacT")))
            let response = try LRPVectorTests.bytes(exchange, "rApdu")
            let uid = try channel.openResponse(status: 0x00, payload: Array(response.dropLast(2)), mode: .full)
            #expect(uid == (try LRPVectorTests.bytes(exchange, "uid")) && channel.encryptionCounter == index + 2)
        }
    }

    @Test("WriteData of 3 bytes then ReadData in CommMode Full; a changed response MAC is refused")
    func writeThenRead() throws {
        let vector = try #require(try LRPVectorTests.vectors("lrpSecureMessaging").last)
        var channel = try Self.channel(vector)
        let exchanges = try #require(vector["exchanges"] as? [[String: Any]])
        let write = exchanges[0]
        let header = try LRPVectorTests.bytes(write, "cmdHeader")
        let sent = try channel.protectCommand(
            0x8D, header: header, data: try LRPVectorTests.bytes(write, "cmdData"), mode: .full)
        let apdu = try LRPVectorTests.bytes(write, "cApdu")
        #expect(header + sent == Array(apdu[5..<(apdu.count - 1)]))
        _ = try channel.openResponse(
            status: 0x00, payload: Array(try LRPVectorTests.bytes(write, "rApdu").dropLast(2)), mode: .mac)
        let read = exchanges[1]
        let readAPDU = try LRPVectorTests.bytes(read, "cApdu")
        #expect(
            header + (try channel.protectCommand(0xAD, header: header, data: [], mode: .full))
                == Array(readAPDU[5..<(readAPDU.count - 1)]))
        var tampered = channel
        let answer = Array(try LRPVectorTests.bytes(read, "rApdu").dropLast(2))
        #expect(
            try channel.openResponse(status: 0x00, payload: answer, mode: .full)
                == (try LRPVectorTests.bytes(read, "respData")))
        var changed = answer
        changed[changed.count - 1] ^= 1
        #expect(throws: NTAG424Error(.integrityError, "")) {
            try tampered.openResponse(status: 0x00, payload: changed, mode: .full)
        }
    }

    @Test("AN12343 Table 18: SetConfiguration option 05h (PDCap2.1 = 02h) under AES secure messaging")
    func setConfigurationEnablesLRP() throws {
        let vector = try #require(try LRPVectorTests.vectors("setConfigurationEnableLRP").first)
        var channel = try NTAG424SecureChannel(
            keys: try NTAG424SessionKeys(
                encryption: try LRPVectorTests.bytes(vector, "sesAuthENCKey"),
                mac: try LRPVectorTests.bytes(vector, "sesAuthMACKey")),
            transactionIdentifier: try LRPVectorTests.bytes(vector, "ti"), keyNumber: 0)
        let sent = try channel.protectCommand(
            0x5C, header: [0x05], data: try LRPVectorTests.bytes(vector, "data"), mode: .full)
        #expect(
            sent == (try LRPVectorTests.bytes(vector, "encryptedData")) + (try LRPVectorTests.bytes(vector, "macT")))
    }

    @Test("GetTTStatus in LRP, two real tags' transcripts: OO (loop open) and II (TagTamper not enabled)")
    func getTTStatus() throws {
        let vectors = try LRPVectorTests.vectors("getTTStatusLRP")
        #expect(vectors.count == 2)
        for vector in vectors {
            let rndA = try LRPVectorTests.bytes(vector, "rndA")
            let rndB = try LRPVectorTests.bytes(vector, "rndB")
            let keys = try NTAG424LRPAuthentication.sessionKeys(key: Self.zero, rndA: rndA, rndB: rndB)
            let authData = try keys.encryption.decrypt(
                try LRPVectorTests.bytes(vector, "authPiccData"), counter: [0, 0, 0, 0], padding: false
            ).plaintext
            var channel = try NTAG424SecureChannel(
                lrpKeys: keys, transactionIdentifier: Array(authData[0..<4]),
                commandCounter: Int(try LRPVectorTests.bytes(vector, "cmdCtr")[0]), encryptionCounter: 1,
                keyNumber: 0)
            let apdu = try LRPVectorTests.bytes(vector, "cApdu")
            #expect(try channel.protectCommand(0xF7, header: [], data: [], mode: .full) == Array(apdu[5..<13]))
            let response = Array(try LRPVectorTests.bytes(vector, "rApdu").dropLast(2))
            let status = try #require(
                NTAG424TagTamperStatus(try channel.openResponse(status: 0x00, payload: response, mode: .full)))
            let expected = try #require(vector["expected"] as? [String: String])
            #expect(status.bytes == hex((expected["ttPermStatus"] ?? "") + (expected["ttCurrStatus"] ?? "")))
        }
        #expect(NTAG424TagTamperStatus(hex("4F43"))?.meaning == "tampered, the loop closed now")
        #expect(NTAG424TagTamperStatus(hex("4343"))?.description == "CC" && NTAG424TagTamperStatus(hex("4341")) == nil)
    }

    @Test("TTStatusOffset: SDMOptions bit 3, after PICCDataOffset; inside the file data's plaintext half or apart")
    func tagTamperSettings() throws {
        let template = try NTAG424SDMTemplate(
            url: "https://x.example/t?p={picc}&e={enc}&m={mac}", fileData: Array("x".utf8), tagTamper: true)
        let settings = template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: false)
        try settings.validate()
        let data = settings.changeCommandData
        #expect(data[3] == 0xD9, "SDMOptions: UID, counter, ENC file data, TagTamper, ASCII")
        let offset = try #require(template.tagTamperOffset)
        // PICCDataOffset, then TTStatusOffset.
        #expect(Array(data[6..<12]) == [UInt8(template.piccDataOffset), 0, 0, UInt8(offset), 0, 0])
        #expect(try NTAG424FileSettings(changeCommandData: data, size: 256) == settings)
        var outside = settings
        outside.sdm?.tagTamperOffset = template.piccDataOffset + 1
        #expect(throws: NTAG424Error(.invalidSettings, "")) { try outside.validate() }
        outside.sdm?.tagTamperOffset = 250
        try outside.validate()
        outside.sdm?.tagTamperOffset = 255
        #expect(throws: NTAG424Error(.invalidSettings, "")) { try outside.validate() }
    }
}

/// The Swift examples of the NTAG424 article's "Moving, LRP, file data and TagTamper".
@Suite struct NTAG424ArticleExampleTests {
    @Test("NTAG424.md: sdm-backend's LRP demo with file data through the verifier; a TagTamper template")
    func lrpAndTagTamper() throws {
        // Example begin
        let zeroKey = [UInt8](repeating: 0, count: 16)
        let verifier = try NTAG424SUNVerifier(metaReadKey: zeroKey, fileReadKey: zeroKey)
        let url = try NTAG424SUNURL(
            "https://sdm.nfcdeveloper.com/tagpt?picc_data=8EE8E27DE3974FFE245F96C71087129B2E8449C9FF346F65"
                + "&enc=48987A0D55638C017D1F4DC3D8ADD910&cmac=862E781E52244A75")
        let result = url.verify(with: verifier)
        // result.isValid, result.mode == .lrp, result.counter == 1, UID 04940E2A2F7080
        let tamper = result.fileData.flatMap { NTAG424TagTamperStatus($0.prefix(2)) }
        // tamper?.description == "OO": the loop open, as the first two bytes of its file data say
        // Example end
        #expect(result.isValid && result.mode == .lrp && result.counter == 1)
        #expect(result.uid == hex("04940E2A2F7080") && tamper?.description == "OO")
        // Example begin
        let template = try NTAG424SDMTemplate(
            url: "https://x.example/tt?picc_data={picc}&enc={enc}&cmac={mac}", mode: .lrp,
            fileData: Array("lot 9".utf8), tagTamper: true)
        let settings = template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: false)
        // settings.sdm?.tagTamperOffset == template.encryptedDataOffset
        // Example end
        #expect(settings.sdm?.tagTamperOffset == template.encryptedDataOffset)
        try settings.validate(mode: .lrp)
    }
}
