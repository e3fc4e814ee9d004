import NDEF

extension Type2Memory {
    /// Plans writing `message` as the tag's NDEF message, as CoreNFC's `writeNDEF` does
    /// (NFC Forum Type 2 Tag 1.1, 6.4.3, NDEF write procedure); a message without records
    /// leaves an empty NDEF TLV.
    ///
    /// See ``writePlan(messageBytes:)``.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedMessage`` when the message cannot be encoded,
    ///   and the errors of ``writePlan(messageBytes:)``.
    public func writePlan(for message: NFCNDEFMessage) throws(TagMemoryError) -> TagWritePlan {
        try writePlan(messageBytes: TagWritePlan.messageBytes(of: message))
    }

    /// Plans writing an encoded NDEF message into the NDEF Message TLV (T2T 1.1, 6.4.3).
    ///
    /// The TLV stays where it is (``ndefTLVAddress``); its T, L and message bytes flow around
    /// the bytes the Lock Control and Memory Control TLVs before it reserve (2.2.1). Every step
    /// is a page WRITE; bytes the plan does not own (reserved bytes, other TLVs before the
    /// NDEF TLV) are written with their current value, and lock bytes, configuration pages,
    /// the CC and the UID pages are never written. The steps, each left out when it would not
    /// change its page:
    /// 1. the page holding the first length byte, with that byte set to 00h: from here on a
    ///    reader sees an empty NDEF TLV (INITIALIZED state, 6.3.1), whatever the later pages
    ///    hold. Needed only when the length is not already 0 and another page must change.
    /// 2. the other pages, in address order: message bytes, the second and third length bytes
    ///    of a three-byte length that lie in a later page, and the Terminator TLV (FEh) when a
    ///    byte is left after the message;
    /// 3. the page holding the first length byte, with the final length: the one write that
    ///    makes the new message visible, whole.
    ///
    /// When a single page changes in all (the same message but for a few bytes of one page,
    /// or only the length), that page is written alone: one WRITE goes from the old message to
    /// the new one, the unit of atomicity the whole procedure relies on, so the length-0 step
    /// would only add a write. Otherwise the length-0 step is left out only when the length is
    /// already 0. From a tag whose length is 0 (a new or emptied tag) the plan therefore
    /// writes each page that must change exactly once, the fewest WRITE commands possible;
    /// over a message it writes the length page once more.
    ///
    /// Two choices differ from a literal reading of 6.4.3, and keep its guarantee (a torn
    /// write leaves the old message, an empty one, or the new one):
    /// - The Terminator TLV is written with the message, before the length, not after it:
    ///   while the first length byte is 00h nothing after it is read, so this is as safe, it
    ///   saves a WRITE when the Terminator shares a page with the message's last bytes, and
    ///   the new message is never visible followed by stale bytes.
    /// - A three-byte length (FFh, then two bytes) whose bytes straddle a page boundary is
    ///   written from the back: the page(s) with the two size bytes in step 2, the page with
    ///   FFh last. Until FFh is written the first length byte reads 00h, so the size bytes are
    ///   invisible; a single WRITE switches from empty to the new message.
    ///
    /// A page WRITE is atomic only as far as the chip makes it so: NTAG21x protects WRITE to
    /// pages 2, 3 and the lock bytes against tearing, not user pages. A write torn inside the
    /// final length page can leave that page undefined; no order of page writes avoids that.
    ///
    /// When a step writes a page at or after AUTH0 (``firstWriteProtectedPage``), the plan's
    /// ``TagWritePlan/requiresAuthentication`` is set: the session must authenticate first.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when ``ndefStatus`` is not supported
    ///   (no NDEF CC, no read access or no NDEF Message TLV: format the tag first);
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold the data area;
    ///   ``TagMemoryError/Code/insufficientCapacity`` when the message is longer than the
    ///   capacity (the reason names both, and the size with the TLV's T and L bytes);
    ///   ``TagMemoryError/Code/notWritable`` when the status is read-only (CC write access or
    ///   a locked page from the NDEF TLV to the end of the data area).
    public func writePlan(messageBytes message: [UInt8]) throws(TagMemoryError) -> TagWritePlan {
        guard ndefStatus.status != .notSupported, let typeAddress = ndefTLVAddress, let area = dataArea else {
            throw TagMemoryError(
                .notFormatted, at: Type2Page.capabilityContainerBytes.lowerBound,
                "the tag is not NDEF formatted: \(ndefStatusReason ?? "no NDEF Message TLV")")
        }
        guard bytes.count >= area.upperBound else {
            throw TagMemoryError(
                .truncatedImage, at: bytes.count,
                "the image ends at byte \(bytes.count), before the end of the data area (byte \(area.upperBound))")
        }
        let capacity = capacity(forTLVAt: typeAddress)
        let free = dataRanges(from: typeAddress)
        guard message.count <= capacity,
            let layout = Type2MessageLayout(message: message, typeAddress: typeAddress, free: free)
        else {
            let total = message.count + TagTLV.headerSize(length: message.count)
            throw TagMemoryError(
                .insufficientCapacity, at: typeAddress,
                "the message needs \(message.count) bytes (\(total) with the NDEF TLV's T and L bytes) but the tag "
                    + "holds at most \(capacity)")
        }
        guard ndefStatus.status == .readWrite else {
            throw TagMemoryError(
                .notWritable, at: typeAddress, "the tag is read-only: \(ndefStatusReason ?? "locked")")
        }
        return try Self.steps(for: layout, in: self, area: area)
    }

    /// The page writes that put `layout` in place, tearing-safe (see ``writePlan(messageBytes:)``).
    private static func steps(
        for layout: Type2MessageLayout, in memory: Type2Memory, area: Range<Int>
    ) throws(TagMemoryError) -> TagWritePlan {
        var builder = Type2PlanBuilder(memory: memory)
        let lengthPage = Type2Page.containing(byte: layout.firstLengthAddress)
        // Everything the final page write does not carry, as it must end up.
        var staged = layout.target
        staged[layout.firstLengthAddress] = 0x00
        for page in layout.pages {
            // The pages all lie in the data area; a page outside it would be a planning error.
            guard Type2Page.bytes(of: page).lowerBound >= area.lowerBound,
                Type2Page.bytes(of: page).upperBound <= area.upperBound
            else {
                throw TagMemoryError(
                    .conflictingState, at: Type2Page.firstByte(of: page),
                    "page \(page) lies outside the data area \(area)")
            }
        }
        let dataPages = layout.pages.filter { page in
            page != lengthPage && builder.content(of: page, with: layout.target) != builder.content(of: page)
        }
        let lengthPageChanges = builder.content(of: lengthPage, with: layout.target) != builder.content(of: lengthPage)
        // One changed page is one WRITE from the old content to the new: nothing to stage.
        let isSingleWrite = dataPages.count + (lengthPageChanges ? 1 : 0) <= 1
        let currentLength = memory.bytes[layout.firstLengthAddress]
        if !isSingleWrite, currentLength != 0, let zeroed = builder.content(of: lengthPage, with: staged) {
            builder.write(
                page: lengthPage, data: zeroed,
                reason: layout.valueAddresses.isEmpty
                    ? "NDEF TLV length 0 first: the tag reads as empty from here on (T2T 1.1, 6.3.1)"
                    : "NDEF TLV length 0 first: until the length is written last, a torn write leaves an empty "
                        + "message (T2T 1.1, 6.4.3)")
        }
        for page in dataPages {
            guard let data = builder.content(of: page, with: layout.target) else { continue }
            builder.write(page: page, data: data, reason: layout.contents(of: page))
        }
        if let final = builder.content(of: lengthPage, with: layout.target) {
            let count = layout.valueAddresses.count
            let carried = layout.contents(of: lengthPage)
            let reason =
                count == 0
                ? "NDEF TLV length 0: an empty message (T2T 1.1, 6.3.1)"
                : "NDEF TLV length \(count) last: the message becomes visible only once complete (T2T 1.1, 6.4.3)"
            builder.write(page: lengthPage, data: final, reason: carried.isEmpty ? reason : "\(reason); \(carried)")
        }
        return builder.plan
    }
}

/// Collects the page writes of a Type 2 plan against a working copy of the image.
///
/// Every step writes a whole page (WRITE, T2T 1.1 5.2): the builder fills the bytes a plan
/// does not mean to change with their current value, leaves out writes that would not
/// change the page, and notes whether a step reaches a password-protected page.
struct Type2PlanBuilder {
    /// The image as it will be after the steps so far.
    private(set) var bytes: [UInt8]
    /// The steps so far.
    private(set) var steps: [PlanStep] = []
    /// Whether a step writes a page at or after ``protectionStart``.
    private(set) var requiresAuthentication = false
    /// The first page that needs authentication for WRITE, if protection is on.
    let protectionStart: Int?

    init(memory: Type2Memory) {
        self.bytes = memory.bytes
        self.protectionStart = memory.firstWriteProtectedPage
    }

    /// The current content of `page`, or nil if the image does not hold all of it.
    func content(of page: Int) -> [UInt8]? {
        let range = Type2Page.bytes(of: page)
        guard page >= 0, range.upperBound <= bytes.count else { return nil }
        return Array(bytes[range])
    }

    /// `page` with the bytes of `changes` (byte address → value) that fall in it.
    func content(of page: Int, with changes: [Int: UInt8]) -> [UInt8]? {
        guard var data = content(of: page) else { return nil }
        for (offset, address) in Type2Page.bytes(of: page).enumerated() {
            if let value = changes[address] { data[offset] = value }
        }
        return data
    }

    /// Adds a write of `data` to `page` unless the page already holds it (a secret step is
    /// always written: the image cannot show PWD or PACK, which read back as zeros).
    ///
    /// - Returns: whether a step was added.
    @discardableResult
    mutating func write(page: Int, data: [UInt8], reason: String, isSecret: Bool = false) -> Bool {
        let range = Type2Page.bytes(of: page)
        guard data.count == Type2Page.size, page >= 0, range.upperBound <= bytes.count else { return false }
        if !isSecret, Array(bytes[range]) == data { return false }
        bytes.replaceSubrange(range, with: data)
        steps.append(PlanStep(address: page, data: data, reason: reason, isSecret: isSecret))
        if let protectionStart, page >= protectionStart { requiresAuthentication = true }
        return true
    }

    /// The plan built.
    var plan: TagWritePlan { TagWritePlan(steps: steps, requiresAuthentication: requiresAuthentication) }
}
