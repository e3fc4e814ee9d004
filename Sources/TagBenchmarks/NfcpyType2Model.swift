/// A model of how nfcpy 1.0.4 reads and writes Type 2 tag memory, to count its commands for the
/// reference column ("nfcpy 1.0.4, derived from source"; a live nfcpy run needs a reader).
///
/// From nfcpy 1.0.4, src/nfc/tag/tt2.py:
/// - `Type2TagMemoryReader` keeps the bytes read so far and a cache of the bytes as changed.
///   Reading byte i past what was read sends READ (30h, 16 bytes) for each 16-byte block from
///   the end of what was read up to the block holding i. `synchronize()` compares every 4-byte
///   page read so far with the cache and sends one WRITE (A2h) for each page that differs.
/// - `Type2Tag.NDEF._read_ndef_data` (reached through `tag.ndef`, and again through
///   `tag.ndef.has_changed`, nfcpy's way to check a write) makes a new memory reader, reads CC
///   bytes 12, 13, 15 and 14, then walks the TLVs from byte 16, reading each TLV's T, L and every
///   value byte, up to and including the NDEF Message TLV.
/// - `_write_ndef_data` (reached through `tag.ndef.records = ...`) reuses that reader: it sets
///   the length byte to 0 and synchronizes, writes the message bytes after the length field and a
///   Terminator (when there is room) and synchronizes, then writes the length and synchronizes.
///
/// Reserved bytes of Lock and Memory Control TLVs are not modelled: the tags measured
/// here (factory NTAG215 and NTAG216) have none.
struct NfcpyType2Model {
    /// The tag's memory.
    private(set) var tag: [UInt8]
    /// The bytes read from the tag (`_data_from_tag`).
    private var fromTag: [UInt8] = []
    /// The bytes as read and changed (`_data_in_cache`).
    private var cache: [UInt8] = []
    /// READ commands sent.
    private(set) var reads = 0
    /// WRITE commands sent.
    private(set) var writes = 0

    init(tag: [UInt8]) { self.tag = tag }

    /// Forgets what was read, as a new memory reader does; the counts go on.
    mutating func newReader() {
        fromTag = []
        cache = []
    }

    /// Byte `index`, reading the blocks up to it first.
    mutating func byte(_ index: Int) -> UInt8 {
        var block = fromTag.count / 16 * 16
        while block <= index {
            let data = Array((tag + [UInt8](repeating: 0, count: 16)).dropFirst(block).prefix(16))
            fromTag = Array(fromTag.prefix(block)) + data
            cache = Array(cache.prefix(block)) + data
            reads += 1
            block += 16
        }
        return cache[index]
    }

    /// Sets byte `index` in the cache.
    mutating func set(_ index: Int, _ value: UInt8) {
        _ = byte(index)
        cache[index] = value
    }

    /// Writes every page read so far whose cached bytes differ.
    mutating func synchronize() {
        for start in stride(from: 0, to: fromTag.count, by: 4)
        where cache[start..<(start + 4)] != fromTag[start..<(start + 4)] {
            writes += 1
            tag.replaceSubrange(start..<(start + 4), with: cache[start..<(start + 4)])
            fromTag.replaceSubrange(start..<(start + 4), with: cache[start..<(start + 4)])
        }
    }

    /// `_read_ndef_data` with a new reader: the NDEF TLV's address and message, or nil.
    mutating func readNDEF() -> (address: Int, message: [UInt8])? {
        newReader()
        guard byte(12) == 0xE1 else { return nil }
        _ = (byte(13), byte(15))
        let end = Int(byte(14)) * 8 + 16
        var offset = 16
        while offset < end {
            let type = byte(offset)
            if type == 0x00 {
                offset += 1
                continue
            }
            if type == 0xFE { return nil }
            var length = Int(byte(offset + 1))
            var valueStart = offset + 2
            if length == 0xFF {
                length = Int(byte(offset + 2)) << 8 | Int(byte(offset + 3))
                valueStart = offset + 4
            }
            let value = (0..<length).map { byte(valueStart + $0) }
            if type == 0x03 { return (offset, value) }
            offset = valueStart + length
        }
        return nil
    }

    /// `_write_ndef_data` of `message` at the NDEF TLV `address` found by ``readNDEF()``.
    mutating func writeNDEF(_ message: [UInt8], at address: Int) {
        set(address + 1, 0)
        synchronize()
        var offset = address + (message.count < 0xFF ? 2 : 4)
        for octet in message {
            set(offset, octet)
            offset += 1
        }
        if offset < Int(byte(14)) * 8 + 16 { set(offset, 0xFE) }
        synchronize()
        if message.count < 0xFF {
            set(address + 1, UInt8(message.count))
        } else {
            set(address + 1, 0xFF)
            set(address + 2, UInt8(truncatingIfNeeded: message.count >> 8))
            set(address + 3, UInt8(truncatingIfNeeded: message.count))
        }
        synchronize()
    }
}
