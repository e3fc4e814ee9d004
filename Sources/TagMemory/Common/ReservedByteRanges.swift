/// A set of byte addresses that TLV blocks flow around.
///
/// NFC Forum Type 2 Tag 1.1, section 2.2.1: lock bytes and reserved bytes inside the data area
/// are not part of any TLV block; a TLV (and the NDEF message in it) continues after them. The
/// same mechanism serves other mappings, for example MIFARE Classic sector trailers.
///
/// The ranges are kept sorted and merged, so membership and "next free byte" are binary
/// searches: a hostile tag naming thousands of reserved ranges cannot make a scan quadratic.
public struct ReservedByteRanges: Sendable, Hashable {
    /// The reserved ranges: sorted, non-empty, neither overlapping nor touching.
    public private(set) var ranges: [Range<Int>]

    /// An empty set.
    public init() {
        self.ranges = []
    }

    /// A set holding `ranges` (in any order; empty ranges are ignored).
    public init(_ ranges: some Sequence<Range<Int>>) {
        self.ranges = []
        for range in ranges { insert(range) }
    }

    /// Whether no byte is reserved.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Adds `range`, merging it with the ranges it overlaps or touches.
    public mutating func insert(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        // First range that ends at or after the new start (touching counts), first that starts after its end.
        let low = firstIndex { $0.upperBound >= range.lowerBound }
        var high = low
        while high < ranges.count, ranges[high].lowerBound <= range.upperBound { high += 1 }
        var merged = range
        if low < high {
            merged = min(range.lowerBound, ranges[low].lowerBound)..<max(range.upperBound, ranges[high - 1].upperBound)
        }
        ranges.replaceSubrange(low..<high, with: [merged])
    }

    /// Adds every range of `other`.
    public mutating func formUnion(_ other: ReservedByteRanges) {
        for range in other.ranges { insert(range) }
    }

    /// Whether `address` is reserved.
    public func contains(_ address: Int) -> Bool {
        let index = firstIndex { $0.upperBound > address }
        return index < ranges.count && ranges[index].lowerBound <= address
    }

    /// The first address at or after `address` that is not reserved.
    public func nextFree(from address: Int) -> Int {
        let index = firstIndex { $0.upperBound > address }
        if index < ranges.count, ranges[index].lowerBound <= address { return ranges[index].upperBound }
        return address
    }

    /// The start of the first reserved range that begins after `address`, or nil.
    public func nextReserved(after address: Int) -> Int? {
        let index = firstIndex { $0.lowerBound > address }
        return index < ranges.count ? ranges[index].lowerBound : nil
    }

    /// The number of reserved bytes inside `range`.
    public func reservedCount(in range: Range<Int>) -> Int {
        var count = 0
        var index = firstIndex { $0.upperBound > range.lowerBound }
        while index < ranges.count, ranges[index].lowerBound < range.upperBound {
            count += min(ranges[index].upperBound, range.upperBound) - max(ranges[index].lowerBound, range.lowerBound)
            index += 1
        }
        return count
    }

    /// The parts of `range` that are not reserved, in address order.
    public func freeRanges(in range: Range<Int>) -> [Range<Int>] {
        var free: [Range<Int>] = []
        var position = range.lowerBound
        var index = firstIndex { $0.upperBound > range.lowerBound }
        while position < range.upperBound {
            guard index < ranges.count, ranges[index].lowerBound < range.upperBound else {
                free.append(position..<range.upperBound)
                break
            }
            if ranges[index].lowerBound > position { free.append(position..<ranges[index].lowerBound) }
            position = max(position, ranges[index].upperBound)
            index += 1
        }
        return free
    }

    /// Binary search: the first index whose range satisfies `predicate` (which must be
    /// false for a prefix of the sorted ranges and true for the rest), or `ranges.count`.
    private func firstIndex(where predicate: (Range<Int>) -> Bool) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(ranges[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
