import NFCWireFormat
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The simulated MIFARE Classic card against NXP MF1S50yyX / MF1S70yyX: the manufacturer
/// block, authentication per sector, and the access conditions of section 8.7 (Tables 7, 8).
@Suite("Simulated MIFARE Classic card")
struct SimulatedClassicTests {
    static let transportKey: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    static let keyB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]

    /// A selected factory 1K card.
    func card(_ type: MifareClassicType = .classic1K, uid: [UInt8] = SimulatedClassicTag.defaultUID)
        -> SimulatedClassicTag
    {
        var card = SimulatedClassicTag(type: type, uid: uid)
        card.select()
        return card
    }

    /// A selected 1K card whose sector 1 has the trailer `keyA`, `bits`, GPB 40h, `keyB`.
    func card(sector1 bits: MifareClassicAccessBits, keyA: [UInt8] = SimulatedClassicTests.transportKey)
        -> SimulatedClassicTag
    {
        var image = SimulatedClassicTag.factoryImage(type: .classic1K)
        image.replaceSubrange(7 * 16..<8 * 16, with: keyA + bits.bytes + [0x40] + Self.keyB)
        var card = SimulatedClassicTag(type: .classic1K, image: image, uidLength: 4)
        card.select()
        return card
    }

    @Test("A factory card: block 0 holds UID, BCC, SAK and ATQA; every trailer is FFFFFFFFFFFF FF0780 69 FFFFFFFFFFFF")
    func factoryCard() throws {
        let card = card()
        let block0 = try #require(card.block(0))
        #expect(Array(block0.prefix(8)) == [0xC1, 0x7A, 0x55, 0x0E, 0xC1 ^ 0x7A ^ 0x55 ^ 0x0E, 0x08, 0x04, 0x00])
        for sector in MifareClassicType.classic1K.sectors {
            #expect(card.trailer(of: sector) == SimulatedClassicTag.transportTrailer)
        }
        #expect(card.memory.trailers.allSatisfy { $0.accessBits == .transport })
    }

    @Test(
        "AN10833 Table 6: SAK 09h Mini, 08h 1K, 18h 4K; ATQA 0004h, 0002h for 4K, bit 6 set for a 7-byte UID",
        arguments: [
            (MifareClassicType.mini, 4, UInt8(0x09), [UInt8(0x04), 0x00]),
            (.classic1K, 4, 0x08, [0x04, 0x00]), (.classic1K, 7, 0x08, [0x44, 0x00]),
            (.classic4K, 4, 0x18, [0x02, 0x00]), (.classic4K, 7, 0x18, [0x42, 0x00]),
        ])
    func identification(type: MifareClassicType, uidLength: Int, sak: UInt8, atqa: [UInt8]) {
        let uid: [UInt8] = uidLength == 7 ? [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] : [0x01, 0x02, 0x03, 0x04]
        let card = SimulatedClassicTag(type: type, uid: uid)
        #expect(card.sak == sak && card.atqa == atqa && card.uid == uid)
        #expect(card.bytes.count == type.byteCount)
        // Read back from the image alone, the UID has the same length.
        #expect(SimulatedClassicTag(type: type, image: card.bytes).uid == uid)
    }

    @Test("8.7: the transport key A opens a sector; a wrong key or UID gets no answer and sends the card to IDLE")
    func authentication() {
        var card = card()
        let uid = card.uid
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: uid) == .ack)
        #expect(card.authentication == .init(sector: 1, usedKeyB: false))
        #expect(card.authenticate(block: 4, key: [0, 0, 0, 0, 0, 0], uid: uid) == .silent)
        #expect(card.state == .idle && card.authentication == nil)
        card.select()
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: [1, 2, 3, 4]) == .silent)
        #expect(card.state == .idle)
        card.select()
        #expect(card.authenticate(block: 64, key: Self.transportKey, uid: uid) == .nak(4))
        #expect(card.count(of: .authenticateA) == 4)
    }

    @Test("A 7-byte UID authenticates with its last four bytes (UID3-UID6)")
    func sevenByteUID() {
        var card = card(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        #expect(card.authenticate(block: 1, key: Self.transportKey, uid: [0x04, 0x11, 0x22, 0x33]) == .silent)
        card.select()
        #expect(card.authenticate(block: 1, key: Self.transportKey, uid: [0x33, 0x44, 0x55, 0x66]) == .ack)
        let frame = MifareClassicCommand.authenticationFrame(
            keyB: false, block: 1, key: Self.transportKey, uid: card.uid)
        #expect(Array(frame.suffix(4)) == [0x33, 0x44, 0x55, 0x66])
    }

    @Test("Transport configuration: key A reads and writes data; the trailer reads key A as zeros, key B as stored")
    func transportConfiguration() {
        var card = card()
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: card.uid) == .ack)
        let data = [UInt8](0..<16)
        #expect(card.write(block: 5, data) == .ack)
        #expect(card.read(block: 5) == .data(data))
        #expect(card.read(block: 7) == .data([0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69] + Self.transportKey))
        // Another sector's block needs its own authentication.
        #expect(card.read(block: 8) == .nak(4))
        #expect(card.state == .idle)
    }

    @Test("Tables 7, 8 note [1]: key B that the trailer lets be read authenticates, but every access is refused")
    func readableKeyB() {
        var card = card()
        #expect(card.authenticate(block: 4, keyB: true, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.read(block: 4) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 4, keyB: true, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.write(block: 4, [UInt8](repeating: 1, count: 16)) == .nak(4))
    }

    @Test("An NFC sector (7F 07 88, AN1304): key A reads and writes data but no part of the trailer; key B all of it")
    func ndefSector() {
        var card = card(sector1: .ndefReadWrite, keyA: MifareClassicSectorTrailer.ndefKeyA)
        #expect(card.authenticate(block: 4, key: MifareClassicSectorTrailer.ndefKeyA, uid: card.uid) == .ack)
        #expect(card.write(block: 4, [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13)) == .ack)
        #expect(card.read(block: 7) == .data([0, 0, 0, 0, 0, 0, 0x7F, 0x07, 0x88, 0x40, 0, 0, 0, 0, 0, 0]))
        let trailer = Self.transportKey + MifareClassicAccessBits.transport.bytes + [0x69] + Self.transportKey
        #expect(card.write(block: 7, trailer) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 4, keyB: true, key: Self.keyB, uid: card.uid) == .ack)
        #expect(card.write(block: 7, trailer) == .ack)
        #expect(card.trailer(of: MifareClassicSector(1)!) == trailer)
    }

    @Test("A read-only NFC sector (07 8F 0F, AN1305): data reads with key A; no key writes data or trailer")
    func readOnlySector() {
        var card = card(sector1: .ndefReadOnly, keyA: MifareClassicSectorTrailer.ndefKeyA)
        #expect(card.authenticate(block: 4, key: MifareClassicSectorTrailer.ndefKeyA, uid: card.uid) == .ack)
        #expect(card.read(block: 4) == .data([UInt8](repeating: 0, count: 16)))
        #expect(card.write(block: 4, [UInt8](repeating: 1, count: 16)) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 4, keyB: true, key: Self.keyB, uid: card.uid) == .ack)
        #expect(card.write(block: 4, [UInt8](repeating: 1, count: 16)) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 4, keyB: true, key: Self.keyB, uid: card.uid) == .ack)
        #expect(card.write(block: 7, [UInt8](repeating: 0xFF, count: 16)) == .nak(4))
    }

    @Test("Table 7, 100: key B writes both keys; the access bits it sends are not taken")
    func trailerWrittenInParts() {
        let bits = MifareClassicAccessBits(conditions: [0, 0, 0, 0b100])
        var card = card(sector1: bits)
        #expect(card.authenticate(block: 4, keyB: true, key: Self.keyB, uid: card.uid) == .ack)
        let newKeyA: [UInt8] = [1, 2, 3, 4, 5, 6]
        let newKeyB: [UInt8] = [7, 8, 9, 10, 11, 12]
        #expect(card.write(block: 7, newKeyA + MifareClassicAccessBits.transport.bytes + [0x69] + newKeyB) == .ack)
        #expect(card.trailer(of: MifareClassicSector(1)!) == newKeyA + bits.bytes + [0x40] + newKeyB)
    }

    @Test("8.7.1: access bits whose copies disagree block the sector: it authenticates, but nothing is read")
    func inconsistentAccessBits() {
        var card = card(sector1: MifareClassicAccessBits(byte6: 0x7F, byte7: 0x07, byte8: 0x80))
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.read(block: 4) == .nak(4))
    }

    @Test("8.6.1: the manufacturer block is write-protected")
    func manufacturerBlock() {
        var card = card()
        #expect(card.authenticate(block: 0, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.write(block: 0, [UInt8](repeating: 0, count: 16)) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 0, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.read(block: 0) == .data(card.block(0)!))
    }

    @Test("8.6.2.1: INCREMENT and DECREMENT work on value blocks through the transfer buffer, as the access bits allow")
    func valueBlocks() {
        // Group 1 (block 5) is a value block under 110: increment with key B, decrement with A|B.
        var card = card(sector1: MifareClassicAccessBits(conditions: [0, 0b110, 0, 0b011]))
        let value: [UInt8] = [100, 0, 0, 0, 155, 255, 255, 255, 100, 0, 0, 0, 5, 250, 5, 250]
        #expect(card.authenticate(block: 4, keyB: true, key: Self.keyB, uid: card.uid) == .ack)
        #expect(card.write(block: 5, value) == .ack)
        #expect(card.transceive([0xC1, 5, 7, 0, 0, 0]) == .ack)
        #expect(card.transceive([0xB0, 5]) == .ack)
        #expect(card.read(block: 5) == .data([107, 0, 0, 0, 148, 255, 255, 255, 107, 0, 0, 0, 5, 250, 5, 250]))
        card.select()
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.transceive([0xC1, 5, 1, 0, 0, 0]) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.transceive([0xC0, 5, 10, 0, 0, 0]) == .ack)
        #expect(card.transceive([0xB0, 5]) == .ack)
        #expect(card.read(block: 5).dataPrefix(4) == [97, 0, 0, 0])
        // A block that is not in the value format is refused.
        #expect(card.transceive([0xC0, 4, 1, 0, 0, 0]) == .nak(4))
    }

    @Test("MF1S70yyX 8.7.1: a 4K card's sectors 32-39 have 16 blocks, in access groups of five")
    func largeSectors() {
        var card = card(.classic4K)
        #expect(card.bytes.count == 4096)
        #expect(card.authenticate(block: 200, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.authentication?.sector == 36)
        #expect(card.read(block: 207) == .data([0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69] + Self.transportKey))
        #expect(card.read(block: 208) == .nak(4))
        card.select()
        #expect(card.authenticate(block: 255, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.authentication?.sector == 39)
    }

    @Test("HLTA halts the card and ends the authentication; only a new selection wakes it")
    func halt() {
        var card = card()
        #expect(card.authenticate(block: 4, key: Self.transportKey, uid: card.uid) == .ack)
        #expect(card.transceive([0x50, 0x00]) == .silent)
        #expect(card.state == .halt && card.authentication == nil)
        #expect(card.read(block: 4) == .silent)
    }

    @Test("A dump keeps the image with its keys; the UID length comes back from block 0")
    func dumpRoundTrip() throws {
        var card = card(sector1: .ndefReadWrite, keyA: MifareClassicSectorTrailer.ndefKeyA)
        card.fieldOff()
        let dump = card.dump
        #expect(dump.layout == .mifareClassic && dump.memory == card.bytes && dump.uid == card.uid)
        let loaded = try SimulatedClassicTag(dump: TagDump(layout: .mifareClassic, memory: card.bytes))
        #expect(loaded.bytes == card.bytes && loaded.uid == card.uid && loaded.type == .classic1K)
        #expect(throws: TagMemoryError.self) {
            try SimulatedClassicTag(dump: TagDump(layout: .mifareClassic, memory: [UInt8](repeating: 0, count: 1000)))
        }
    }

    @Test(
        "Malformed frames are refused with NAK 4h, never trap",
        arguments: [[], [0x60], [0x30], [0xA0, 4, 1], [0xFF, 1, 2]])
    func malformedFrames(frame: [UInt8]) {
        var card = card()
        _ = card.authenticate(block: 4, key: Self.transportKey, uid: card.uid)
        #expect(card.transceive(frame) == .nak(4))
    }
}

extension SimulatedClassicTag {
    mutating func authenticate(block: UInt8, keyB: Bool = false, key: [UInt8], uid: [UInt8]) -> SimulatedType2Response {
        transceive(MifareClassicCommand.authenticationFrame(keyB: keyB, block: block, key: key, uid: uid))
    }

    mutating func read(block: UInt8) -> SimulatedType2Response {
        transceive(MifareClassicCommand.readFrame(block: block))
    }

    mutating func write(block: UInt8, _ data: [UInt8]) -> SimulatedType2Response {
        transceive(MifareClassicCommand.writeFrame(block: block, data: data))
    }
}

extension SimulatedType2Response {
    /// The first `count` data bytes, nil for an answer without data.
    func dataPrefix(_ count: Int) -> [UInt8]? {
        if case .data(let bytes) = self { return Array(bytes.prefix(count)) }
        return nil
    }
}

/// Arbitrary frames never trap the simulated Classic card nor change its manufacturer block.
@Suite("Simulated MIFARE Classic card: arbitrary frames")
struct SimulatedClassicRobustnessTests {
    @Test(
        "MF1S50yyX 8.6.1: random frames keep the image size and block 0; every frame is counted",
        arguments: [MifareClassicType.mini, .classic1K, .classic4K])
    func randomFrames(type: MifareClassicType) {
        var card = SimulatedClassicTag(type: type)
        card.select()
        var generator = SeededRandom(seed: UInt64(type.byteCount) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let commands: [UInt8] = [0x60, 0x61, 0x30, 0xA0, 0xC0, 0xC1, 0xC2, 0xB0, 0x50, 0xFF]
        let block0 = card.block(0)
        for round in 0..<5000 {
            let length = Int.random(in: 0...20, using: &generator)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !frame.isEmpty, Bool.random(using: &generator) {
                frame[0] = commands[Int.random(in: 0..<commands.count, using: &generator)]
            }
            // Now and then a right transport-key authentication, so that reads and writes get through.
            if round.isMultiple(of: 7), frame.count >= 2 {
                frame = MifareClassicCommand.authenticationFrame(
                    keyB: false, block: frame[1], key: SimulatedClassicTests.transportKey, uid: card.uid)
            }
            if card.transceive(frame) == .silent || card.state != .active { card.select() }
        }
        #expect(card.bytes.count == type.byteCount)
        #expect(card.block(0) == block0)
        #expect(card.totalCommandCount == 5000)
    }
}
