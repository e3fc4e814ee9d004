import TagMemory

/// How far a reader must read a Type 2 tag to see a TLV block whole, from the part read so far.
///
/// NFC Forum Type 2 Tag 1.1, 2.3: a block is T, L (one byte, or FFh and two big-endian bytes) and
/// L value bytes; NULL (00h) and Terminator (FEh) are one byte; every byte skips the bytes that
/// Lock and Memory Control TLVs before it reserve (2.2.1). The first read of an operation shows
/// the CC and the first TLV headers; these functions turn a block cut off by the end of that read
/// into the pages still needed, so the second read is the last.
enum Type2ReadExtent {
    /// The pages to read next so that the TLV scan of `memory` (a prefix of the tag, `prefixPages`
    /// pages long) gets past the block it stopped in; nil when nothing more is needed: the first
    /// NDEF Message TLV is whole (or, unless `throughMessage`, its T byte is known), or the scan
    /// ended for good (no NDEF CC, a Terminator, a malformed block, the end of the data area).
    static func pagesStillNeeded(_ memory: Type2Memory, prefixPages: Int, throughMessage: Bool) -> [Int]? {
        guard let cc = memory.capabilityContainer else {
            return prefixPages < 4 ? Array(prefixPages..<4) : nil
        }
        guard cc.problem == nil, let area = memory.dataArea, let scan = memory.tlvScan else { return nil }
        if scan.firstNDEFMessage != nil { return nil }
        guard let error = scan.error, error.code == .truncatedImage, let start = scan.failedTypeAddress else {
            return nil
        }
        if scan.failedType == 0x03, !throughMessage { return nil }
        let end = endOfBlock(at: start, in: memory.bytes, reserved: scan.reserved, area: area)
        let lastPage = Type2Page.containing(byte: end - 1)
        return lastPage >= prefixPages ? Array(prefixPages...lastPage) : nil
    }

    /// The address just past the block whose T byte is at `start`, as far as `bytes` tell: past its
    /// value when its length bytes are known, else past the length bytes still to read. Never
    /// beyond the data area.
    static func endOfBlock(at start: Int, in bytes: [UInt8], reserved: ReservedByteRanges, area: Range<Int>) -> Int {
        let limit = area.upperBound
        let type = reserved.nextFree(from: start)
        guard type < bytes.count else { return min(limit, type + 4) }
        if bytes[type] == 0x00 || bytes[type] == 0xFE { return min(limit, type + 1) }
        let first = reserved.nextFree(from: type + 1)
        guard first < bytes.count else { return min(limit, first + 3) }
        var length = Int(bytes[first])
        var last = first
        if bytes[first] == 0xFF {
            let high = reserved.nextFree(from: first + 1)
            let low = reserved.nextFree(from: high + 1)
            guard low < bytes.count else { return min(limit, low + 1) }
            length = Int(bytes[high]) << 8 | Int(bytes[low])
            last = low
        }
        return min(limit, endOfRun(after: last, length: length, reserved: reserved, limit: limit))
    }

    /// The address just past `length` free bytes after `address` (reserved bytes skipped).
    static func endOfRun(after address: Int, length: Int, reserved: ReservedByteRanges, limit: Int) -> Int {
        guard length > 0 else { return address + 1 }
        guard address + 1 < limit else { return limit }
        var remaining = length
        for run in reserved.freeRanges(in: (address + 1)..<limit) {
            if run.count >= remaining { return run.lowerBound + remaining }
            remaining -= run.count
        }
        return limit
    }
}
