import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Raw and NXP commands")
struct CommandTests {
    @Test("CoreNFC sendMiFareCommand: WRITE answers ACK as [0x0A]; READ answers 16 bytes")
    func rawWriteAndRead() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        #expect(try await tag.sendMiFareCommand([0xA2, 0x10, 1, 2, 3, 4]) == [0x0A])
        let read = try await tag.sendMiFareCommand([0x30, 0x10])
        #expect(read.count == 16)
        #expect(Array(read.prefix(4)) == [1, 2, 3, 4])
    }

    @Test("NTAG213/215/216 9.3: a NAK is tagResponseError with its code; the tag is selected again after it")
    func rawNak() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        let error = try #require(await caught { _ = try await tag.sendMiFareCommand([0x30, 0xF0]) })
        #expect(error.code == .tagResponseError)
        #expect(error.reason.contains("NAK 0h"))
        let selects = reader.selectCount
        #expect(try await tag.sendMiFareCommand([0x30, 0x00]).count == 16)
        #expect(reader.selectCount == selects + 1)
    }

    @Test("NTAG213/215/216 10.8: READ_SIG 3C 00 returns the 32-byte signature")
    func signature() async throws {
        let simulated = SimulatedType2Tag(chip: .ntag216)
        let reader = makeReader([simulated])
        let (_, tag) = try await openTag(reader)
        #expect(try await tag.readSignature() == simulated.signature)
        #expect(reader.log.last?.frame == [0x3C, 0x00])
    }

    @Test("NTAG213/215/216 10.6 and 8.7: READ_CNT 39 02 reads the NFC counter, least significant byte first")
    func counter() async throws {
        var image = SimulatedType2Tag.factoryImage(chip: .ntag213)
        image[0x2A * 4] = 0x10  // ACCESS: NFC_CNT_EN
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213, image: image)])
        let (_, tag) = try await openTag(reader)
        _ = try await tag.ndefStatus()
        #expect(try await tag.readCounter() == 1)
        #expect(reader.log.last?.frame == [0x39, 0x02])
    }

    @Test("A disabled NFC counter answers NAK: tagResponseError")
    func counterDisabled() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        #expect(await caught { _ = try await tag.readCounter() }?.code == .tagResponseError)
    }

    @Test("NTAG213/215/216 10.1: readVersion sends 60h alone and returns the 8 bytes")
    func version() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        #expect(try await tag.readVersion() == hex("00 04 04 02 01 00 11 03"))
    }

    @Test("A reader without raw commands: GET_VERSION, READ_SIG and PWD_AUTH are unsupportedFeature, not sent")
    func noRawCommands() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)], capabilities: .readWriteOnly)
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(await caught { _ = try await tag.readVersion() }?.code == .unsupportedFeature)
        #expect(await caught { _ = try await tag.readSignature() }?.code == .unsupportedFeature)
        #expect(await caught { _ = try await tag.sendMiFareCommand([0x60]) }?.code == .unsupportedFeature)
        #expect(await caught { try await tag.authenticate(password: [1, 2, 3, 4]) }?.code == .unsupportedFeature)
        #expect(reader.log.isEmpty)
    }
}
