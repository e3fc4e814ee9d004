import TagMemory
import Testing

/// The memory map of Type 2 images (``Type2Memory/regions``).
@Suite("Type 2 memory map")
struct Type2RegionTests {
    typealias Region = Type2MemoryRegion

    /// The regions as (kind, first byte, end byte) triples, for compact expectations.
    static func map(_ memory: Type2Memory) -> [String] {
        memory.regions.map { "\($0.kind.rawValue) \($0.bytes.lowerBound)..<\($0.bytes.upperBound)" }
    }

    @Test("NTAG213 factory: T2T 1.1 2.1 layout, CC data area 144 bytes, lock and configuration pages (datasheet 8.5)")
    func ntag213Factory() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        #expect(
            Self.map(memory) == [
                "uid 0..<8", "staticLock 8..<12", "capabilityContainer 12..<16", "dataArea 16..<160",
                // Dynamic lock page 28h; the factory Lock Control TLV 01 03 A0 0C 34 names bytes 160-161.
                "dynamicLock 160..<164", "reservedByTLV 160..<162", "configuration 164..<180",
            ])
    }

    @Test("NTAG215: the CC announces 496 of 504 user bytes; pages 128-129 are user memory outside it (8.5.6)")
    func ntag215UserMemoryPastTheDataArea() throws {
        let memory = try TagFixtures.memory("ntag215-factory.hex")
        #expect(
            Self.map(memory) == [
                "uid 0..<8", "staticLock 8..<12", "capabilityContainer 12..<16", "dataArea 16..<512",
                "userMemory 512..<520", "dynamicLock 520..<524", "configuration 524..<540",
            ])
        #expect(memory.regions.first { $0.kind == .userMemory }?.pages == 128...129)
    }

    @Test("Memory Control TLV 02 03 28 04 04 reserves bytes 40-43 inside the data area (T2T 1.1, 2.3.3)")
    func memoryControl() throws {
        let memory = try TagFixtures.memory("ntag213-memory-control.hex")
        let reserved = memory.regions.filter { $0.kind == .reservedByTLV }.map(\.bytes)
        #expect(reserved == [40..<44, 160..<162])
        let data = try #require(memory.regions.firstIndex { $0.kind == .dataArea })
        let inside = try #require(memory.regions.firstIndex { $0.bytes == 40..<44 })
        #expect(data < inside, "listed after the data area that holds them")
    }

    @Test("MIFARE Ultralight C, unformatted: user pages, lock bytes, counter, AUTH0/AUTH1, key (MF0ICU2 7.5)")
    func ultralightC() throws {
        let memory = try TagFixtures.memory("ultralight-c-mf0icu2-factory.hex")
        #expect(
            Self.map(memory) == [
                "uid 0..<8", "staticLock 8..<12", "capabilityContainer 12..<16", "userMemory 16..<160",
                "dynamicLock 160..<164", "counter 164..<168", "authentication 168..<176", "key 176..<192",
            ])
    }

    @Test("A known chip's map is complete even when the image is shorter; extra image pages are beyondChip")
    func imageShorterOrLongerThanTheChip() throws {
        let image = try TagFixtures.load("ntag213-factory.hex")
        let short = Type2Memory(bytes: Array(image.prefix(64)), chip: .ntag213)
        #expect(short.regions.last?.kind == .configuration)
        #expect(short.regions.last?.bytes == 164..<180)
        let long = Type2Memory(bytes: image + [1, 2, 3, 4, 5, 6, 7, 8], chip: .ntag213)
        #expect(long.regions.last?.kind == .beyondChip)
        #expect(long.regions.last?.bytes == 180..<188)
    }

    @Test("Unknown chip: the NFC Forum default lock bytes follow the data area (T2T 1.1, 2.2.2); the rest is unknown")
    func unknownChip() throws {
        var image = try TagFixtures.load("ntag215-factory.hex")
        image[14] = 0x08  // 64-byte data area, bytes 16-79: (64 - 48) / 8 = 2 lock bits in 1 byte at 80
        let memory = Type2Memory(bytes: Array(image.prefix(96)))
        #expect(
            Self.map(memory) == [
                "uid 0..<8", "staticLock 8..<12", "capabilityContainer 12..<16", "dataArea 16..<80",
                "dynamicLock 80..<81", "unknown 81..<96",
            ])
        let blank = Type2Memory(bytes: Array(repeating: 0, count: 64))
        #expect(
            Self.map(blank) == ["uid 0..<8", "staticLock 8..<12", "capabilityContainer 12..<16", "unknown 16..<64"])
    }

    @Test("Hostile images never give an empty, reversed or out-of-range region")
    func hostile() throws {
        for name in TagFixtures.names {
            let image = try TagFixtures.load(name)
            for count in [0, 3, 9, 15, 16, 17, image.count / 2, image.count] {
                for chip in [nil] + Type2ChipCatalogue.all {
                    let memory = Type2Memory(bytes: Array(image.prefix(count)), chip: chip)
                    let end = max(count, chip.map { $0.pageCount * 4 } ?? 0)
                    for region in memory.regions {
                        #expect(!region.bytes.isEmpty && region.bytes.lowerBound >= 0 && region.bytes.upperBound <= end)
                    }
                }
            }
        }
    }
}
