/// The TLV blocks of a data area, as far as they could be read.
public struct TagTLVScan: Sendable, Hashable {
    /// The blocks read, in address order (a Terminator, if found, is the last).
    public var tlvs: [TagTLV]
    /// The reserved ranges at the end of the scan: those given plus those the Lock Control and
    /// Memory Control TLVs named.
    public var reserved: ReservedByteRanges
    /// Why the scan stopped before a Terminator or the end of the area, if it did.
    public var error: TagMemoryError?
    /// The T byte of the block that could not be read, when `error` is set.
    public var failedType: UInt8?
    /// The address of that T byte.
    public var failedTypeAddress: Int?
    /// What the scan read although the specification asks otherwise, in address order: a
    /// three-byte length under 255, a control TLV whose length is not 3 (see ``TagTLVScanner``).
    public var warnings: [TagMemoryError] = []

    /// Creates a scan result.
    public init(
        tlvs: [TagTLV],
        reserved: ReservedByteRanges,
        error: TagMemoryError? = nil,
        failedType: UInt8? = nil,
        failedTypeAddress: Int? = nil
    ) {
        self.tlvs = tlvs
        self.reserved = reserved
        self.error = error
        self.failedType = failedType
        self.failedTypeAddress = failedTypeAddress
    }

    /// The first NDEF Message TLV: the one a reader reads (T2T 1.1, 6.4.1).
    public var firstNDEFMessage: TagTLV? { tlvs.first { $0.kind == .ndefMessage } }

    /// The address of the Terminator TLV, if one was found.
    public var terminatorAddress: Int? {
        guard let last = tlvs.last, last.kind == .terminator else { return nil }
        return last.typeAddress
    }
}

/// Walks the TLV blocks of a tag's data area (NFC Forum Type 2 Tag 1.1, section 2.3).
///
/// The scanner knows nothing of pages or sectors: it is given the memory as a slice whose
/// indices are byte addresses, the address range of the data area, and the reserved byte
/// ranges to step over (MIFARE Classic passes its sector trailers, Type 2 nothing). Lock
/// Control and Memory Control TLVs add the bytes they name to the reserved set as they are met,
/// so only the blocks after them skip those bytes, as a reader walking the tag would.
///
/// Rules and decisions:
/// - Every byte of a block (T, L and V) skips reserved bytes (2.2.1).
/// - NULL (00h) is one byte; Terminator (FEh) ends the scan (2.3.1, 2.3.6).
/// - A length FFh announces a two-byte big-endian length 00FFh-FFFEh (2.3). A three-byte length
///   under 00FFh is unusual (the one-byte form is meant for those) but unambiguous: the block is
///   read by that length, with a warning (``TagTLVScan/warnings``), as nfcpy and phones read it.
///   FFFFh, which the specification reserves, is ``TagMemoryError/Code/malformedTLV``.
/// - Lock Control and Memory Control TLVs have a length of 3 (2.3.2, 2.3.3); one with another
///   length is skipped by its length with a warning: the bytes it would reserve are unknown, so
///   it reserves none.
/// - Reserved T values (04h-FCh, FFh) are skipped by their length field and reported as
///   ``TagTLV/Kind/unknown(_:)``: every block but NULL and Terminator has the T-L-V shape, so the
///   length tells where the next block starts. nfcpy (tt2.py) does the same; Android's NFC stack
///   (rw_t2t_ndef.c) instead stops NDEF detection at such a block.
/// - A block that runs past the end of the data area is ``TagMemoryError/Code/malformedTLV``; one
///   that runs past the end of the memory given (inside the area) is
///   ``TagMemoryError/Code/truncatedImage``. The scan stops at the first error and keeps the
///   blocks read before it.
///
/// Every step moves strictly forward (each block consumes at least its T byte), so a scan ends
/// after at most `area.count` blocks: a loop is impossible, whatever the input.
public enum TagTLVScanner {
    /// Scans `area` of `memory` (indices are byte addresses).
    ///
    /// - Parameters:
    ///   - memory: the tag memory; may be shorter than the area (a partial image).
    ///   - area: the byte addresses of the data area, e.g. 16..<16+CC2×8 on a Type 2 tag.
    ///   - reserved: bytes to step over from the start.
    ///   - interpretsControlTLVs: whether Lock/Memory Control TLVs reserve bytes (Type 2: yes).
    public static func scan(
        _ memory: ArraySlice<UInt8>,
        area: Range<Int>,
        reserved: ReservedByteRanges = ReservedByteRanges(),
        interpretsControlTLVs: Bool = true
    ) -> TagTLVScan {
        var walker = Walker(memory: memory, area: area, reserved: reserved)
        var tlvs: [TagTLV] = []
        // T2T 1.0, 2.3.1 and 2.3.2: Lock and Memory Control TLVs come before the NDEF Message TLV.
        // One found after it is message territory (for example bytes of a message being written
        // behind a zero length): it is listed but reserves nothing and describes no lock bits.
        var seenNDEFMessage = false
        while true {
            let start = walker.reserved.nextFree(from: walker.position)
            guard start < area.upperBound else { break }
            do {
                let tlv = try walker.readBlock(interpretsControlTLVs: interpretsControlTLVs && !seenNDEFMessage)
                if tlv.kind == .ndefMessage { seenNDEFMessage = true }
                tlvs.append(tlv)
                if tlv.kind == .terminator { break }
            } catch {
                let type = walker.memory.indices.contains(start) ? walker.memory[start] : nil
                var scan = TagTLVScan(
                    tlvs: tlvs, reserved: walker.reserved, error: error, failedType: type, failedTypeAddress: start)
                scan.warnings = walker.warnings
                return scan
            }
        }
        var scan = TagTLVScan(tlvs: tlvs, reserved: walker.reserved)
        scan.warnings = walker.warnings
        return scan
    }

    /// The reading state: a position that only moves forward.
    private struct Walker {
        let memory: ArraySlice<UInt8>
        let area: Range<Int>
        var reserved: ReservedByteRanges
        var position: Int
        var warnings: [TagMemoryError] = []

        init(memory: ArraySlice<UInt8>, area: Range<Int>, reserved: ReservedByteRanges) {
            self.memory = memory
            self.area = area
            self.reserved = reserved
            self.position = area.lowerBound
        }

        /// Reads the next non-reserved byte, returning it with its address.
        mutating func next(for typeAddress: Int) throws(TagMemoryError) -> (address: Int, byte: UInt8) {
            let address = reserved.nextFree(from: position)
            try check(address..<(address + 1), typeAddress: typeAddress)
            position = address + 1
            return (address, memory[address])
        }

        /// Throws unless `range` lies in the area and in the memory given.
        func check(_ range: Range<Int>, typeAddress: Int) throws(TagMemoryError) {
            guard range.lowerBound >= area.lowerBound, range.upperBound <= area.upperBound else {
                throw TagMemoryError(
                    .malformedTLV, at: typeAddress,
                    "the TLV at byte \(typeAddress) runs past the end of the data area (byte \(area.upperBound))")
            }
            guard range.lowerBound >= memory.startIndex, range.upperBound <= memory.endIndex else {
                throw TagMemoryError(
                    .truncatedImage, at: typeAddress,
                    "the image ends at byte \(memory.endIndex), inside the TLV at byte \(typeAddress)")
            }
        }

        /// Reads one block at the current position.
        mutating func readBlock(interpretsControlTLVs: Bool) throws(TagMemoryError) -> TagTLV {
            let (typeAddress, type) = try next(for: reserved.nextFree(from: position))
            let kind = TagTLV.Kind(type: type)
            if kind == .null || kind == .terminator { return TagTLV(kind: kind, typeAddress: typeAddress) }

            let first = try next(for: typeAddress)
            var lengthAddresses = [first.address]
            var length = Int(first.byte)
            if first.byte == 0xFF {
                let high = try next(for: typeAddress)
                let low = try next(for: typeAddress)
                lengthAddresses += [high.address, low.address]
                length = Int(high.byte) << 8 | Int(low.byte)
                if length < 0xFF {
                    warnings.append(
                        TagMemoryError(
                            .malformedTLV, at: typeAddress,
                            "the TLV at byte \(typeAddress) uses the three-byte length form for \(length) bytes, "
                                + "where T2T 1.1, 2.3 uses one byte below 255: read by that length"))
                }
                guard length != 0xFFFF else {
                    throw TagMemoryError(
                        .malformedTLV, at: typeAddress, "the TLV at byte \(typeAddress) has the reserved length FFFFh")
                }
            }
            let runs = try valueRuns(length: length, typeAddress: typeAddress)
            var tlv = TagTLV(
                kind: kind, typeAddress: typeAddress, lengthAddresses: lengthAddresses, length: length,
                valueRanges: runs)
            if interpretsControlTLVs, kind == .lockControl || kind == .memoryControl {
                try decodeControl(&tlv)
            }
            return tlv
        }

        /// The runs of `length` value bytes from the current position, skipping reserved bytes.
        mutating func valueRuns(length: Int, typeAddress: Int) throws(TagMemoryError) -> [Range<Int>] {
            var runs: [Range<Int>] = []
            var remaining = length
            var cursor = position
            while remaining > 0 {
                cursor = reserved.nextFree(from: cursor)
                // Stop early at the area end, so a huge length cannot build a long list of runs.
                guard cursor < area.upperBound else {
                    try check(cursor..<(cursor + 1), typeAddress: typeAddress)
                    break
                }
                let stop = min(cursor + remaining, reserved.nextReserved(after: cursor) ?? Int.max)
                runs.append(cursor..<stop)
                remaining -= stop - cursor
                cursor = stop
            }
            if let last = runs.last, let first = runs.first {
                try check(first.lowerBound..<last.upperBound, typeAddress: typeAddress)
            }
            position = cursor
            return runs
        }

        /// Decodes a Lock or Memory Control value and reserves the bytes it names.
        mutating func decodeControl(_ tlv: inout TagTLV) throws(TagMemoryError) {
            let value = tlv.value(in: memory)
            guard value.count == 3 else {
                let name = tlv.kind == .lockControl ? "Lock Control" : "Memory Control"
                let what = tlv.kind == .lockControl ? "the lock bytes it names" : "the memory it reserves"
                warnings.append(
                    TagMemoryError(
                        .malformedTLV, at: tlv.typeAddress,
                        "the \(name) TLV at byte \(tlv.typeAddress) has \(value.count) value bytes where T2T 1.1, "
                            + "\(tlv.kind == .lockControl ? "2.3.2" : "2.3.3") gives it 3: skipped by its length; "
                            + "\(what) are unknown"))
                return
            }
            do {
                if tlv.kind == .lockControl {
                    let control = try LockControlTLV(value: value)
                    tlv.lockControl = control
                    reserved.insert(control.lockBytes)
                } else {
                    let control = try MemoryControlTLV(value: value)
                    tlv.memoryControl = control
                    reserved.insert(control.reservedBytes)
                }
            } catch {
                throw TagMemoryError(
                    error.code, at: tlv.typeAddress, error.reason + " (TLV at byte \(tlv.typeAddress))")
            }
        }
    }
}
