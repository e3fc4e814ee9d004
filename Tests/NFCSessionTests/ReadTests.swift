import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

@Suite("Reading NDEF from Type 2 tags")
struct ReadTests {
    @Test("T2T 1.1 6.4.2: a 100-byte URI message on an NTAG215 is read with one FAST_READ (pages 0-31)")
    func hundredBytesOneFastRead() async throws {
        let message = uriMessage(length: 100)
        let reader = makeReader([tagHolding(message, chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(try await tag.readNDEF() == message)
        #expect(reader.log.map(\.frame) == [[0x3A, 0x00, 0x1F]])
    }

    @Test(
        "T2T 1.1 6.4.2, NTAG213/215/216 10.3: a longer message takes FAST_READs sized to the TLV and the frame",
        arguments: [(Type2Chip.ntag215, 400), (.ntag216, 400), (.ntag216, 860), (.ntag213, 130)])
    func longMessage(chip: Type2Chip, length: Int) async throws {
        let message = uriMessage(length: length)
        let reader = makeReader([tagHolding(message, chip: chip)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(try await tag.readNDEF() == message)
        let tlvStart = chip == .ntag213 ? 21 : 16
        let tlvEnd = tlvStart + (length < 255 ? 2 : 4) + length
        let lastPage = (tlvEnd - 1) / 4
        // First read pages 0-31, then from 32 to the last page in windows of 63 pages.
        let windows = (lastPage - 31 + 62) / 63
        #expect(reader.log.count == 1 + windows)
        #expect(reader.log.allSatisfy { $0.kind == .fastRead })
        #expect(reader.log.last?.frame.last == UInt8(lastPage))
        #expect(reader.log.allSatisfy { Int($0.frame[2]) - Int($0.frame[1]) + 1 <= 63 })
    }

    @Test("NTAG213/215/216 10.2: without FAST_READ, READ returns 4 pages per command (8 for pages 0-31)")
    func readCommandsOnly() async throws {
        let message = uriMessage(length: 100)
        let reader = makeReader([tagHolding(message, chip: .ntag215)], capabilities: .readWriteOnly)
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(try await tag.readNDEF() == message)
        #expect(reader.log.map(\.frame) == stride(from: 0, to: 32, by: 4).map { [0x30, UInt8($0)] })
    }

    @Test("A reader with 64-byte frames gets FAST_READs of at most 16 pages")
    func smallFrames() async throws {
        let message = uriMessage(length: 100)
        var capabilities = NFCReaderCapabilities.testDefault
        capabilities.maximumFrameSize = 64
        let reader = makeReader([tagHolding(message, chip: .ntag215)], capabilities: capabilities)
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(try await tag.readNDEF() == message)
        #expect(reader.log.map(\.frame) == [[0x3A, 0x00, 0x0F], [0x3A, 0x10, 0x1F]])
    }

    @Test("CoreNFC readNDEF: an empty NDEF TLV (T2T 1.1 6.3.1, INITIALIZED) is zeroLengthMessage")
    func emptyTag() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag216)])
        let (_, tag) = try await openTag(reader)
        let error = await caught { _ = try await tag.readNDEF() }
        #expect(error?.code == .zeroLengthMessage)
    }

    @Test("T2T 1.1 6.1: a blank tag (CC 00) is not NDEF: tagNotSupported")
    func blankTag() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralightEV1MF0UL21)])
        let (_, tag) = try await openTag(reader)
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .tagNotSupported)
        #expect(try await tag.ndefStatus() == NDEFTagStatus(status: .notSupported, capacity: 0))
    }

    @Test(
        "T2T 1.1 6.4.1: status of factory NTAG213/215/216: read/write, capacity 137/492/868 (3-byte TLV length from 255 on)"
    )
    func factoryStatus() async throws {
        for (chip, capacity) in [(Type2Chip.ntag213, 137), (.ntag215, 492), (.ntag216, 868)] {
            let reader = makeReader([SimulatedType2Tag(chip: chip)])
            let (_, tag) = try await openTag(reader)
            reader.clearLog()
            let (status, size) = try await tag.queryNDEFStatus()
            #expect(status == .readWrite)
            #expect(size == capacity)
            // NTAG213: pages 0-42 in one FAST_READ; NTAG215/216: pages 0-7 and the lock/CFG pages.
            #expect(reader.log.count == (chip == .ntag213 ? 1 : 2))
        }
    }

    @Test("NTAG213/215/216 8.5.3: dynamic lock bits over the data area make the status read-only")
    func dynamicallyLocked() async throws {
        var image = SimulatedType2Tag.factoryImage(chip: .ntag215)
        image[0x82 * 4] = 0xFF
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215, image: image)])
        let (_, tag) = try await openTag(reader)
        #expect(try await tag.ndefStatus().status == .readOnly)
    }

    @Test("readMemory reads every page of an NTAG215 in 3 FAST_READs of at most 63 pages")
    func wholeMemory() async throws {
        let message = uriMessage(length: 200)
        let reader = makeReader([tagHolding(message, chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let memory = try await tag.readMemory()
        #expect(memory.bytes.count == 135 * 4)
        #expect(memory.message == message)
        #expect(reader.log.map(\.frame) == [[0x3A, 0, 62], [0x3A, 63, 125], [0x3A, 126, 134]])
    }
}
