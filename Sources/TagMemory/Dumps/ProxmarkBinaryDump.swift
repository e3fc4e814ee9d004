/// Reads and writes proxmark3 binary Ultralight dumps (``TagDumpFormat/proxmarkBinary``).
///
/// Layout of `mfu_dump_t` (proxmark3 `include/mifare.h`, `MFU_DUMP_PREFIX_LENGTH` 56):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | GET_VERSION response |
/// | 8 | 2 | `tbo` ("TBD 0", written as zeros) |
/// | 10 | 1 | `tbo1` ("TBD 1", written as zeros) |
/// | 11 | 1 | `pages`: index of the last page in the dump |
/// | 12 | 32 | READ_SIG response |
/// | 44 | 12 | three times: counter (3 bytes as READ_CNT returns them) and tearing flag (1) |
/// | 56 | 4 × n | the pages |
enum ProxmarkBinaryDump {
    /// The header length.
    static let headerLength = 56

    /// Whether `bytes` look like this format: a header, whole pages after it, a `pages` byte
    /// matching the file length, and byte 0 zero (GET_VERSION's fixed header byte is 00, and
    /// a tool that got no answer leaves the field zero; a raw image starts with UID0, which
    /// is a manufacturer code and never 00).
    static func matches(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > headerLength, (bytes.count - headerLength) % 4 == 0, bytes[0] == 0 else { return false }
        let pages = (bytes.count - headerLength) / 4
        return pages <= 256 && Int(bytes[11]) == pages - 1
    }

    /// Reads a dump.
    static func decode(_ bytes: [UInt8]) throws(TagMemoryError) -> TagDump {
        guard bytes.count >= headerLength else {
            throw TagMemoryError(
                .malformedDump, at: bytes.count,
                "a proxmark3 dump starts with a \(headerLength)-byte header; the file has only \(bytes.count) bytes")
        }
        let image = Array(bytes[headerLength...])
        try RawDump.checkImage(image, layout: .type2, base: headerLength)
        let pages = image.count / 4
        guard Int(bytes[11]) == pages - 1 else {
            throw TagMemoryError(
                .malformedDump, at: 11,
                "the header gives \(Int(bytes[11]) + 1) pages (last page index \(bytes[11])) but the file holds "
                    + "\(pages)")
        }
        var counters: [UInt32] = []
        var tearing: [UInt8] = []
        for index in 0..<3 {
            let base = 44 + index * 4
            counters.append(UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16)
            tearing.append(bytes[base + 3])
        }
        return TagDump(
            memory: image,
            version: Array(bytes[0..<8]),
            signature: Array(bytes[12..<44]),
            counters: counters,
            tearingFlags: tearing
        )
    }

    /// Writes a dump; a Type 2 image of 1 to 256 pages (the header's page index is one byte).
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try RawDump.checkMemory(of: dump)
        guard dump.layout == .type2 else {
            throw TagMemoryError(.invalidArgument, "a proxmark3 Ultralight dump holds Type 2 pages, not MIFARE Classic")
        }
        guard dump.pageCount <= 256 else {
            throw TagMemoryError(
                .invalidArgument, "a proxmark3 Ultralight dump holds at most 256 pages, not \(dump.pageCount)")
        }
        var out = try TagDump.fixedLength(dump.version, 8, "GET_VERSION")
        out.append(contentsOf: [0, 0, 0])
        out.append(UInt8(dump.pageCount - 1))
        out.append(contentsOf: try TagDump.fixedLength(dump.signature, 32, "signature"))
        for (counter, tearing) in try counterBytes(dump) {
            out.append(contentsOf: counter)
            out.append(tearing)
        }
        out.append(contentsOf: dump.memory)
        return out
    }

    /// The three counters as READ_CNT bytes (least significant first) with their tearing
    /// flags; missing ones are zero. Counters are 24-bit.
    static func counterBytes(_ dump: TagDump) throws(TagMemoryError) -> [([UInt8], UInt8)] {
        var result: [([UInt8], UInt8)] = []
        for (index, (value, tearing)) in try dump.countersAndFlags().enumerated() {
            guard value <= 0xFF_FFFF else {
                throw TagMemoryError(.invalidArgument, "counter \(index) is \(value), more than 24 bits")
            }
            result.append(([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16)], tearing))
        }
        return result
    }
}
