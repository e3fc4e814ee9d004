import TagMemory
import Testing

/// Keys files in lines and the order keys are tried in.
@Suite("MIFARE Classic keyring")
struct ClassicKeyringTests {
    @Test("Keys, sector keys and the key B to install; comments and blank lines skipped")
    func lines() throws {
        let text = """
            # keys of the line 3 cards
            A0B1C2D3E4F5
            sector 5 11:22:33:44:55:66\r
              key-b 0123456789AB

            """
        let keys = try MifareClassicKeyring(linesOf: text)
        #expect(keys.candidates == [MifareClassicKey((0xA0, 0xB1, 0xC2, 0xD3, 0xE4, 0xF5))])
        #expect(keys.sectorCandidates[5] == [MifareClassicKey((0x11, 0x22, 0x33, 0x44, 0x55, 0x66))])
        #expect(keys.keyBToInstall == MifareClassicKey((0x01, 0x23, 0x45, 0x67, 0x89, 0xAB)))
        // Sector 5: its own key, the file's, the public keys, the key B to install, no repeats.
        #expect(
            keys.keys(forSector: 5).map(\.bytes) == [
                [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], [0xA0, 0xB1, 0xC2, 0xD3, 0xE4, 0xF5],
                MifareClassicKey.transport.bytes, MifareClassicKey.ndefKeyA.bytes, MifareClassicKey.directoryKeyA.bytes,
                [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB],
            ])
        #expect(keys.keys(forSector: 1).count == 5)
        #expect(try MifareClassicKeyring(linesOf: "FFFFFFFFFFFF").keys(forSector: 0).count == 3)
    }

    @Test(
        "A wrong line names its number, never its text",
        arguments: [
            ("A0B1C2D3E4", "line 1"), ("ok\nsector 40 A0B1C2D3E4F5", "line 1"),
            ("A0B1C2D3E4F5\nsector 40 A0B1C2D3E4F5", "line 2"),
            ("key-b A0B1C2D3E4F5\nkey-b A0B1C2D3E4F5", "line 2"), ("A0B1C2D3E4F5 A0B1C2D3E4F5", "line 1"),
            ("sector x A0B1C2D3E4F5", "line 1"), ("key-b A0B1C2D3E4ZZ", "line 1"),
        ])
    func refusals(text: String, place: String) {
        do {
            _ = try MifareClassicKeyring(linesOf: text)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.reason.hasPrefix(place))
            #expect(!error.reason.contains("A0B1C2D3E4"))
        }
    }
}
