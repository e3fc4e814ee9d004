import NDEF
import TagMemory

/// What the dump recorded of READ_SIG and READ_CNT (NTAG213/215/216 datasheet 10.7 and 10.8,
/// MF0ULX1 8.8.7 and 8.8.9): the originality signature and the counters with their tearing
/// flags. The signature is shown as recorded; it is not checked against NXP's public key.
package struct InspectOriginalityFacts {
    /// The 32-byte signature, nil when absent or all zeros (what tools write without one).
    package var signature: [UInt8]?
    /// The counters as READ_CNT returns them.
    package var counters: [UInt32]?
    /// The tearing flags, one per counter.
    package var tearingFlags: [UInt8]?

    package init(dump: TagDump) {
        signature = dump.signature.flatMap { $0.contains { $0 != 0 } ? $0 : nil }
        counters = dump.counters
        tearingFlags = dump.tearingFlags
    }

    /// The signature and counters, one line each.
    package func lines(chip: Type2Chip?) -> [String] {
        var lines: [String] = []
        if let signature {
            lines.append(
                "originality signature (READ_SIG, \(signature.count) bytes, not verified): "
                    + InspectFormatting.hex(signature))
        } else {
            lines.append("originality signature: not in the dump")
        }
        if let counters, !counters.isEmpty {
            var line =
                "counters (READ_CNT 0-\(counters.count - 1)): " + counters.map(String.init).joined(separator: ", ")
            if let tearingFlags, !tearingFlags.isEmpty {
                line += "; tearing flags " + InspectFormatting.hex(tearingFlags)
            }
            if chip?.features.contains(.nfcCounter) == true { line += "; the NFC counter is counter 2" }
            lines.append(line)
        } else {
            lines.append("counters: not in the dump")
        }
        return lines
    }
}
