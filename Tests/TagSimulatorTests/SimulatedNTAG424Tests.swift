import NDEF
import NFCCrypto
import NTAG424
import TagMemory
import TestSupport
import Testing

@testable import TagSimulator

/// The simulated NTAG 424 DNA driven with this package's reader-side NTAG424 functions: the
/// native commands, secure messaging, SDM on reads, and the errors the datasheet (NT4H2421Gx)
/// names.
@Suite struct SimulatedNTAG424Tests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)
    static let uid = hex("04518DFAA96180")

    /// A factory tag, selected, with the NDEF application selected.
    static func tag() throws -> SimulatedType4Tag {
        var tag = try SimulatedType4Tag(ntag424UID: uid)
        tag.select()
        #expect(tag.transceiveAPDU(hex("00A4040C07D276000085010100")) == hex("9000"))
        return tag
    }

    /// Sends `90 ins 00 00 [Lc data] 00`; returns data and SW2 (after 91).
    static func native(_ tag: inout SimulatedType4Tag, _ ins: UInt8, _ data: [UInt8] = []) -> (
        data: [UInt8], status: UInt8
    ) {
        let apdu = [0x90, ins, 0x00, 0x00] + (data.isEmpty ? [0x00] : [UInt8(data.count)] + data + [0x00])
        let answer = tag.transceiveAPDU(apdu) ?? []
        guard answer.count >= 2, answer[answer.count - 2] == 0x91 else { return ([], 0xFF) }
        return (Array(answer.dropLast(2)), answer[answer.count - 1])
    }

    /// AuthenticateEV2First with `key` number `number`.
    static func authenticate(_ tag: inout SimulatedType4Tag, number: UInt8 = 0, key: [UInt8] = zeroKey) throws
        -> NTAG424SecureChannel
    {
        let first = native(&tag, 0x71, [number, 0x00])
        #expect(first.status == 0xAF)
        let answer = try NTAG424Authentication.answer(
            challenge: first.data, key: key, rndA: try SecureRandom.bytes(count: 16))
        let second = native(&tag, 0xAF, answer.data)
        #expect(second.status == 0x00)
        return try NTAG424Authentication.finishFirst(
            response: second.data, key: key, answer: answer, keyNumber: Int(number)
        ).channel
    }

    @Test("GetVersion: three frames, 04 04 02 30 00 11 05 and the UID; Read_Sig answers 91 90")
    func versionAndSignature() throws {
        var tag = try Self.tag()
        #expect(Self.native(&tag, 0x60).data == hex("04 04 02 30 00 11 05"))
        #expect(Self.native(&tag, 0xAF).data == hex("04 04 02 01 02 11 05"))
        let last = Self.native(&tag, 0xAF)
        #expect(last.status == 0x00 && Array(last.data.prefix(7)) == Self.uid)
        let signature = Self.native(&tag, 0x3C, [0x00])
        #expect(signature.status == 0x90 && signature.data.count == 56)
        #expect(Self.native(&tag, 0x51).status == 0xAE, "GetCardUID needs authentication")
    }

    @Test(
        "Authenticated: GetCardUID in Full mode, GetFileSettings in MAC mode; a wrong MAC is 91 1E and ends the session"
    )
    func secureMessaging() throws {
        var tag = try Self.tag()
        var channel = try Self.authenticate(&tag)
        let uidCommand = try channel.protectCommand(0x51, header: [], data: [], mode: .full)
        let uid = Self.native(&tag, 0x51, uidCommand)
        #expect(try channel.openResponse(status: uid.status, payload: uid.data, mode: .full) == Self.uid)
        let settingsCommand = try channel.protectCommand(0xF5, header: [0x02], data: [], mode: .mac)
        let settings = Self.native(&tag, 0xF5, [0x02] + settingsCommand)
        let parsed = try NTAG424FileSettings(
            response: try channel.openResponse(status: settings.status, payload: settings.data, mode: .mac))
        #expect(parsed.read == .free && parsed.write == .free && parsed.change == .key(0) && parsed.size == 256)
        var bad = try channel.protectCommand(0xF5, header: [0x02], data: [], mode: .mac)
        bad[0] ^= 1
        #expect(Self.native(&tag, 0xF5, [0x02] + bad).status == 0x1E)
        #expect(tag.ntag424?.session == nil)
        #expect(Self.native(&tag, 0x51).status == 0xAE)
    }

    @Test("A wrong key is refused with 91 AE; an unknown key number with 91 40")
    func wrongKey() throws {
        var tag = try Self.tag()
        var other = Self.zeroKey
        other[0] = 1
        let first = Self.native(&tag, 0x71, [0x00, 0x00])
        let answer = try NTAG424Authentication.answer(
            challenge: first.data, key: other, rndA: Array(repeating: 7, count: 16))
        #expect(Self.native(&tag, 0xAF, answer.data).status == 0xAE)
        #expect(Self.native(&tag, 0x71, [0x05, 0x00]).status == 0x40)
    }

    @Test(
        "SDM set up through ChangeFileSettings and ChangeKey: each activation's read gives a URL the SUN verifier accepts, counter 1, 2, 3"
    )
    func sdmReads() throws {
        var tag = try Self.tag()
        // The NDEF message with its placeholders, written before authenticating (ISOUpdateBinary
        // is refused in a session).
        let url = "x.example/t?p=" + String(repeating: "0", count: 32) + "&m=" + String(repeating: "0", count: 16)
        let message = try NFCNDEFMessage(records: [URIRecord(uri: "https://" + url).makeRecord()]).encoded()
        let file = [0x00, UInt8(message.count)] + message
        #expect(tag.transceiveAPDU(hex("00A4000C02E104")) == hex("9000"))
        #expect(tag.transceiveAPDU([0x00, 0xD6, 0x00, 0x00, UInt8(file.count)] + file) == hex("9000"))
        var channel = try Self.authenticate(&tag)
        // PICCData after NLEN, D1 01 len 55 04 and "x.example/t?p=": 2 + 5 + 14 = 21; the MAC at 21 + 32 + 3 = 56.
        let settings = NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0), size: 256,
            sdm: .init(
                mirrorsUID: true, mirrorsReadCounter: true, metaRead: .key(1), fileRead: .key(2), piccDataOffset: 21,
                macInputOffset: 56, macOffset: 56))
        let change = try channel.protectCommand(0x5F, header: [0x02], data: settings.changeCommandData, mode: .full)
        let changed = Self.native(&tag, 0x5F, [0x02] + change)
        #expect(changed.status == 0x00)
        _ = try channel.openResponse(status: changed.status, payload: changed.data, mode: .mac)
        let keys = [hex("11111111111111111111111111111111"), hex("22222222222222222222222222222222")]
        for (number, key) in zip([UInt8(1), 2], keys) {
            let data = try NTAG424ChangeKey.commandData(
                keyNumber: Int(number), newKey: key, version: 1, oldKey: Self.zeroKey, authenticatedKey: 0)
            let sent = Self.native(
                &tag, 0xC4, [number] + (try channel.protectCommand(0xC4, header: [number], data: data, mode: .full)))
            #expect(sent.status == 0x00)
            _ = try channel.openResponse(status: sent.status, payload: sent.data, mode: .mac)
        }
        #expect(tag.ntag424?.keys[1] == keys[0] && tag.ntag424?.keyVersions[2] == 1)
        let verifier = try NTAG424SUNVerifier(metaReadKey: keys[0], fileReadKey: keys[1])
        for expected in 1...3 {
            tag.fieldOff()
            tag.select()
            #expect(tag.transceiveAPDU(hex("00A4040C07D276000085010100")) == hex("9000"))
            #expect(tag.transceiveAPDU(hex("00A4000C02E104")) == hex("9000"))
            let read = tag.transceiveAPDU(hex("00B0000000")) ?? []
            let text = String(decoding: read.dropLast(2), as: UTF8.self)
            let piccData = hex(String(text.dropFirst(21).prefix(32)))
            let mac = hex(String(text.dropFirst(56).prefix(16)))
            let result = verifier.verify(piccData: piccData, mac: mac, inputs: [("empty", [])])
            #expect(result.isValid && result.uid == Self.uid && result.counter == expected, "\(text)")
            // A second read of the same kind does not count.
            let again = tag.transceiveAPDU(hex("00B0000000")) ?? []
            #expect(again == read)
        }
    }

    @Test("The state text keeps keys, versions, file settings, the SDM counter and the proprietary file")
    func stateText() throws {
        var tag = try Self.tag()
        tag.ntag424?.keys[2] = hex("22222222222222222222222222222222")
        tag.ntag424?.keyVersions[2] = 7
        tag.ntag424?.sdmReadCounter = 0x12345
        tag.ntag424?.fileSettings[0x02]?.sdm = .init(
            mirrorsUID: true, mirrorsReadCounter: true, metaRead: .free, fileRead: .key(2), uidOffset: 10,
            readCounterOffset: 30, macInputOffset: 40, macOffset: 40)
        tag.ntag424?.proprietaryFile[5] = 0xAB
        let loaded = try SimulatedType4Tag(stateText: tag.stateText)
        #expect(loaded.ntag424?.keys == tag.ntag424?.keys && loaded.ntag424?.keyVersions == tag.ntag424?.keyVersions)
        #expect(loaded.ntag424?.fileSettings == tag.ntag424?.fileSettings)
        #expect(loaded.ntag424?.sdmReadCounter == 0x12345 && loaded.ntag424?.proprietaryFile[5] == 0xAB)
        #expect(loaded.capabilityContainerFile == SimulatedNTAG424Chip.factoryCapabilityContainer)
        #expect(loaded.ntag424?.session == nil)
        // A plain Type 4 tag's text has no ntag424 lines and loads without the chip.
        #expect(try SimulatedType4Tag(stateText: try SimulatedType4Tag().stateText).ntag424 == nil)
        #expect(throws: TagMemoryError.self) {
            try SimulatedType4Tag(
                stateText: tag.stateText.replacing("ntag424-key-versions 00 00 07", with: "ntag424-key-versions 00 07"))
        }
    }
}
