import HexText
import NFCWireFormat
import TagMemory

/// Making the NDEF file read-only for good (NFC Forum Type 4 Tag 3.0, 5.5.8: transition from
/// READ/WRITE to READ-ONLY), behind a confirmation of tag, content and plan as for Type 2 tags.
extension NFCISO7816Tag {
    /// The tag state a lock is planned from.
    struct LockState {
        var opened: OpenedNDEF
        var plan: TagWritePlan
        var confirmation: NFCLockConfirmation
    }

    /// Reads the CC file and the NDEF file and makes the confirmation a lock needs, without
    /// writing anything: show its ``NFCLockConfirmation/code`` and the plan, and pass it (or the
    /// code) to ``writeLock(_:)``.
    ///
    /// The plan is TagMemory's ``TagMemory/Type4CapabilityContainer/lockPlan()``: one UPDATE BINARY of the
    /// CC file (`E103`) writing `FF` (no write access, T4T 3.0 5.1.2) at the NDEF file's write
    /// access byte, offset `0E` (`10` after an Extended NDEF File Control TLV, version 3.0).
    /// Many tags refuse it (see ``writeLock(_:)``).
    ///
    /// Commands: SELECT of the NDEF Tag Application, SELECT and READ BINARY of the CC file, SELECT
    /// of the NDEF file, READ BINARY of its length and message.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotWritable`` when the write access is already `FF`;
    ///   ``NFCReaderError/Code/tagNotSupported`` without NDEF Tag Application or CC, or when the
    ///   CC grants no read access; the read errors of ``readNDEF()``.
    public func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation {
        try await beginOperation()
        defer { endOperation() }
        return try await lockState().confirmation
    }

    /// Makes the NDEF file read-only as `confirmation` describes, after checking it still
    /// describes the tag.
    ///
    /// Checks, in order, each failing before any write: the UID
    /// (``NFCReaderError/Code/confirmationMismatch``, without a command), then after a fresh read
    /// whether the write access is already `FF` (``NFCReaderError/Code/tagNotWritable``), then the
    /// digest of CC, NDEF file and plan (``NFCReaderError/Code/confirmationMismatch``: the
    /// content changed). Then the UPDATE BINARY and a read-back (see ``writeLock(code:)``).
    public func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try confirmation.checkTag(identifier)
        let state = try await lockState()
        try confirmation.checkUnchanged(state.confirmation, content: "the tag's CC or NDEF file")
        try await performLock(state)
    }

    /// Makes the NDEF file read-only when `code` is the code ``prepareLock()`` gives for the tag
    /// now.
    ///
    /// After SELECT of the CC file and the UPDATE BINARY of the plan, the CC file is read back:
    /// it must hold what was read with the write access byte `FF`, else
    /// ``NFCReaderError/Code/tagUpdateFailure`` (half-written).
    ///
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` when `code` is not six digits or not
    ///   this tag's code (no write); ``NFCReaderError/Code/tagNotWritable`` when the tag refuses
    ///   the UPDATE BINARY of its CC file (a status word such as `6982` security status not
    ///   satisfied or `6A82`): many Type 4 tags do (an NTAG 424 DNA changes access rights only
    ///   with its proprietary ChangeFileSettings), and nothing was written;
    ///   ``NFCReaderError/Code/tagUpdateFailure`` for `6581` (memory failure), a garbled answer
    ///   or a read-back without write access `FF`; ``NFCReaderError/Code/tagConnectionLost``
    ///   (half-written once the UPDATE BINARY was sent) when the tag leaves: it then reads as
    ///   writable as before or as read-only (``queryNDEFStatus()`` tells), and the lock can be
    ///   prepared and written again.
    public func writeLock(code: String) async throws(NFCReaderError) {
        guard let wanted = NFCLockConfirmation.normalizedCode(code) else {
            throw NFCReaderError(.confirmationMismatch, "a lock code has six digits, as 123-456")
        }
        try await beginOperation()
        defer { endOperation() }
        let state = try await lockState()
        guard state.confirmation.code == wanted else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the code does not match this tag and its content: prepare the lock again to see the current code")
        }
        try await performLock(state)
    }

    /// Reads the CC and the NDEF file, and plans the lock.
    func lockState() async throws(NFCReaderError) -> LockState {
        let opened = try await openNDEF()
        let cc = opened.capabilityContainer
        guard cc.ndefStatus.status != .notSupported else {
            throw NFCReaderError(
                .tagNotSupported,
                "the CC grants no NDEF access (read \(cc.ndefFile.readAccess), write \(cc.ndefFile.writeAccess))")
        }
        let plan: TagWritePlan
        do {
            plan = try cc.lockPlan()
        } catch {
            throw NFCReaderError(planning: error, "cannot plan the lock")
        }
        guard !plan.steps.isEmpty else {
            throw NFCReaderError(
                .tagNotWritable, "the NDEF file is already read-only for good: write access FF (T4T 3.0, 5.1.2)")
        }
        let file = try await readNDEFFile(opened)
        let confirmation = try NFCLockConfirmation(
            type4UID: identifier, capabilityContainer: opened.capabilityContainerImage, ndefFile: file, plan: plan,
            messageLength: max(0, file.count - cc.messageLengthFieldSize))
        return LockState(opened: opened, plan: plan, confirmation: confirmation)
    }

    /// SELECTs the CC file, sends the plan's UPDATE BINARY, and reads the CC file back.
    func performLock(_ state: LockState) async throws(NFCReaderError) {
        var expected = state.opened.capabilityContainerImage
        for step in state.plan.steps {
            let range = step.address..<(step.address + step.data.count)
            guard step.file == Type4CapabilityContainer.fileIdentifier, step.address >= 0,
                range.upperBound <= expected.count
            else {
                throw NFCReaderError(.invalidParameter, "the lock plan writes outside the CC file as read")
            }
            expected.replaceSubrange(range, with: step.data)
        }
        try await selectFile(Type4CapabilityContainer.fileIdentifier, majorVersion: state.opened.majorVersion)
        for (index, step) in state.plan.steps.enumerated() {
            try await updateCapabilityContainer(step, index: index)
        }
        var read: [UInt8] = []
        do {
            // In pieces of at most MLe (T4T 3.0, 5.1) and the reader's frame.
            let piece = max(1, min(state.opened.capabilityContainer.maximumResponseDataSize, responseDataBudget))
            while read.count < expected.count {
                let length = min(piece, expected.count - read.count)
                let data = try await readBinary(offset: read.count, length: length, what: "the CC file")
                guard !data.isEmpty else { break }
                read += data
            }
        } catch {
            throw NFCReaderError(
                error.code == .tagConnectionLost ? .tagConnectionLost : .tagUpdateFailure,
                "the lock's UPDATE BINARY was accepted but the CC file could not be read back: \(error.reason)",
                mayBeHalfWritten: true)
        }
        guard read == expected else {
            let access =
                read.indices.contains(state.opened.capabilityContainer.writeAccessOffset)
                ? Hex.bytes([read[state.opened.capabilityContainer.writeAccessOffset]]) : "missing"
            throw NFCReaderError(
                .tagUpdateFailure,
                "the tag accepted the lock but its CC file reads back differently (write access \(access), "
                    + "not FF): the NDEF file may still be writable",
                mayBeHalfWritten: true)
        }
    }

    /// One UPDATE BINARY of the lock plan on the selected CC file.
    private func updateCapabilityContainer(_ step: PlanStep, index: Int) async throws(NFCReaderError) {
        let command: Type4Command
        do {
            command = try Type4Command.updateBinary(step)
        } catch {
            throw NFCReaderError(planning: error, "the lock's UPDATE BINARY")
        }
        let response: Type4Response
        do {
            response = try await transmit(command)
        } catch {
            switch error.code {
            case .tagConnectionLost:
                throw NFCReaderError(
                    .tagConnectionLost, "the tag stopped answering during the lock's UPDATE BINARY: \(error.reason)",
                    mayBeHalfWritten: true)
            case .tagResponseError:
                throw NFCReaderError(
                    .tagUpdateFailure, "garbled answer to the lock's UPDATE BINARY: \(error.reason)",
                    mayBeHalfWritten: true)
            default:
                throw NFCReaderError(
                    error.code, "the lock's UPDATE BINARY: \(error.reason)", mayBeHalfWritten: index > 0)
            }
        }
        guard response.isSuccess else {
            if response.status == .memoryFailure {
                throw NFCReaderError(
                    .tagUpdateFailure, "the tag failed to write its CC file (\(response.status))",
                    mayBeHalfWritten: true)
            }
            throw NFCReaderError(
                .tagNotWritable,
                "the tag refused to make its NDEF file read-only (UPDATE BINARY of the CC file: \(response.status)); "
                    + "many Type 4 tags refuse it (an NTAG 424 DNA, for example, changes access rights only with its "
                    + "proprietary ChangeFileSettings): the NDEF file stays writable",
                mayBeHalfWritten: index > 0)
        }
    }
}
