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
