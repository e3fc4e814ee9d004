import NDEF
import NTAG424
import TestSupport
import Testing

/// File settings with SDM (NT4H2421Gx 10.7.1) and what the tag mirrors with them.
@Suite struct NTAG424SettingsTests {
    /// SDM with PICCData under key 1 at 32 and the SDMMAC under key 2 at 67 with an empty input.
    static let sunSettings = NTAG424FileSettings(
        communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0), size: 256,
        sdm: NTAG424FileSettings.SDM(
            mirrorsUID: true, mirrorsReadCounter: true, metaRead: .key(1), fileRead: .key(2), piccDataOffset: 32,
            macInputOffset: 67, macOffset: 67))

    @Test("ChangeFileSettings data: FileOption 40h, AccessRights 00 E0, SDMOptions C1, SDMAccessRights F1 12, offsets")
    func encoding() throws {
        let data = Self.sunSettings.changeCommandData
        #expect(data == hex("40 00 E0 C1 FF 12 20 00 00 43 00 00 43 00 00"))
        let parsed = try NTAG424FileSettings(changeCommandData: data, size: 256)
        #expect(parsed == Self.sunSettings)
        #expect(try NTAG424FileSettings(response: Self.sunSettings.encoded) == Self.sunSettings)
        try Self.sunSettings.validate()
    }

    @Test("Settings the chip refuses: past the file, overlapping, not ASCII, a nibble 5h-Dh, bytes left over")
    func refusals() throws {
        var past = Self.sunSettings
        past.sdm?.macOffset = 250
        past.sdm?.macInputOffset = 250
        #expect(throws: NTAG424Error.self) { try past.validate() }
        var overlap = Self.sunSettings
        overlap.sdm?.macOffset = 40
        overlap.sdm?.macInputOffset = 40
        #expect(throws: NTAG424Error.self) { try overlap.validate() }
        var binary = Self.sunSettings
        binary.sdm?.isASCII = false
        #expect(throws: NTAG424Error.self) { try binary.validate() }
        #expect(throws: NTAG424Error.self) {
            try NTAG424FileSettings(changeCommandData: hex("00 00 E5"), size: 256)
        }
        #expect(throws: NTAG424Error.self) {
            try NTAG424FileSettings(changeCommandData: hex("00 00 E0 00"), size: 256)
        }
    }

    @Test("The mirror a read shows verifies with the SUN verifier; the counter and UID come back")
    func mirrorRoundTrip() throws {
        let keys = (0..<5).map { [UInt8](repeating: UInt8($0) * 0x11, count: 16) }
        let sdm = try #require(Self.sunSettings.sdm)
        let url = Array("https://x.example/?p=00000000000000000000000000000000&m=0000000000000000".utf8)
        var file = [UInt8](repeating: 0, count: 256)
        file.replaceSubrange(0..<url.count, with: url)
        // The URL's placeholders: p at 21, m at 56 in this file.
        var settings = sdm
        settings.piccDataOffset = 21
        settings.macInputOffset = 56
        settings.macOffset = 56
        let read = try NTAG424SDMMirror(settings: settings, keys: keys).read(
            file: file, uid: hex("04DE5F1EACC040"), counter: 61, padding: hex("0102030405"))
        let text = String(decoding: read[0..<url.count], as: UTF8.self)
        let piccData = hex(String(text.dropFirst(21).prefix(32)))
        let mac = hex(String(text.dropFirst(56).prefix(16)))
        let verifier = try NTAG424SUNVerifier(metaReadKey: keys[1], fileReadKey: keys[2])
        let result = verifier.verify(piccData: piccData, mac: mac, inputs: [("empty", [])])
        #expect(result.isValid && result.uid == hex("04DE5F1EACC040") && result.counter == 61, "\(text)")
    }
}

/// `{picc}` and `{mac}` in a URL made into the NDEF file and the SDM settings.
@Suite struct NTAG424SDMTemplateTests {
    @Test("AN12196's URL: PICCData at 32, the SDMMAC at 67, as its ChangeFileSettings example has them")
    func an12196Layout() throws {
        let template = try NTAG424SDMTemplate(url: "https://choose.url.com/ntag424?e={picc}&c={mac}")
        #expect(template.piccDataOffset == 32 && template.macOffset == 67)
        // NLEN 0051, D1 01 4D 55 04 "choose.url.com/ntag424?e=" and the zeros: AN12196 Table 17's file.
        #expect(Array(template.file.prefix(7)) == hex("0051D1014D5504"))
        let settings = template.settings(metaReadKey: 2, fileReadKey: 1, lockNDEF: true)
        try settings.validate()
        #expect(settings.sdm?.macInputOffset == 67)
    }

    @Test("Placeholders missing, twice, in the wrong order, or a URL too long for the file are refused")
    func refused() {
        for url in [
            "https://x/?p={picc}", "https://x/?m={mac}", "https://x/?m={mac}&p={picc}",
            "https://x/?p={picc}&q={picc}&m={mac}",
            "https://x/" + String(repeating: "a", count: 200) + "?p={picc}&m={mac}",
        ] {
            #expect(throws: NTAG424Error.self, "\(url)") { try NTAG424SDMTemplate(url: url) }
        }
    }

    @Test("The file a tag with these settings mirrors verifies with the keys")
    func roundTrip() throws {
        let template = try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}")
        let keys = (0..<5).map { [UInt8](repeating: UInt8($0 + 1), count: 16) }
        let sdm = try #require(template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: false).sdm)
        var file = template.file
        file += [UInt8](repeating: 0, count: 256 - file.count)
        let read = try NTAG424SDMMirror(settings: sdm, keys: keys).read(
            file: file, uid: hex("04112233445566"), counter: 5, padding: [9, 9, 9, 9, 9])
        let message = try NFCNDEFMessage(decoding: Array(read[2..<template.file.count]))
        let url = try URIRecord(parsing: try #require(message.records.first)).uri
        let result = try NTAG424SUNURL(url).verify(
            with: try NTAG424SUNVerifier(metaReadKey: keys[1], fileReadKey: keys[2]))
        #expect(result.isValid && result.counter == 5 && result.uid == hex("04112233445566"), "\(url)")
    }

    @Test(
        "{enc} and LRP: offsets, the window twice the padded data, and the mirror of each mode verifies",
        arguments: NTAG424CryptoMode.allCases)
    func fileDataRoundTrip(mode: NTAG424CryptoMode) throws {
        let template = try NTAG424SDMTemplate(
            url: "https://x.example/t?picc_data={picc}&enc={enc}&cmac={mac}", mode: mode, fileData: Array("lot 7".utf8))
        let piccLength = mode == .aes ? 32 : 48
        #expect(template.piccDataOffset == 29 && template.encryptedDataOffset == 29 + piccLength + 5)
        #expect(template.encryptedDataLength == 32 && template.fileData == Array("lot 7           ".utf8))
        #expect(template.macInputOffset == template.encryptedDataOffset)
        #expect(template.macOffset == 29 + piccLength + 5 + 32 + 6)
        #expect(template.mirroredRanges.map(\.count) == [piccLength, 32, 16])
        let keys = (0..<5).map { [UInt8](repeating: UInt8($0 + 1), count: 16) }
        let settings = template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: false)
        try settings.validate()
        let sdm = try #require(settings.sdm)
        #expect(sdm.mirroredRanges(mode: mode) == template.mirroredRanges)
        var file = template.file
        file += [UInt8](repeating: 0, count: 256 - file.count)
        let read = try NTAG424SDMMirror(settings: sdm, keys: keys, mode: mode).read(
            file: file, uid: hex("04112233445566"), counter: 9, padding: Array(1...16))
        let message = try NFCNDEFMessage(decoding: Array(read[2..<template.file.count]))
        let url = try URIRecord(parsing: try #require(message.records.first)).uri
        let result = try NTAG424SUNURL(url).verify(
            with: try NTAG424SUNVerifier(metaReadKey: keys[1], fileReadKey: keys[2]))
        #expect(result.isValid && result.mode == mode && result.counter == 9, "\(url)")
        #expect(result.fileData == Array("lot 7           ".utf8) && result.macInput == "from enc")
    }
}
