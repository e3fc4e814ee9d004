/// The URLs of `sdm verify -`: standard input cut into lines as its chunks arrive, so that each
/// line is answered as soon as it is complete (a server may keep one process open).
///
/// Spaces and tabs around a URL, and a CR before the LF, are not part of it; empty lines are
/// skipped. A line longer than ``longestLine`` is answered once, as a refusal, and not kept in
/// memory: the rest of it, up to its line break, is dropped.
struct SDMInputLines {
    /// One line read.
    enum Line: Equatable {
        /// A URL to check.
        case url(String)
        /// A line of more than ``SDMInputLines/longestLine`` bytes: its first bytes, and `…`.
        case tooLong(String)
    }

    /// The longest line read from standard input: more than an NTAG 424 DNA's 256-byte file holds.
    static let longestLine = 8192

    private var pending: [UInt8] = []
    private var skipping = false

    /// The lines `chunk` completes, in order; nil for the end of input (a last line without its
    /// line break is complete then).
    mutating func lines(after chunk: [UInt8]?) -> [Line] {
        if let chunk {
            pending += chunk
        } else if !pending.isEmpty {
            pending.append(0x0A)
        }
        var lines: [Line] = []
        var start = 0
        if skipping {
            guard let end = pending.firstIndex(of: 0x0A) else {
                pending.removeAll()
                return []
            }
            skipping = false
            start = end + 1
        }
        while let end = pending[start...].firstIndex(of: 0x0A) {
            let bytes = pending[start..<end]
            start = end + 1
            guard bytes.count <= Self.longestLine else {
                lines.append(.tooLong(String(decoding: bytes.prefix(64), as: UTF8.self) + "…"))
                continue
            }
            var trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 }
            while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0D {
                trimmed = trimmed.dropLast()
            }
            if !trimmed.isEmpty { lines.append(.url(String(decoding: trimmed, as: UTF8.self))) }
        }
        pending.removeFirst(start)
        if pending.count > Self.longestLine {
            lines.append(.tooLong(String(decoding: pending.prefix(64), as: UTF8.self) + "…"))
            skipping = true
            pending.removeAll()
        }
        return lines
    }
}
