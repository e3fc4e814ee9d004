import TagMemory
import Testing

/// The reserved byte set the TLV scanner steps over (T2T 1.1, 2.2.1).
@Suite("Reserved byte ranges")
struct ReservedByteRangesTests {
    @Test("Overlapping and touching ranges merge; empty ranges are ignored")
    func merging() {
        var set = ReservedByteRanges([10..<12, 20..<22, 5..<5])
        #expect(set.ranges == [10..<12, 20..<22])
        set.insert(12..<14)
        #expect(set.ranges == [10..<14, 20..<22])
        set.insert(13..<21)
        #expect(set.ranges == [10..<22])
        set.insert(0..<2)
        #expect(set.ranges == [0..<2, 10..<22])
    }

    @Test("Membership, next free byte, next reserved range")
    func queries() {
        let set = ReservedByteRanges([160..<162, 24..<28])
        #expect(!set.contains(23) && set.contains(24) && set.contains(27) && !set.contains(28))
        #expect(set.nextFree(from: 24) == 28)
        #expect(set.nextFree(from: 23) == 23)
        #expect(set.nextReserved(after: 0) == 24)
        #expect(set.nextReserved(after: 24) == 160)
        #expect(set.nextReserved(after: 160) == nil)
    }

    @Test("Counts and free parts of a range")
    func freeParts() {
        let set = ReservedByteRanges([24..<28, 40..<44])
        #expect(set.reservedCount(in: 16..<160) == 8)
        #expect(set.reservedCount(in: 26..<42) == 4)
        #expect(set.freeRanges(in: 16..<50) == [16..<24, 28..<40, 44..<50])
        #expect(set.freeRanges(in: 25..<27) == [])
        #expect(ReservedByteRanges().freeRanges(in: 0..<4) == [0..<4])
    }

    @Test("Thousands of ranges stay sorted and searchable")
    func manyRanges() {
        var set = ReservedByteRanges()
        for start in stride(from: 10_000, to: 0, by: -10) { set.insert(start..<(start + 5)) }
        #expect(set.ranges.count == 1000)
        #expect(set.ranges == set.ranges.sorted { $0.lowerBound < $1.lowerBound })
        #expect(set.nextFree(from: 12) == 15)
        #expect(set.reservedCount(in: 0..<20_000) == 5000)
    }
}
