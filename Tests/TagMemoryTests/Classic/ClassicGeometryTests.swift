import TagMemory
import Testing

@Suite("MIFARE Classic geometry")
struct ClassicGeometryTests {
    @Test("Mini, 1K, 2K and 4K: sectors, blocks and image sizes (MF1S20yyX, MF1S50yyX 8.6, MF1S70yyX 8.6)")
    func types() {
        let expected: [(MifareClassicType, Int, Int, Int)] = [
            (.mini, 5, 20, 320), (.classic1K, 16, 64, 1024), (.classic2K, 32, 128, 2048),
            (.classic4K, 40, 256, 4096),
        ]
        for (type, sectors, blocks, bytes) in expected {
            #expect(type.sectorCount == sectors)
            #expect(type.blockCount == blocks)
            #expect(type.byteCount == bytes)
            #expect(MifareClassicType(imageSize: bytes) == type)
            #expect(type.sectors.count == sectors)
        }
        #expect(MifareClassicType(imageSize: 1000) == nil)
        #expect(MifareClassicType(imageSize: 0) == nil)
        #expect(!MifareClassicType.classic1K.hasMAD2Sector)
        #expect(MifareClassicType.classic4K.hasMAD2Sector && MifareClassicType.classic2K.hasMAD2Sector)
    }

    @Test("Sectors 0-31 have 4 blocks, 32-39 have 16; the trailer is the last block (MF1S70yyX 8.6)")
    func sectorLayout() throws {
        let s0 = try #require(MifareClassicSector(0))
        #expect(s0.firstBlock == 0 && s0.trailerBlock == 3 && s0.dataBlocks == 0..<3)
        #expect(s0.bytes == 0..<64 && s0.dataBytes == 0..<48 && s0.trailerBytes == 48..<64)
        let s15 = try #require(MifareClassicSector(15))
        #expect(s15.firstBlock == 60 && s15.trailerBlock == 63 && s15.dataByteCount == 48)
        let s16 = try #require(MifareClassicSector(16))
        #expect(s16.firstBlock == 64 && s16.bytes == 1024..<1088 && s16.isDirectorySector)
        let s31 = try #require(MifareClassicSector(31))
        #expect(s31.trailerBlock == 127)
        let s32 = try #require(MifareClassicSector(32))
        #expect(s32.firstBlock == 128 && s32.blockCount == 16 && s32.trailerBlock == 143)
        #expect(s32.dataByteCount == 240 && s32.trailerBytes == 2288..<2304)
        let s39 = try #require(MifareClassicSector(39))
        #expect(s39.firstBlock == 240 && s39.trailerBlock == 255 && s39.bytes.upperBound == 4096)
        #expect(MifareClassicSector(40) == nil && MifareClassicSector(-1) == nil)
        #expect(!(try #require(MifareClassicSector(1))).isDirectorySector)
    }

    @Test("Every block belongs to exactly one sector, and the trailers are the sectors' last blocks")
    func blockToSector() {
        var trailers = 0
        for block in 0..<256 {
            guard let sector = MifareClassicSector.containing(block: block) else {
                Issue.record("block \(block) has no sector")
                continue
            }
            #expect((sector.firstBlock...sector.trailerBlock).contains(block))
            #expect(MifareClassicSector.containing(byte: block * 16 + 15) == sector)
            if MifareClassicSector.isTrailer(block: block) {
                trailers += 1
                #expect(sector.isTrailer(block))
            }
        }
        #expect(trailers == 40)
        #expect(MifareClassicSector.containing(block: 256) == nil)
        #expect(MifareClassicSector.containing(block: -1) == nil)
        #expect(MifareClassicSector.containing(byte: -5) == nil)
    }

    @Test("Access groups: one per block in 4-block sectors, 5 blocks each in 16-block ones (MF1S70yyX 8.7.1)")
    func accessGroups() throws {
        let small = try #require(MifareClassicSector(5))
        #expect((20...23).map { small.accessGroup(ofBlock: $0) } == [0, 1, 2, 3])
        let large = try #require(MifareClassicSector(33))
        let groups = (144...159).compactMap { large.accessGroup(ofBlock: $0) }
        #expect(groups == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3])
        #expect(large.accessGroup(ofBlock: 143) == nil && large.accessGroup(ofBlock: 160) == nil)
    }
}
