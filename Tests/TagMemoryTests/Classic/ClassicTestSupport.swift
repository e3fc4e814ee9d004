import Foundation
import NDEF
import TagMemory
import TestSupport
import Testing

/// The MIFARE Classic images in `Fixtures/tags/classic/`: hex text, one block per line, `#`
/// comments.
enum ClassicFixtures {
    /// The fixture directory.
    static let directory = TagFixtures.directory + "/classic"

    /// The names of every fixture file, sorted.
    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".hex") }
            .sorted()
    }

    /// The bytes of a fixture.
    static func load(_ name: String) throws -> [UInt8] { try TagFixtures.load("classic/" + name) }

    /// A fixture parsed.
    static func memory(_ name: String, crcPolicy: MifareApplicationDirectory.CRCPolicy = .strict) throws
        -> MifareClassicMemory
    {
        MifareClassicMemory(bytes: try load(name), crcPolicy: crcPolicy)
    }
}

/// A 1K image built in a test: transport trailers, zero data, then the changes asked for.
struct ClassicImage {
    var bytes: [UInt8]

    init(sectors: Int = 16) {
        bytes = [UInt8](repeating: 0, count: (MifareClassicSector(sectors - 1)?.bytes.upperBound ?? 0))
        for number in 0..<sectors {
            setTrailer(sector: number, hex("ffffffffffff ff0780 69 ffffffffffff"))
        }
    }

    /// Writes 16 bytes at block `block`.
    mutating func setBlock(_ block: Int, _ data: [UInt8]) {
        bytes.replaceSubrange((block * 16)..<(block * 16 + 16), with: data)
    }

    /// Writes the trailer of sector `sector`.
    mutating func setTrailer(sector: Int, _ data: [UInt8]) {
        guard let trailer = MifareClassicSector(sector)?.trailerBlock else { return }
        setBlock(trailer, data)
    }

    /// Writes MAD1 (CRC computed unless given), with GPB `gpb` in sector 0's trailer.
    mutating func setMAD1(gpb: UInt8 = 0xC1, info: UInt8 = 0, aids: [MADApplicationIdentifier], crc: UInt8? = nil) {
        var body = [info]
        for sector in 1...15 {
            body += (sector - 1 < aids.count ? aids[sector - 1] : .free).storedBytes
        }
        let data = [crc ?? MADCRC.compute(body)] + body
        setBlock(1, Array(data[0..<16]))
        setBlock(2, Array(data[16..<32]))
        setTrailer(sector: 0, hex("a0a1a2a3a4a5 787788") + [gpb] + hex("000000000000"))
    }

    /// Gives `sectors` the NFC sector trailer with `access` and `gpb`.
    mutating func setNDEFTrailers(_ sectors: [Int], access: [UInt8] = [0x7F, 0x07, 0x88], gpb: UInt8 = 0x40) {
        for sector in sectors {
            setTrailer(sector: sector, hex("d3f7d3f7d3f7") + access + [gpb] + hex("000000000000"))
        }
    }

    /// Writes `data` into the data blocks of `sectors`, in order, skipping trailers.
    mutating func writeArea(_ sectors: [Int], _ data: [UInt8]) {
        var remaining = data[...]
        for number in sectors {
            guard let sector = MifareClassicSector(number) else { continue }
            for address in sector.dataBytes where !remaining.isEmpty {
                bytes[address] = remaining.removeFirst()
            }
        }
    }
}
