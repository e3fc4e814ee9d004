import NFCWireFormat
import TestSupport
import Testing

/// The PN532's host-link frames (PN532 User Manual UM0701, 6.2.1) and their decoder: every
/// frame kind, bytes split across reads, wrong checksums, extended frames, hostile streams.
@Suite struct PN532FrameTests {
    /// Decodes `bytes` fed in pieces of `chunk` bytes; every item, in order.
    static func decode(_ bytes: [UInt8], chunk: Int = .max) -> [PN532FrameDecoder.Item] {
        var decoder = PN532FrameDecoder()
        var items: [PN532FrameDecoder.Item] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, chunk))
            decoder.append(bytes[offset..<end])
            offset = end
            while let item = decoder.next() { items.append(item) }
        }
        return items
    }

    @Test("UM0701 6.2.1.1: GetFirmwareVersion as libnfc and nfcpy send it (LEN 02, LCS FE, DCS 2A)")
    func normalFrame() {
        #expect(PN532Frame.information([0xD4, 0x02]).encoded == hex("0000FF02FED4022A00"))
        #expect(Self.decode(hex("0000FF02FED4022A00")) == [.frame(.information([0xD4, 0x02]))])
        // The answer as a PN532 v1.6 sends it.
        #expect(
            PN532Frame.information(hex("D50332010607")).encoded == hex("0000FF06FAD50332010607E800"))
    }

    @Test("UM0701 6.2.1.3-6.2.1.5: ACK, NACK and the error frame")
    func controlFrames() {
        #expect(PN532Frame.ack.encoded == hex("0000FF00FF00"))
        #expect(PN532Frame.nack.encoded == hex("0000FFFF0000"))
        #expect(PN532Frame.information([0x7F]).encoded == PN532Frame.errorBytes)
        #expect(PN532Frame.information([0x7F]).isError)
        #expect(Self.decode(hex("0000FF00FF00 0000FFFF0000")) == [.frame(.ack), .frame(.nack)])
        #expect(Self.decode(PN532Frame.errorBytes) == [.frame(.information([0x7F]))])
    }

    @Test("UM0701 6.2.1.2: an extended frame both ways; LEN FF goes extended, as hosts expect")
    func extendedFrame() throws {
        // nfcpy's communication line test: Diagnose 00 and 262 bytes, LEN 0109.
        let line = [0xD4, 0x00, 0x00] + (0..<262).map { UInt8(truncatingIfNeeded: $0) }
        let encoded = try #require(PN532Frame.information(line).encoded)
        #expect(Array(encoded.prefix(8)) == hex("0000FFFFFF0109F6"))
        #expect(encoded.count == 8 + 265 + 2)
        #expect(PN532Frame.checksum(line) &+ encoded[encoded.count - 2] == 0)
        #expect(Self.decode(encoded) == [.frame(.information(line))])
        let longest = [UInt8](repeating: 0xD5, count: 254)
        #expect(PN532Frame.information(longest).encoded?[3] == 0xFE)
        #expect(PN532Frame.information(longest + [0x01]).encoded?.prefix(7) == hex("0000FFFFFF00FF")[...])
        // libnfc sends a normal frame of LEN FF (LCS 01): taken as a normal frame.
        let normal255 = hex("0000FFFF01") + [UInt8](repeating: 0x01, count: 255) + [0x01, 0x00]
        #expect(Self.decode(normal255) == [.frame(.information([UInt8](repeating: 0x01, count: 255)))])
    }

    @Test("Frames split across reads at every position decode the same", arguments: [1, 2, 3, 5, 7, 64])
    func splitReads(_ chunk: Int) {
        let stream = hex("55550000000000000000000000000000 0000FF03FDD41401170000 0000FF00FF00 0000FFFF0000")
        #expect(
            Self.decode(stream, chunk: chunk) == [
                .frame(.information([0xD4, 0x14, 0x01])), .frame(.ack), .frame(.nack),
            ])
    }

    @Test("The wake-up preamble and nfcpy's ten leading zeros are skipped")
    func preambles() {
        let libnfc = hex("5555000000000000000000000000000000 0000FF03FDD414011700")
        #expect(Self.decode(libnfc) == [.frame(.information(hex("D41401")))])
        let nfcpy = hex("00000000000000000000 0000FF02FED4022A00")
        #expect(Self.decode(nfcpy) == [.frame(.information(hex("D402")))])
    }

    @Test("A wrong LCS or DCS drops the frame; the good frame after it is still found")
    func badChecksums() {
        let badLength = hex("0000FF03FCD414011700")
        let badData = hex("0000FF03FDD414011800")
        let good = hex("0000FF02FED4022A00")
        #expect(Self.decode(badLength + good) == [.rejected(.lengthChecksum), .frame(.information(hex("D402")))])
        #expect(Self.decode(badData + good) == [.rejected(.dataChecksum), .frame(.information(hex("D402")))])
        #expect(Self.decode(hex("0000FFFFFF0102FC") + good).first == .rejected(.lengthChecksum))
        #expect(Self.decode(hex("0000FF0000") + good) == [.rejected(.emptyFrame), .frame(.information(hex("D402")))])
    }

    @Test("An extended frame longer than the PN532's 265 bytes is refused without waiting for it")
    func tooLong() {
        let header = hex("0000FFFFFF010AF5")
        #expect(Self.decode(header) == [.rejected(.tooLong(266))])
        #expect(Self.decode(hex("0000FFFFFFFFFF02")) == [.rejected(.tooLong(65535))])
    }

    @Test("A frame cut short is held, then dropped by abandonPartialFrame; the next frame decodes")
    func partialFrame() {
        var decoder = PN532FrameDecoder()
        decoder.append(hex("0000FF10F0D440"))
        #expect(decoder.next() == nil)
        #expect(decoder.holdsPartialFrame)
        #expect(decoder.abandonPartialFrame() == .rejected(.incomplete))
        #expect(decoder.next() == nil)
        #expect(!decoder.holdsPartialFrame)
        #expect(decoder.abandonPartialFrame() == nil)
        decoder.append(hex("0000FF02FED4022A00"))
        #expect(decoder.next() == .frame(.information(hex("D402"))))
    }

    @Test("Noise is not kept: the buffer holds at most a frame's start")
    func noiseIsDropped() {
        var decoder = PN532FrameDecoder()
        decoder.append([UInt8](repeating: 0x55, count: 10_000))
        #expect(decoder.next() == nil)
        #expect(decoder.bufferedCount == 0)
        decoder.append([0x12, 0x00])
        #expect(decoder.next() == nil)
        #expect(decoder.bufferedCount == 1)
    }

    @Test("Information frames of every length from 1 to 265 bytes round-trip through the decoder")
    func roundTrips() throws {
        for length in 1...PN532Frame.maximumHostLength {
            let information = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 0xD4) }
            let encoded = try #require(PN532Frame.information(information).encoded)
            #expect(Self.decode(encoded, chunk: 11) == [.frame(.information(information))])
        }
        #expect(PN532Frame.information([]).encoded == nil)
        #expect(PN532Frame.information([UInt8](repeating: 0, count: 65_536)).encoded == nil)
    }

    @Test("100 000 seeded random byte streams never trap and never grow the buffer past one frame")
    func hostileStreams() {
        var generator = SeededRandom(seed: 0x0532)
        let good = hex("0000FF02FED4022A00")
        var decodedGood = 0
        for round in 0..<100_000 {
            var decoder = PN532FrameDecoder()
            let length = Int.random(in: 0...96, using: &generator)
            // Random bytes biased towards the frame alphabet, so that headers are common.
            let alphabet: [UInt8] = [0x00, 0xFF, 0xD4, 0x01, 0x00, 0xFF]
            var stream = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                    : UInt8.random(in: 0...255, using: &generator)
            }
            if round.isMultiple(of: 4) { stream += good }
            var offset = 0
            var items: [PN532FrameDecoder.Item] = []
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...16, using: &generator))
                decoder.append(stream[offset..<end])
                offset = end
                while let item = decoder.next() { items.append(item) }
                #expect(decoder.bufferedCount <= 8 + PN532Frame.maximumHostLength + 1 + 16)
            }
            while let item = decoder.abandonPartialFrame() {
                items.append(item)
                while let next = decoder.next() { items.append(next) }
            }
            #expect(!decoder.holdsPartialFrame)
            if items.contains(.frame(.information(hex("D402")))) { decodedGood += 1 }
        }
        // A good frame after noise is found unless the noise opened a frame that swallowed it.
        #expect(decodedGood >= 20_000)
    }
}
