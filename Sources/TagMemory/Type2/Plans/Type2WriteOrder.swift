import NDEF

extension Type2Memory {
    /// The write plan a session sends to write `message` (T2T 1.1, 6.4.3): the steps of
    /// ``writePlan(for:)`` in the order `Type2WriteOrder` gives them, so that a write torn at
    /// any point, even inside a page, leaves the old message, an empty one or the new one.
    ///
    /// - Throws: the errors of ``writePlan(for:)``.
    public func tearSafeWritePlan(for message: NFCNDEFMessage) throws(TagMemoryError) -> TagWritePlan {
        try tearSafe(writePlan(for: message))
    }

    /// As ``tearSafeWritePlan(for:)`` for an encoded message (``writePlan(messageBytes:)``).
    public func tearSafeWritePlan(messageBytes message: [UInt8]) throws(TagMemoryError) -> TagWritePlan {
        try tearSafe(writePlan(messageBytes: message))
    }

    /// `plan` (made by ``writePlan(messageBytes:)``, which checked the NDEF TLV) in tear-safe order.
    private func tearSafe(_ plan: TagWritePlan) throws(TagMemoryError) -> TagWritePlan {
        guard let typeAddress = ndefTLVAddress else {
            throw TagMemoryError(.notFormatted, "the tag has no NDEF Message TLV")
        }
        let lengthAddress = reservedRanges(before: typeAddress).nextFree(from: typeAddress + 1)
        return TagWritePlan(
            steps: Type2WriteOrder.tearSafeSteps(image: bytes, plan: plan, lengthAddress: lengthAddress),
            requiresAuthentication: plan.requiresAuthentication)
    }
}

/// Orders the page writes of an NDEF write so that a write torn at any point leaves the old
/// message, an empty message, or the new message.
///
/// ``Type2Memory/writePlan(messageBytes:)`` decides the bytes (NFC Forum Type 2 Tag 1.1, 6.4.3: the length set to 0
/// first, the message, the length last) and leaves out writes that change nothing; from a tag
/// whose length is already 0 it writes the length page once, with the length and the message
/// bytes that share its page. NTAG21x WRITE to a user page is not tearing-protected (only pages 2,
/// 3 and the lock bytes are, NTAG213/215/216 8.5.2, 8.5.6): a page whose EEPROM cells are
/// programmed in order and torn part way holds its first bytes new and its last bytes old. If
/// the final length-page write also changes the message bytes after the length byte, such a tear
/// leaves the new length over the old bytes: a message that is neither old nor new.
///
/// The order here rules that out: every write made while a non-empty message is visible changes
/// only the first length byte (to 0, or in the final write to its value), and every other byte is
/// written while the length is 0:
/// 1. the length page with the first length byte 00h and its other bytes final (staging), unless
///    it already holds exactly that, or the whole change is that one page and no byte but the
///    length changes or the new length is 0;
/// 2. the other pages that change, in address order (invisible behind the zero length);
/// 3. the length page with the final length, changing only that byte.
///
/// Over a message that is already staged (an interrupted write) step 1 is skipped, so a resumed
/// write sends only what is missing. From a factory NTAG215 a 100-byte message costs 27 WRITEs
/// where TagMemory's plan has 26: the length page is written twice.
enum Type2WriteOrder {
    /// The steps of `plan` over `image`, in a tear-safe order, with the staging step added when
    /// needed. `lengthAddress` is the first length byte of the NDEF Message TLV.
    static func tearSafeSteps(image: [UInt8], plan: TagWritePlan, lengthAddress: Int) -> [PlanStep] {
        var final: [Int: PlanStep] = [:]
        for step in plan.steps { final[step.address] = step }
        let lengthPage = Type2Page.containing(byte: lengthAddress)
        guard let current = page(lengthPage, of: image) else { return plan.steps }
        let finalLength = final[lengthPage]?.data ?? current
        var staged = finalLength
        staged[Type2Page.offset(ofByte: lengthAddress)] = 0x00
        let dataPages = final.keys.filter { $0 != lengthPage && page($0, of: image) != final[$0]?.data }.sorted()

        let onlyLengthChanges = zip(current, finalLength).enumerated().allSatisfy { offset, pair in
            pair.0 == pair.1 || offset == Type2Page.offset(ofByte: lengthAddress)
        }
        // A single write of the length page is safe when it changes only the length, or empties
        // the message (the length byte becomes 0 with whatever else changes).
        let singleWriteIsSafe = onlyLengthChanges || finalLength == staged
        let needsStaging = current != staged && (!dataPages.isEmpty || !singleWriteIsSafe)
        var steps: [PlanStep] = []
        var lengthPageNow = current
        if needsStaging {
            steps.append(
                PlanStep(
                    address: lengthPage, data: staged,
                    reason: "NDEF TLV length 0 first, with the other bytes of its page final: until the length "
                        + "is written last, a torn write leaves an empty message (T2T 1.1, 6.4.3)"))
            lengthPageNow = staged
        }
        for page in dataPages {
            if let step = final[page] { steps.append(step) }
        }
        if finalLength != lengthPageNow {
            steps.append(
                final[lengthPage]
                    ?? PlanStep(address: lengthPage, data: finalLength, reason: "NDEF TLV length last"))
        }
        return steps
    }

    /// The 4 bytes of `page` in `image`, if it holds them.
    static func page(_ page: Int, of image: [UInt8]) -> [UInt8]? {
        Type2Page.contents(of: page, in: image)
    }
}
