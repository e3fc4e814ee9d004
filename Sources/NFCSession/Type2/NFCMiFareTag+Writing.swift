import NDEF
import TagMemory

/// Writing: NDEF write, resume, erase and format (NFC Forum Type 2 Tag 1.1, 6.4.3 NDEF write
/// procedure, 6.3.1 INITIALIZED state).
extension NFCMiFareTag {
    /// Writes `message` as the tag's NDEF message, as CoreNFC's `writeNDEF` does (T2T 1.1, 6.4.3).
    ///
    /// Steps: read the CC, the TLVs up to the NDEF Message TLV, the pages the new TLV will cover,
    /// and the lock and configuration pages; check, before any write, that the tag is NDEF
    /// formatted, writable (CC write access, lock bits) and large enough; plan the bytes with
    /// TagMemory's ``TagMemory/Type2Memory/writePlan(messageBytes:)`` (pages that already hold their content
    /// are left out); order the writes so that a tear leaves the old, an empty or the new message
    /// (``TagMemory/Type2Memory/tearSafeWritePlan(messageBytes:)``); send each WRITE and require its ACK; read the written pages back.
    ///
    /// Commands for a 100-byte message on a factory NTAG215 with FAST_READ and a 252-byte frame:
    /// FAST_READ pages 0-31, FAST_READ pages 130-132, 27 WRITEs (pages 4-29, the length page twice),
    /// FAST_READ pages 4-29.
    ///
    /// The checks need the lock bytes and AUTH0: on a tag whose configuration pages are
    /// read-protected (PROT set, AUTH0 at or before them), authenticate first, even to write pages
    /// below AUTH0.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` for a message without records (an NDEF
    ///   message has at least one record; ``erase()`` empties a tag), before any command;
    ///   ``NFCReaderError/Code/invalidMessage`` when the message cannot be encoded;
    ///   ``NFCReaderError/Code/tagNotSupported`` for a tag that is not NDEF formatted;
    ///   ``NFCReaderError/Code/tagNotWritable`` for a read-only tag and
    ///   ``NFCReaderError/Code/tagSizeTooSmall`` (with ``NFCReaderError/capacity`` and
    ///   ``NFCReaderError/neededSize``) for a message that does not fit, before any write;
    ///   ``NFCReaderError/Code/authenticationRequired`` when a page to write is password-protected
    ///   and ``authenticate(password:expectedPasswordAcknowledge:)`` has not succeeded since the tag was
    ///   selected, before any write; ``NFCReaderError/Code/tagConnectionLost`` (half-written) when
    ///   the tag leaves during the writes or the read-back; ``NFCReaderError/Code/tagUpdateFailure``
    ///   for a refused write (NAK) or a read-back that differs.
    public func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await writeMessage(bytes, cache: &cache, readsWholeTag: false, purpose: "the NDEF write")
    }

    /// Completes a write that was interrupted (an error with ``NFCReaderError/mayBeHalfWritten``):
    /// reads the whole tag first, then plans from what it holds and writes `message`.
    ///
    /// Since plans leave out pages that already hold their content and the length stays 0 until the
    /// last write, only the pages still missing are written, then the length. A tag that already
    /// holds `message` gets no WRITE at all.
    public func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await writeMessage(bytes, cache: &cache, readsWholeTag: true, purpose: "the resumed NDEF write")
    }

    /// Empties the NDEF message: the NDEF Message TLV becomes `03 00` followed by a Terminator TLV
    /// (T2T 1.1, 6.3.1, INITIALIZED state). Usually one WRITE, of the length page.
    ///
    /// - Throws: as ``writeNDEF(_:)``, except for the message checks.
    public func erase() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await writeMessage([], cache: &cache, readsWholeTag: false, purpose: "the erase")
    }

    /// NDEF-formats the tag so that it reads as INITIALIZED with the catalogue capacity (T2T 1.1,
    /// 6.3.1), with ``TagMemory/Type2Memory/formatPlan()``: the chip's factory data area content (or
    /// `03 00 FE`), then the chip's CC.
    ///
    /// A tag that is already NDEF formatted and writable is erased instead (``erase()``), which is
    /// tearing-safe; the format plan overwrites the data area directly and is meant for blank or
    /// damaged tags. The CC is one-time programmable (T2T 1.1, 2.1; NTAG213/215/216 8.5.6): its bits
    /// can be set, never cleared.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` when the chip is not identified;
    ///   ``NFCReaderError/Code/tagNotWritable`` when the tag is read-only, a page to write is
    ///   locked, or the current CC has bits set that the wanted CC lacks (the OTP bits cannot be
    ///   cleared, so formatting would leave a wrong CC: nothing is written);
    ///   ``NFCReaderError/Code/authenticationRequired`` for password-protected pages; and the
    ///   write errors of ``writeNDEF(_:)``.
    public func format() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        guard let chip else {
            throw NFCReaderError(.tagNotSupported, "the chip is not identified: its CC and memory size are unknown")
        }
        var cache = makeCache()
        let contentPages = Type2Page.containing(byte: Type2Page.dataAreaStart + max(3, chip.factoryData.count) - 1)
        try await load(Array(0...contentPages) + controlPages, into: &cache)
        let memory = Type2Memory(bytes: cache.fullImage, chip: chip)
        if memory.ndefStatus.status == .readWrite {
            try await writeMessage([], cache: &cache, readsWholeTag: false, purpose: "the format (erase)")
            return
        }
        if memory.ndefStatus.status == .readOnly {
            throw NFCReaderError(
                .tagNotWritable, "the tag is read-only: \(memory.ndefStatusReason ?? "locked"); it cannot be formatted")
        }
        let plan: TagWritePlan
        do {
            plan = try memory.formatPlan()
        } catch {
            throw NFCReaderError(planning: error, "cannot format the tag")
        }
        try checkAuthentication(plan.steps, memory: memory, purpose: "formatting")
        let expected = try expectedImage(memory, plan.steps)
        try await execute(plan.steps, purpose: "the format")
        try await verify(plan.steps, expected: expected, purpose: "the format")
        lastWrittenStatus = Type2Memory(bytes: expected, chip: chip).ndefStatus
    }

    /// The page writes ``writeNDEF(_:)`` would send for `message`, in order, without writing:
    /// the same reads and checks (a `--dry-run`). The steps include the early write of the length
    /// page that keeps a torn write safe (see ``writeNDEF(_:)``), so they are exactly what a write
    /// sends now, as long as the tag does not change in between.
    ///
    /// - Throws: the errors ``writeNDEF(_:)`` throws before its first write.
    public func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        return try await plannedMirroredWrite(of: bytes, mirror: nil)
    }

    /// The page writes ``erase()`` would send, in order, without writing (see ``plannedWrite(of:)``).
    public func plannedErase() async throws(NFCReaderError) -> TagWritePlan {
        try await beginOperation()
        defer { endOperation() }
        return try await plannedMirroredWrite(of: [], mirror: nil)
    }

    /// Reads what is missing, checks, plans and writes `message` (see ``writeNDEF(_:)``); a mirror
    /// the tag has is turned off first (see ``writeNDEF(_:mirror:)``).
    func writeMessage(
        _ message: [UInt8], mirror: Type2MirrorRequest? = nil, cache: inout Type2PageCache, readsWholeTag: Bool,
        purpose: String
    ) async throws(NFCReaderError) {
        try await writeMirrored(message, mirror: mirror, cache: &cache, readsWholeTag: readsWholeTag, purpose: purpose)
    }

    /// Reads what is missing, checks that `message` can be written, and returns the steps in the
    /// order they are sent, with the memory they were planned on.
    func planMessage(
        _ message: [UInt8], cache: inout Type2PageCache, readsWholeTag: Bool, purpose: String
    ) async throws(NFCReaderError) -> PlannedMessage {
        if readsWholeTag {
            try await loadWholeMemory(&cache)
            try await load(controlPages, into: &cache)
        } else {
            let header = TagTLV.headerSize(length: message.count)
            // The T byte is at byte 16, or a few bytes later after Lock Control TLVs (NTAG213: 21).
            let estimatedEnd = Type2Page.dataAreaStart + 8 + header + message.count + 1
            let prefix = try await loadNDEFArea(
                &cache, firstPages: Type2Page.containing(byte: estimatedEnd) + 1, extra: controlPages,
                throughMessage: false)
            try await loadGenericLockPages(prefix, into: &cache, strict: true)
        }
        var memory = Type2Memory(bytes: cache.fullImage, chip: chip)
        let typeAddress = try Self.checkWritable(memory, messageLength: message.count)
        guard let area = memory.dataArea else {
            throw NFCReaderError(.tagNotSupported, "the tag has no NDEF data area")
        }
        let reserved = memory.reservedRanges(before: typeAddress)
        let tlvLength = TagTLV.headerSize(length: message.count) - 1 + message.count + 1
        let end = Type2ReadExtent.endOfRun(
            after: typeAddress, length: tlvLength, reserved: reserved, limit: area.upperBound)
        try await load(
            Array(Type2Page.containing(byte: typeAddress)...Type2Page.containing(byte: end - 1)), into: &cache)
        memory = Type2Memory(bytes: cache.fullImage, chip: chip)

        let plan: TagWritePlan
        do {
            plan = try memory.tearSafeWritePlan(messageBytes: message)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan \(purpose)")
        }
        return PlannedMessage(steps: plan.steps, memory: memory, requiresAuthentication: plan.requiresAuthentication)
    }

    /// The NDEF TLV address when `memory` can take a message of `messageLength` bytes, else the
    /// error, in this order: not NDEF (``NFCReaderError/Code/tagNotSupported``), read-only
    /// (``NFCReaderError/Code/tagNotWritable``), too small (``NFCReaderError/Code/tagSizeTooSmall``).
    static func checkWritable(_ memory: Type2Memory, messageLength: Int) throws(NFCReaderError) -> Int {
        let status = memory.ndefStatus
        switch status.status {
        case .notSupported:
            throw NFCReaderError(
                .tagNotSupported,
                "the tag is not NDEF formatted: \(memory.ndefStatusReason ?? "no NDEF Message TLV"); format it first")
        case .readOnly:
            throw NFCReaderError(.tagNotWritable, "the tag is read-only: \(memory.ndefStatusReason ?? "locked")")
        case .readWrite:
            break
        }
        guard messageLength <= status.capacity else {
            throw NFCReaderError(
                .tagSizeTooSmall,
                "the message needs \(messageLength) bytes but the tag holds at most \(status.capacity)",
                capacity: status.capacity, neededSize: messageLength)
        }
        guard let address = memory.ndefTLVAddress else {
            throw NFCReaderError(.tagNotSupported, "the tag has no NDEF Message TLV")
        }
        return address
    }

    /// Throws ``NFCReaderError/Code/authenticationRequired`` when a step writes a page from the first
    /// write-protected page on (AUTH0, NTAG213/215/216 8.8.1) and no PWD_AUTH succeeded.
    func checkAuthentication(_ steps: [PlanStep], memory: Type2Memory, purpose: String) throws(NFCReaderError) {
        guard !authenticated, let start = memory.firstWriteProtectedPage,
            let page = steps.map(\.address).filter({ $0 >= start }).min()
        else { return }
        throw NFCReaderError(
            .authenticationRequired,
            "\(purpose) writes page \(page), password-protected from page \(start): authenticate first")
    }

    /// The image after `steps`, as the chip applies them (lock bits OR-ed, page 2 bytes 0-1 kept).
    func expectedImage(_ memory: Type2Memory, _ steps: [PlanStep]) throws(NFCReaderError) -> [UInt8] {
        do {
            return try memory.applying(TagWritePlan(steps: steps), authenticated: true).bytes
        } catch {
            throw NFCReaderError(planning: error, "the planned writes would be refused")
        }
    }
}

/// A message write planned on what the tag holds: the steps in the order they are sent, and the
/// memory they were planned on.
struct PlannedMessage {
    var steps: [PlanStep]
    var memory: Type2Memory
    var requiresAuthentication: Bool
}
