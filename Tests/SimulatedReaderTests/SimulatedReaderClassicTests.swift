import NFCSession
import NFCWireFormat
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// `sim:classic1k`, `sim:classic4k`, `sim:classic-mini`: URLs, tag files and the MIFARE Classic
/// command path of the simulated reader.
@Suite("Simulated reader: MIFARE Classic")
struct SimulatedReaderClassicTests {
    static let transport: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    @Test("sim:classic1k, classic4k and classic-mini parse, with a 4- or 7-byte uid=, and print back the same")
    func urls() throws {
        for (text, type) in [
            ("sim:classic1k", MifareClassicType.classic1K), ("sim:CLASSIC4K", .classic4K), ("sim:classic-mini", .mini),
        ] {
            let url = try SimulatedReaderURL(parsing: text)
            #expect(url.classicType == type && url.chip == nil && url.type4Configuration == nil)
            #expect(try SimulatedReaderURL(parsing: url.description) == url)
        }
        let seven = try SimulatedReaderURL(parsing: "sim:classic1k?uid=04112233445566&nak-write=2&nak-code=4")
        #expect(seven.uid?.count == 7 && seven.faults.nakWrite == 2 && seven.faults.nakCode == 4)
        #expect(try SimulatedReaderURL(parsing: "sim:classic4k?uid=C17A550E").uid == [0xC1, 0x7A, 0x55, 0x0E])
        expectRefused("sim:classic1k?uid=0102030405", naming: "4 or 7 bytes")
        expectRefused("sim:classic1k?signature=00", naming: "not MIFARE Classic")
        expectRefused("sim:classic1k?get-version=0004040201000F03", naming: "not MIFARE Classic")
        expectRefused("sim:classic1k?ndef-size=100", naming: "Type 4 tags only")
    }

    @Test("MIFARE Classic commands reach the card; a refused key is authentication-failed, Type 2 frames are refused")
    func commands() async throws {
        let reader = try await SimulatedReader(url: "sim:classic1k")
        try await reader.selectFirst()
        let uid = reader.field.tags[0].uid
        let auth = MifareClassicCommand.authenticationFrame(keyB: false, block: 4, key: Self.transport, uid: uid)
        #expect(try await reader.transceiveClassic(auth) == .ack)
        #expect(try await reader.transceiveClassic([0x30, 4]) == .data([UInt8](repeating: 0, count: 16)))
        let wrong = MifareClassicCommand.authenticationFrame(keyB: false, block: 4, key: [0, 0, 0, 0, 0, 0], uid: uid)
        await #expect(throws: NFCReaderError(.authenticationFailed, "")) { try await reader.transceiveClassic(wrong) }
        await #expect(throws: NFCReaderError(.tagResponseError, "")) { try await reader.transceive([0x30, 4]) }
        let type2 = try await SimulatedReader(url: "sim:ntag215")
        try await type2.selectFirst()
        await #expect(throws: NFCReaderError(.tagResponseError, "")) { try await type2.transceiveClassic([0x30, 4]) }
    }

    @Test(
        "A written block is saved to a .mfd file (a raw image with its keys) and a .txt hex file; a new reader sees it")
    func files() async throws {
        let directory = try TemporaryDirectory("simclassic")
        defer { directory.remove() }
        for name in ["card.mfd", "card.txt"] {
            let url = "sim:classic1k?uid=04112233445566&file=" + directory.path(name)
            let data = [UInt8](0..<16)
            try await { () async throws in
                let reader = try await SimulatedReader(url: url)
                try await reader.selectFirst()
                let auth = MifareClassicCommand.authenticationFrame(
                    keyB: true, block: 8, key: Self.transport, uid: [0x33, 0x44, 0x55, 0x66])
                #expect(try await reader.transceiveClassic(auth) == .ack)
                // Key B is readable in the transport configuration: the card refuses its access.
                #expect(
                    try await reader.transceiveClassic(MifareClassicCommand.writeFrame(block: 8, data: data)) == .nak(4)
                )
                try await reader.select(try #require(try await reader.pollTargets().first))
                let authA = MifareClassicCommand.authenticationFrame(
                    keyB: false, block: 8, key: Self.transport, uid: [0x33, 0x44, 0x55, 0x66])
                #expect(try await reader.transceiveClassic(authA) == .ack)
                #expect(
                    try await reader.transceiveClassic(MifareClassicCommand.writeFrame(block: 8, data: data)) == .ack)
                await reader.close()
            }()
            let saved = try directory.read(name)
            if name.hasSuffix(".mfd") {
                #expect(saved.count == 1024 && Array(saved[128..<144]) == data)
                #expect(Array(saved[0..<7]) == [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
            } else {
                #expect(
                    String(decoding: saved, as: UTF8.self).contains("00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F"))
            }
            let again = try await SimulatedReader(url: url)
            try await again.selectFirst()
            #expect(again.field.tags[0].uid == [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
            #expect(again.field.tags[0].classicTag?.block(8) == data)
            await again.close()
        }
    }

    @Test("A 1K image opened as a 4K, a Type 2 dump opened as a Classic card, and the reverse, are refused by name")
    func wrongKind() async throws {
        let directory = try TemporaryDirectory("simclassic")
        defer { directory.remove() }
        let card = directory.path("card.mfd")
        // A file is written at the first change.
        let first = try await SimulatedReader(url: "sim:classic1k?file=" + card)
        try await first.selectFirst()
        let uid = first.field.tags[0].uid
        let auth = MifareClassicCommand.authenticationFrame(keyB: false, block: 4, key: Self.transport, uid: uid)
        #expect(try await first.transceiveClassic(auth) == .ack)
        let write = MifareClassicCommand.writeFrame(block: 4, data: [UInt8](repeating: 1, count: 16))
        #expect(try await first.transceiveClassic(write) == .ack)
        await first.close()
        #expect(try directory.read("card.mfd").count == 1024)
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            _ = try await SimulatedReader(url: "sim:classic4k?file=" + card)
        }
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            _ = try await SimulatedReader(url: "sim:ntag215?file=" + card)
        }
        let dump = directory.path("tag.nfc")
        let type2 = try await SimulatedReader(url: "sim:ntag215?file=" + dump)
        try await type2.selectFirst()
        #expect(try await type2.write(5, "01 02 03 04") == .ack)
        await type2.close()
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            _ = try await SimulatedReader(url: "sim:classic1k?file=" + dump)
        }
    }
}
