/// A finished row as the journal's state keeps it: its tag, time, outcome and steps in about 50
/// bytes, so that a job of many thousand tags keeps a small index of what it did (the
/// duplicate check and the report need it) rather than a full ``ProvisioningState/RowStatus``
/// per row. Built only when it gives back exactly the status it stands for.
struct DoneRow: Sendable {
    /// The tag.
    let uid: TagKey
    /// The time of `done`.
    let time: StoredTime
    /// The outcome, as an index into the state's table of outcomes.
    let outcome: UInt16
    /// The steps taken, in their usual order (`written`, `locked`, `password`), as bits.
    let steps: UInt8

    /// The steps a bit stands for, in order.
    static let stepOrder: [ProvisioningState.Stage] = [.written, .locked, .password]

    /// The compact form of a done `status`, or nil when it would not give it back exactly.
    init?(_ status: ProvisioningState.RowStatus, outcome index: UInt16) {
        guard status.stage == .done, status.reader == nil, status.digest == nil, status.reason == nil,
            let uid = status.uid, let time = status.time, status.outcome != nil
        else { return nil }
        guard Self.stepOrder.filter({ status.steps.contains($0) }) == status.steps else { return nil }
        var bits: UInt8 = 0
        for (offset, stage) in Self.stepOrder.enumerated() where status.steps.contains(stage) { bits |= 1 << offset }
        self.uid = TagKey(uid)
        self.time = StoredTime(time)
        self.outcome = index
        self.steps = bits
    }

    /// The status it stands for, with `outcome` looked up.
    func status(row: Int, outcome: String) -> ProvisioningState.RowStatus {
        var status = ProvisioningState.RowStatus(row: row)
        status.stage = .done
        status.uid = uid.bytes
        status.outcome = outcome
        status.time = time.text
        status.steps = Self.stepOrder.enumerated().filter { steps & (1 << $0.offset) != 0 }.map(\.element)
        return status
    }
}

/// A tag UID as a dictionary key: up to 15 bytes packed in two words (no heap storage), longer
/// ones as bytes.
enum TagKey: Hashable, Sendable {
    /// Bytes 0-7 in `low`, bytes 8-14 and the count (top byte) in `high`.
    case packed(low: UInt64, high: UInt64)
    /// A UID of 16 bytes or more.
    case bytes([UInt8])

    init(_ uid: [UInt8]) {
        guard uid.count <= 15 else {
            self = .bytes(uid)
            return
        }
        var low: UInt64 = 0
        var high = UInt64(uid.count) << 56
        for (index, byte) in uid.enumerated() {
            if index < 8 {
                low |= UInt64(byte) << (8 * index)
            } else {
                high |= UInt64(byte) << (8 * (index - 8))
            }
        }
        self = .packed(low: low, high: high)
    }

    /// The UID.
    var bytes: [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .packed(let low, let high):
            let count = Int(high >> 56)
            return (0..<count).map { index in
                UInt8(truncatingIfNeeded: index < 8 ? low >> (8 * index) : high >> (8 * (index - 8)))
            }
        }
    }
}

/// A journal time: `2025-03-14T09:26:53.589Z` (``JournalClock``) as its 17 digits in one word,
/// any other text as it is.
enum StoredTime: Sendable {
    case digits(UInt64)
    case text(String)

    /// Where the separators of a journal time are, and which.
    private static let separators: [Int: UInt8] = [
        4: UInt8(ascii: "-"), 7: UInt8(ascii: "-"), 10: UInt8(ascii: "T"), 13: UInt8(ascii: ":"),
        16: UInt8(ascii: ":"), 19: UInt8(ascii: "."), 23: UInt8(ascii: "Z"),
    ]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 24 else {
            self = .text(text)
            return
        }
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if let separator = Self.separators[index] {
                guard byte == separator else {
                    self = .text(text)
                    return
                }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    self = .text(text)
                    return
                }
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            }
        }
        self = .digits(value)
    }

    /// The time as written.
    var text: String {
        switch self {
        case .text(let text): return text
        case .digits(let value):
            var digits = Array(String(value).utf8)
            digits.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 17 - digits.count)), at: 0)
            var out: [UInt8] = []
            out.reserveCapacity(24)
            var next = digits.makeIterator()
            for index in 0..<24 {
                if let separator = Self.separators[index] {
                    out.append(separator)
                } else if let digit = next.next() {
                    out.append(digit)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
