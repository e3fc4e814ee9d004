/// A stack of tags an operator puts on a reader one after another, for batch runs: one tag in
/// the field at a time; when the reader is done with it, it is taken away and the next one goes
/// in; after the last the field stays empty.
///
/// A pure value: the reader that holds the field decides when the operator acts (see
/// ``takeAwayIfDone(from:)`` and ``presentNext(into:)``) and how long a swap takes.
///
/// The operator takes a tag away when the reader polls after it selected the tag (the
/// reader has worked on it and now looks for the next one, as a session's
/// `waitForRemoval` does), or when the tag left the field by the
/// ``SimulatedField/Faults/removeAfterCommands`` fault. The faults given are armed afresh for each
/// tag as it goes in, so counts such as `remove-after`, `nak-write`, `lose-write` and
/// `corrupt-every` start again with every tag.
public struct SimulatedTagSupply: Sendable {
    /// Every tag that will be or was in the field, by UID, as it is now; the one in the field
    /// is kept in the field instead, until it is taken away.
    private var stack: [[UInt8]: SimulatedTag] = [:]
    /// The UIDs still to go in, next first (a tag presented again appears a second time).
    public private(set) var queue: [[UInt8]]
    /// The UIDs in the order the tags went into the field (a tag presented again appears twice).
    public private(set) var presentedUIDs: [[UInt8]] = []
    /// The UID of the tag in the field, until it is taken away.
    public private(set) var currentUID: [UInt8]?
    /// The faults armed for each tag as it goes in.
    public let faults: SimulatedField.Faults
    /// The field's select count when the current tag went in.
    private var selectCountAtEntry = 0

    /// A supply of `tags`, in order; with `duplicateAt` (1-based position), the tag at that
    /// position is presented a second time, right after the one that follows it (after the last
    /// one when it is the last). Tags whose UID repeats an earlier one are left out.
    public init(tags: [SimulatedTag], duplicateAt position: Int? = nil, faults: SimulatedField.Faults = .none) {
        var order: [[UInt8]] = []
        for tag in tags where stack[tag.uid] == nil {
            stack[tag.uid] = tag
            order.append(tag.uid)
        }
        if let position, position >= 1, position <= order.count {
            let again = order[position - 1]
            order.insert(again, at: min(position + 1, order.count))
        }
        self.queue = order
        self.faults = faults
    }

    /// `count` factory tags made by `make` from distinct UIDs (``uids(count:seed:)``).
    public init(
        count: Int, seed: UInt64, duplicateAt position: Int? = nil, faults: SimulatedField.Faults = .none,
        make: ([UInt8]) -> SimulatedTag?
    ) {
        let tags = Self.uids(count: count, seed: seed).compactMap(make)
        self.init(tags: tags, duplicateAt: position, faults: faults)
    }

    /// `count` distinct 7-byte UIDs (ISO/IEC 14443-3 6.5.4, double size), the same for the same
    /// seed: UID0 04h (NXP's manufacturer code, ISO/IEC 7816-6, as NTAG21x carry), then six bytes
    /// of a SplitMix64 sequence started at `seed`. None starts with 88h (the cascade tag).
    public static func uids(count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SplitMix64(seed: seed)
        var seen: Set<[UInt8]> = []
        var result: [[UInt8]] = []
        while result.count < max(0, count) {
            let value = generator.next()
            var uid: [UInt8] = [0x04]
            for shift in stride(from: 0, to: 48, by: 8) { uid.append(UInt8(truncatingIfNeeded: value >> shift)) }
            if seen.insert(uid).inserted { result.append(uid) }
        }
        return result
    }

    /// Whether tags are still to go in.
    public var hasMore: Bool { !queue.isEmpty }

    /// Every tag that went into the field, once each, in the order they first went in, with
    /// their memory as it is now (for the one in the field, as `field` holds it).
    public func passedTags(in field: SimulatedField) -> [SimulatedTag] {
        var seen: Set<[UInt8]> = []
        var result: [SimulatedTag] = []
        for uid in presentedUIDs where seen.insert(uid).inserted {
            if uid == currentUID, let tag = field.tag(uid: uid) {
                result.append(tag)
            } else if let tag = stack[uid] {
                result.append(tag)
            }
        }
        return result
    }

    /// The operator takes the tag in the field away when the reader is done with it: it was
    /// selected since it went in, or a fault took it out of the field.
    ///
    /// - Returns: the tag taken away, as it is now; nil when nothing changed.
    public mutating func takeAwayIfDone(from field: inout SimulatedField) -> SimulatedTag? {
        guard let uid = currentUID else { return nil }
        let inField = field.tags.contains { $0.uid == uid }
        guard !inField || field.selectCount > selectCountAtEntry else { return nil }
        return takeAway(from: &field)
    }

    /// The operator leaves the tag in the field for the reader to work on again, as after the
    /// reader went away mid-job and came back: it counts as not selected yet, so it is taken
    /// away only at a poll after the reader selects it anew.
    public mutating func keepCurrent(in field: SimulatedField) {
        selectCountAtEntry = field.selectCount
    }

    /// The operator takes the tag in the field away, whatever the reader did with it.
    ///
    /// - Returns: the tag taken away; nil when no tag of the supply is in the field.
    @discardableResult
    public mutating func takeAway(from field: inout SimulatedField) -> SimulatedTag? {
        guard let uid = currentUID else { return nil }
        currentUID = nil
        guard var tag = field.remove(uid: uid) else { return nil }
        tag.fieldOff()
        field.putBack()
        field.disarm()
        stack[uid] = tag
        return tag
    }

    /// The operator puts the next tag into the field (when none of the supply is in it) and the
    /// faults are armed for it.
    ///
    /// - Returns: the tag put in; nil when the field holds one already or none is left.
    @discardableResult
    public mutating func presentNext(into field: inout SimulatedField) -> SimulatedTag? {
        guard currentUID == nil, !queue.isEmpty else { return nil }
        let uid = queue.removeFirst()
        guard let tag = stack[uid], field.insert(tag) else { return nil }
        currentUID = uid
        presentedUIDs.append(uid)
        selectCountAtEntry = field.selectCount
        field.arm(faults)
        return tag
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// a small deterministic sequence for simulated UIDs and seeded tests, not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    /// A sequence starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
