import NDEF
import TagMemory

/// The UID and NFC counter mirror of NTAG213/215/216 (datasheet 8.7): messages whose reads carry
/// the tag's UID and tap counter, written whole and tearing-safe.
extension NFCMiFareTag {
    /// Writes `message` and sets up the mirror `mirror` asks for (nil: a plain write, as
    /// ``writeNDEF(_:)``), in this order:
    /// 1. all checks, before any write: the chip has the mirror (``NFCReaderError/Code/unsupportedFeature``),
    ///    the message fits and is writable, and the placeholder lies where the chip can mirror it
    ///    (``TagMemory/Type2Memory/mirrorPlacement(for:messageBytes:)``: inside user memory, ending
    ///    by byte 2 of the last user page, not split by reserved bytes;
    ///    ``NFCReaderError/Code/invalidParameter``), CFG0 and CFG1 not locked by CFGLCK
    ///    (``NFCReaderError/Code/tagNotWritable``), the password where pages are protected;
    /// 2. when the tag mirrors something already and the write changes a page: CFG0 with the
    ///    mirror off (one WRITE, read back), so that the message pages read back as written; the
    ///    pages the mirror showed are read again;
    /// 3. the message, as ``writeNDEF(_:)`` writes it (length 0 first, length last), read back;
    /// 4. CFG1 when NFC_CNT_EN or NFC_CNT_PWD_PROT must change, then CFG0 with MIRROR_CONF,
    ///    MIRROR_BYTE and MIRROR_PAGE, read back.
    ///
    /// A cut anywhere leaves the old message (mirror on or off), an empty or the new message
    /// without mirror, or the new message with its mirror: never a mirror over text that is not
    /// its placeholder. Running the same write again finishes it: a tag that holds the message
    /// and its mirror already gets no WRITE at all, one that holds the message only gets the
    /// configuration writes.
    ///
    /// Commands on a factory NTAG215 for a 50-byte URI with both mirrors, over the plain write:
    /// two WRITEs (CFG1, CFG0) and one READ of them.
    ///
    /// A plain write (`mirror` nil) or an erase turns off a mirror the tag shows, the same way
    /// (step 2), so that readers see the message written and not a UID over it.
    public func writeNDEF(_ message: NFCNDEFMessage, mirror: Type2MirrorRequest?) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        if mirror != nil { try checkMirrorSupport() }
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await writeMessage(bytes, mirror: mirror, cache: &cache, readsWholeTag: false, purpose: "the NDEF write")
    }

    /// Completes an interrupted ``writeNDEF(_:mirror:)``: reads the whole tag, then writes what is
    /// missing of the message and of the mirror configuration.
    public func resumeWrite(_ message: NFCNDEFMessage, mirror: Type2MirrorRequest?) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        if mirror != nil { try checkMirrorSupport() }
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await writeMessage(
            bytes, mirror: mirror, cache: &cache, readsWholeTag: true, purpose: "the resumed NDEF write")
    }

    /// The page writes ``writeNDEF(_:mirror:)`` would send, without writing (a `--dry-run`). Under
    /// a mirror that is on, the pages it shows are taken to hold its placeholder.
    public func plannedWrite(of message: NFCNDEFMessage, mirror: Type2MirrorRequest?) async throws(NFCReaderError)
        -> TagWritePlan
    {
        let bytes = try encodedForWriting(message)
        if mirror != nil { try checkMirrorSupport() }
        try await beginOperation()
        defer { endOperation() }
        return try await plannedMirroredWrite(of: bytes, mirror: mirror)
    }

    /// The plan of ``plannedWrite(of:mirror:)`` for encoded message bytes, inside an operation.
    func plannedMirroredWrite(of bytes: [UInt8], mirror: Type2MirrorRequest?) async throws(NFCReaderError)
        -> TagWritePlan
    {
        var cache = makeCache()
        let purpose = bytes.isEmpty ? "the erase" : "the NDEF write"
        let planned = try await planMessage(bytes, cache: &cache, readsWholeTag: false, purpose: purpose)
        let steps = try mirrorSteps(planned, message: bytes, mirror: mirror, purpose: purpose)
        let all = steps.off + steps.message + steps.configuration
        return TagWritePlan(
            steps: all,
            requiresAuthentication: planned.memory.firstWriteProtectedPage.map { start in
                all.contains { $0.address >= start }
            } ?? false)
    }

    /// The NDEF message as it was written: as ``readNDEF()`` reads it, with the text a UID or NFC
    /// counter mirror shows put back to the mirror's placeholder
    /// (``TagMemory/Type2Memory/unmirrored(authenticated:)``), so that it compares equal to the
    /// message a ``writeNDEF(_:mirror:)`` wrote, whatever the counter is now. Reads CFG0 and CFG1
    /// with the message (in the same read on an NTAG213).
    public func readNDEFAsWritten() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        _ = try await loadNDEFArea(&cache, firstPages: messageFirstPages, extra: controlPages, throughMessage: true)
        let memory = Type2Memory(bytes: cache.fullImage, chip: chip).unmirrored(authenticated: authenticated)
        return try Self.message(in: memory)
    }

    /// Throws ``NFCReaderError/Code/unsupportedFeature`` unless the chip has the mirror
    /// (NTAG213/215/216); checked without a command, so a caller can refuse a tag before writing.
    /// The configuration pages are written with WRITE, as the message is: any reader that writes
    /// Type 2 pages sets the mirror up.
    public nonisolated func checkMirrorSupport() throws(NFCReaderError) {
        guard let chip, chip.features.contains(.asciiMirror) else {
            throw NFCReaderError(
                .unsupportedFeature,
                "\(chip?.name ?? "this unidentified chip") has no UID or NFC counter mirror (NTAG213/215/216 have)")
        }
    }

    /// The writes of a message write with `mirror`: the mirror off first when needed, the
    /// message (planned on the image as the writer left it, when the mirror stays), the
    /// configuration last.
    func mirrorSteps(
        _ planned: PlannedMessage, message: [UInt8], mirror request: Type2MirrorRequest?, purpose: String
    ) throws(NFCReaderError) -> MirrorWriteSteps {
        let memory = planned.memory
        var placement: Type2Configuration.Mirror?
        if let request {
            do {
                placement = try memory.mirrorPlacement(for: request, messageBytes: message)
            } catch {
                throw NFCReaderError(planning: error, "cannot place the mirror")
            }
        }
        let configuration = try planning("cannot plan the mirror") { () throws(TagMemoryError) in
            request == nil
                ? TagWritePlan(steps: [])
                : try memory.mirrorPlan(
                    placement, counterPasswordProtected: request?.isCounterPasswordProtected ?? false)
        }
        guard memory.configuration?.mirroredBytes(authenticated: authenticated) != nil else {
            return MirrorWriteSteps(
                off: [], message: planned.steps, configuration: configuration.steps, placement: placement)
        }
        // The tag mirrors now. When it mirrors what is wanted and holds the message, nothing
        // changes; otherwise the mirror goes off before the message pages change.
        let asWritten = memory.unmirrored(authenticated: authenticated)
        let messageSteps = try planning("cannot plan \(purpose)") { () throws(TagMemoryError) in
            try asWritten.tearSafeWritePlan(messageBytes: message).steps
        }
        if request != nil, configuration.steps.isEmpty, messageSteps.isEmpty {
            return MirrorWriteSteps(off: [], message: [], configuration: [], placement: placement)
        }
        let off = try planning("cannot turn the mirror off") { () throws(TagMemoryError) in
            try memory.mirrorPlan(nil)
        }
        let after = try planning("cannot plan the mirror") { () throws(TagMemoryError) in
            var image = memory
            for step in off.steps { image = Type2Memory(bytes: Self.replacing(step, in: image.bytes), chip: chip) }
            return request == nil
                ? TagWritePlan(steps: [])
                : try image.mirrorPlan(
                    placement, counterPasswordProtected: request?.isCounterPasswordProtected ?? false)
        }
        return MirrorWriteSteps(
            off: off.steps, message: messageSteps, configuration: after.steps, placement: placement)
    }

    /// Writes `message` with `mirror` (see ``writeNDEF(_:mirror:)``).
    func writeMirrored(
        _ message: [UInt8], mirror: Type2MirrorRequest?, cache: inout Type2PageCache, readsWholeTag: Bool,
        purpose: String
    ) async throws(NFCReaderError) {
        var planned = try await planMessage(message, cache: &cache, readsWholeTag: readsWholeTag, purpose: purpose)
        var steps = try mirrorSteps(planned, message: message, mirror: mirror, purpose: purpose)
        let memory = planned.memory
        try checkAuthentication(steps.off + steps.message + steps.configuration, memory: memory, purpose: purpose)
        var sent: [PlanStep] = []
        if !steps.off.isEmpty, let shown = memory.configuration?.mirroredBytes(authenticated: authenticated) {
            let expected = try expectedImage(memory, steps.off)
            try await execute(steps.off, purpose: purpose)
            try await verify(steps.off, expected: expected, purpose: purpose)
            sent = steps.off
            for step in steps.off { cache.store(from: step.address, step.data) }
            // What the mirror showed is read again, as memory holds it.
            if let pages = Type2Page.pages(covering: shown) { cache.forget(pages) }
            planned = try await planMessage(message, cache: &cache, readsWholeTag: false, purpose: purpose)
            steps = try mirrorSteps(planned, message: message, mirror: mirror, purpose: purpose)
            guard steps.off.isEmpty else {
                throw NFCReaderError(
                    .tagUpdateFailure, "the mirror was turned off but the tag still mirrors", mayBeHalfWritten: true)
            }
        }
        let expected = try expectedImage(planned.memory, steps.message)
        try await execute(steps.message, purpose: purpose, after: sent)
        try await verify(steps.message, expected: expected, purpose: purpose)
        sent += steps.message
        if !steps.configuration.isEmpty {
            let expectedConfiguration = try expectedImage(planned.memory, steps.configuration)
            try await execute(steps.configuration, purpose: purpose, after: sent)
            try await verify(steps.configuration, expected: expectedConfiguration, purpose: purpose)
        }
        lastWrittenStatus = NDEFTagStatus(status: .readWrite, capacity: planned.memory.ndefStatus.capacity)
        lastWrittenMirror = steps.placement
    }

    /// `image` after `step`, a page write.
    private static func replacing(_ step: PlanStep, in image: [UInt8]) -> [UInt8] {
        var image = image
        let range = Type2Page.bytes(of: step.address)
        if range.upperBound <= image.count { image.replaceSubrange(range, with: step.data) }
        return image
    }

    /// The result of `body`, a TagMemory planning call, with its error as a session error.
    private func planning<T>(
        _ context: String, _ body: () throws(TagMemoryError) -> T
    ) throws(NFCReaderError) -> T {
        do {
            return try body()
        } catch {
            throw NFCReaderError(planning: error, context)
        }
    }
}

/// The writes of a message write with a mirror (see ``NFCMiFareTag/writeNDEF(_:mirror:)``).
struct MirrorWriteSteps {
    /// CFG0 with the mirror off, when the tag mirrors and the message pages change.
    var off: [PlanStep]
    /// The message, tearing-safe.
    var message: [PlanStep]
    /// CFG1 and CFG0 with the mirror wanted.
    var configuration: [PlanStep]
    /// Where the mirror goes; nil for a write without mirror.
    var placement: Type2Configuration.Mirror?
}
