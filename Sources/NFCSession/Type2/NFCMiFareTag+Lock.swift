import HexText
import NDEF
import TagMemory

/// Making the tag read-only for good (NFC Forum Type 2 Tag 1.1, 6.4.4, transition to READ-ONLY),
/// behind a confirmation of tag, content and plan.
extension NFCMiFareTag {
    /// The tag state a lock is planned from.
    struct LockState {
        var memory: Type2Memory
        var plan: TagWritePlan
        var confirmation: NFCLockConfirmation
    }

    /// Reads the tag and makes the confirmation a lock with `options` needs, without writing
    /// anything: show its ``NFCLockConfirmation/code`` and the plan, and pass it (or the code) to
    /// ``writeLock(_:)``.
    ///
    /// The plan is TagMemory's ``TagMemory/Type2Memory/lockPlan(options:)``: the CC write access nibble Fh
    /// first, then the dynamic and static lock bits (and CFGLCK when asked). A tag whose lock was
    /// interrupted (CC already read-only, lock bits not all set) gets a plan for the rest.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotWritable`` when the tag is already locked for good
    ///   (nothing left to write) or a frozen lock bit keeps part of the data area writable;
    ///   ``NFCReaderError/Code/tagNotSupported`` for a tag that is not NDEF formatted or an unknown
    ///   chip whose lock bits cannot be located; the read errors.
    public func prepareLock(options: Type2LockOptions) async throws(NFCReaderError) -> NFCLockConfirmation {
        try await beginOperation()
        defer { endOperation() }
        return try await lockState(options: options).confirmation
    }

    /// ``prepareLock(options:)`` with the default options: the data area and CC, as CoreNFC's
    /// `writeLock` (the configuration pages stay changeable).
    public func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation {
        try await prepareLock(options: Type2LockOptions())
    }

    /// Locks the tag as `confirmation` describes, after checking it still describes it.
    ///
    /// Checks, in order, each failing before any write: the UID (``NFCReaderError/Code/confirmationMismatch``,
    /// without a command), then after a fresh read whether the tag is already locked for good
    /// (``NFCReaderError/Code/tagNotWritable``), then the digest of content and plan
    /// (``NFCReaderError/Code/confirmationMismatch``: the content or the lock state changed). Then
    /// the plan's WRITEs, each acknowledged, and a read-back (see ``writeLock(code:options:)``).
    public func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try confirmation.checkTag(identifier)
        let state = try await lockState(options: confirmation.options)
        try confirmation.checkUnchanged(state.confirmation, content: "the tag's content or lock state")
        try await performLock(state)
    }

    /// Locks the tag when `code` is the code ``prepareLock(options:)`` gives for it now (with the
    /// same `options`): the command line's `--confirm 123-456` after a first run showed the code.
    ///
    /// Each WRITE (CC first, NTAG213/215/216 8.5.6; lock bytes, 8.5.2 and 8.5.3; CFGLCK, 8.5.7)
    /// is read back before the next one is sent; a page that did not take is written once more,
    /// and if it still does not, the lock stops before any later step. At the end the tag must
    /// report read-only: CC write access Fh and the lock bits set (``TagMemory/Type2Memory/ndefStatus``);
    /// else ``NFCReaderError/Code/tagUpdateFailure`` names the page that did not take.
    ///
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` when `code` is not six digits or not
    ///   this tag's code (no write); the errors of ``writeLock(_:)``. An interrupted lock reports
    ///   ``NFCReaderError/Code/tagConnectionLost`` half-written: the tag then reads either as
    ///   writable as before (the CC write did not land) or as read-only (``queryNDEFStatus()``
    ///   tells), and preparing the lock again plans the lock bits still missing.
    public func writeLock(code: String, options: Type2LockOptions = Type2LockOptions()) async throws(NFCReaderError) {
        guard let wanted = NFCLockConfirmation.normalizedCode(code) else {
            throw NFCReaderError(.confirmationMismatch, "a lock code has six digits, as 123-456")
        }
        try await beginOperation()
        defer { endOperation() }
        let state = try await lockState(options: options)
        guard state.confirmation.code == wanted else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the code does not match this tag and its content: prepare the lock again to see the current code")
        }
        try await performLock(state)
    }

    /// Reads the CC, the TLV area through the NDEF message and the lock and configuration pages,
    /// and plans the lock.
    func lockState(options: Type2LockOptions) async throws(NFCReaderError) -> LockState {
        var cache = makeCache()
        let prefix = try await loadNDEFArea(
            &cache, firstPages: messageFirstPages, extra: controlPages, throughMessage: true)
        try await loadGenericLockPages(prefix, into: &cache, strict: true)
        let memory = Type2Memory(bytes: cache.fullImage, chip: chip)
        guard memory.ndefStatus.status != .notSupported, let typeAddress = prefix.ndefTLVAddress else {
            throw NFCReaderError(
                .tagNotSupported, "the tag is not NDEF formatted: \(memory.ndefStatusReason ?? "no NDEF TLV")")
        }
        let plan: TagWritePlan
        do {
            plan = try memory.lockPlan(options: options)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan the lock")
        }
        guard !plan.steps.isEmpty else {
            throw NFCReaderError(
                .tagNotWritable, "the tag is already read-only for good: CC write access Fh and every lock bit set")
        }
        let tlvEnd = prefix.ndefTLV?.endAddress ?? (typeAddress + 1)
        let areaEnd = max(Type2Page.dataAreaStart, min(tlvEnd, prefix.bytes.count))
        // The content as written: a UID or counter mirror's text back to its placeholder, so that
        // a counter that went up since the code was shown does not change the code.
        let content = memory.unmirrored(authenticated: authenticated).bytes
        let confirmation = try NFCLockConfirmation(
            uid: identifier, capabilityContainer: Array(memory.bytes[Type2Page.capabilityContainerBytes]),
            tlvArea: Array(content[min(Type2Page.dataAreaStart, prefix.bytes.count)..<areaEnd]),
            options: options, plan: plan, messageLength: prefix.ndefMessageBytes?.count ?? 0)
        return LockState(memory: memory, plan: plan, confirmation: confirmation)
    }

    /// Writes the lock plan one step at a time, each read back before the next, and checks the
    /// tag now reports read-only: the read-backs prove every written page holds what the plan
    /// leads to, so the status of that image (CC write access Fh, lock bits set) is the tag's.
    ///
    /// Every lock step is one-time programmable, so none is sent before the one before it is seen
    /// on the tag: a WRITE the tag acknowledged but did not store (an EEPROM fault, a reader that
    /// lost it) would otherwise leave lock bits set under a CC that still says writable. A page
    /// that does not read back as written gets its WRITE once more (writing the same OR-ed bits
    /// again changes nothing that took); if it still does not, the lock stops there, before any
    /// further bit is set.
    func performLock(_ state: LockState) async throws(NFCReaderError) {
        let steps = state.plan.steps
        try checkAuthentication(steps, memory: state.memory, purpose: "the lock")
        let expected = try expectedImage(state.memory, steps)
        for (index, step) in steps.enumerated() {
            let sent = Array(steps.prefix(index))
            try await execute([step], purpose: "the lock", after: sent)
            try await confirm(step, expected: expected, sent: sent + [step], steps: steps)
        }
        let locked = Type2Memory(bytes: expected, chip: chip)
        guard locked.ndefStatus.status == .readOnly else {
            throw NFCReaderError(
                .tagUpdateFailure,
                "the lock was written but the tag does not report read-only: \(locked.ndefStatusReason ?? "unknown")",
                mayBeHalfWritten: true)
        }
    }

    /// Reads back the page `step` wrote (one page, FAST_READ or READ) and compares it with
    /// `expected`; a page that differs is written once more and read again.
    ///
    /// - Throws: ``NFCReaderError/Code/tagUpdateFailure`` naming the part that did not take and
    ///   that the lock stopped; the read errors (``NFCReaderError/Code/tagConnectionLost``,
    ///   ``NFCReaderError/Code/readerUnavailable``); all half-written.
    private func confirm(
        _ step: PlanStep, expected: [UInt8], sent: [PlanStep], steps: [PlanStep]
    ) async throws(NFCReaderError) {
        let wanted = Type2Page.contents(of: step.address, in: expected)
        let isLast = sent.count >= steps.count
        let stop = isLast ? "" : "; the lock stopped before its next step, which could not be taken back"
        var read: [UInt8]?
        for attempt in 1...2 {
            var cache = makeCache()
            do {
                try await load([step.address], into: &cache, limit: max(readablePageLimit(cache), step.address + 1))
            } catch {
                throw NFCReaderError(
                    [.tagConnectionLost, .readerUnavailable].contains(error.code) ? error.code : .tagUpdateFailure,
                    lockFailureReason(
                        page: step.address, "written by the lock could not be read back: \(error.reason)") + stop,
                    mayBeHalfWritten: true)
            }
            read = cache.page(step.address)
            if read == wanted { return }
            if attempt == 1 {
                try await execute([step], purpose: "the lock (again: page \(step.address) did not take)", after: sent)
            }
        }
        throw NFCReaderError(
            .tagUpdateFailure,
            lockFailureReason(
                page: step.address,
                "reads \(Hex.bytes(read ?? [])) after two acknowledged WRITEs, not the \(Hex.bytes(wanted ?? [])) written"
            )
                + stop,
            mayBeHalfWritten: true)
    }

    /// A verification failure of the lock at `page`, saying which part did not take:
    /// `the static lock bits did not take: page 2 reads ...`.
    private func lockFailureReason(page: Int, _ problem: String) -> String {
        let part: String
        switch page {
        case 3: part = "the CC write access did not become Fh"
        case 2: part = "the static lock bits did not take"
        case chip?.dynamicLock?.page: part = "the dynamic lock bits did not take"
        case chip?.configurationPages?.cfg1: part = "CFGLCK did not take"
        default: part = "the lock could not be confirmed"
        }
        return "\(part): page \(page) \(problem)"
    }
}

/// Locking the password configuration of NTAG21x and MIFARE Ultralight EV1 tags for good: CFGLCK,
/// ACCESS bit 6 (NTAG213/215/216 8.5.7 and 8.8, MF0ULX1 8.5.7). Once set, CFG0 and CFG1 (AUTH0,
/// PROT, AUTHLIM, the mirror, the NFC counter bits) can never be written again; PWD and PACK stay
/// writable.
extension NFCMiFareTag {
    /// Sets CFGLCK as `confirmation` (made with
    /// ``NFCLockConfirmation/init(configurationLockOf:chip:firstProtectedPage:protectsReading:authenticationLimit:)``)
    /// describes, after checking it still describes the tag.
    ///
    /// Checks, each failing before any write: the UID and the kind of confirmation
    /// (``NFCReaderError/Code/confirmationMismatch``, without a command); then, after reading CFG0
    /// and CFG1, whether CFGLCK is set already (``NFCReaderError/Code/tagNotWritable``) and whether
    /// AUTH0, PROT and AUTHLIM are the ones confirmed (``NFCReaderError/Code/confirmationMismatch``).
    /// Then one WRITE of CFG1, its other bytes and bits as read, and a read-back.
    ///
    /// - Throws: ``NFCReaderError/Code/unsupportedFeature`` for a chip without PWD_AUTH
    ///   configuration pages or a reader without raw commands;
    ///   ``NFCReaderError/Code/authenticationRequired`` when CFG1 is password-protected and the
    ///   tag is not authenticated; the errors above and the write errors.
    public func lockConfiguration(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try confirmation.checkTag(identifier)
        guard confirmation.locksConfiguration, !confirmation.setsBlockLockBits else {
            throw NFCReaderError(.confirmationMismatch, "the confirmation is not one of a configuration lock")
        }
        guard reader.capabilities.supportsRawCommands else {
            throw NFCReaderError(
                .unsupportedFeature, "the reader \(reader.name) cannot write the configuration (no raw commands)")
        }
        guard let chip, let pages = chip.configurationPages else {
            throw NFCReaderError(
                .unsupportedFeature, "\(chip?.name ?? "this unidentified chip") has no password configuration")
        }
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await load([pages.cfg0, pages.cfg1], into: &cache)
        let memory = Type2Memory(bytes: cache.fullImage, chip: chip)
        guard let configuration = memory.configuration else {
            throw NFCReaderError(.tagResponseError, "CFG0 and CFG1 of \(chip.name) did not read")
        }
        guard !configuration.isConfigurationLocked else {
            throw NFCReaderError(.tagNotWritable, "CFGLCK is set already: the configuration is locked for good")
        }
        let current = try NFCLockConfirmation(
            configurationLockOf: identifier, chip: chip, firstProtectedPage: Int(configuration.auth0),
            protectsReading: configuration.isReadProtected, authenticationLimit: configuration.authenticationLimit)
        try confirmation.checkUnchanged(current, content: "the password configuration (AUTH0, PROT, AUTHLIM)")
        var locked = configuration
        locked.isConfigurationLocked = true
        let steps = [
            PlanStep(
                address: pages.cfg1, data: locked.cfg1,
                reason:
                    "CFG1 ACCESS \(Hex.byte(locked.access).uppercased())h: CFGLCK set, the configuration is locked for good"
            )
        ]
        try checkAuthentication(steps, memory: memory, purpose: "locking the configuration")
        let expected = try expectedImage(memory, steps)
        try await execute(steps, purpose: "locking the configuration")
        try await verify(steps, expected: expected, purpose: "locking the configuration")
    }
}
