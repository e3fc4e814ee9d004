import NDEF
import NFCSession
import TagMemory

/// What a job does with one tag at one station: gives it a fresh row (write, verify, lock,
/// password), or finishes the row it holds, recording each step in the job's ledger around the
/// tag commands (write-ahead: the row bound to the tag before the first write, each step
/// announced before it is taken and recorded after it is verified).
struct ProvisioningTagRun: Sendable {
    /// The job.
    let job: ProvisioningJob
    /// The station's name.
    let station: String
    /// The tag, selected and identified.
    let tag: any NFCNDEFTag

    /// The tag's UID.
    var uid: [UInt8] { tag.identifier }

    /// The ledger.
    var ledger: any ProvisioningLedger { job.ledger }

    /// Gives the tag its row; true when a row was finished on it.
    func run() async -> Bool {
        let assignment: ProvisioningAssignment
        do {
            assignment = try await ledger.assign(uid: uid, station: station)
        } catch {
            return false
        }
        do {
            switch assignment {
            case .refuse(let reason, let doneRow):
                job.count { tally in
                    if doneRow == nil { tally.refusedTags += 1 } else { tally.alreadyDoneTags += 1 }
                }
                job.onEvent(.tagRefused(uid: uid, station: station, reason: reason, doneRow: doneRow))
                return false
            case .provision(let claim):
                return try await provision(claim)
            case .finish(let claim, let progress):
                return try await finish(claim, progress: progress)
            }
        } catch {
            // The ledger failed (the job stops), the claim was lost (its row stays bound to the
            // tag), or the ledger refused to bind the tag: the tag is not touched again.
            if error.code == .leaseLost {
                job.onEvent(
                    .rowInterrupted(
                        row: assignment.row ?? 0, uid: uid, station: station, reason: error.reason, canFinish: true))
            } else if error.code == .refusedEvent, await job.ledger.failure == nil {
                job.count { $0.refusedTags += 1 }
                job.onEvent(.tagRefused(uid: uid, station: station, reason: error.reason, doneRow: nil))
            }
            return false
        }
    }

    /// Writes a fresh row to the tag, then the steps after the write.
    private func provision(_ claim: ProvisioningClaim) async throws(ProvisioningError) -> Bool {
        let row = claim.row
        job.onEvent(.stationState(station: station, .writing(row: row)))
        guard let (message, digest) = try await build(claim) else { return false }
        var refusal = refusalBeforeWrite(mirror: message.mirror, secureMessage: message.secureMessageURL != nil)
        if refusal == nil, let keys = job.settings.genuineKeys { refusal = await genuineRefusal(keys) }
        if let refusal {
            try await ledger.giveBack(claim)
            job.count { $0.refusedTags += 1 }
            job.onEvent(.tagRefused(uid: uid, station: station, reason: refusal, doneRow: nil))
            return false
        }
        try await ledger.bind(claim, uid: uid, digest: digest)
        do {
            try await write(message, resuming: false)
        } catch {
            job.count { $0.refusedTags += error.mayBeHalfWritten ? 0 : 1 }
            if error.mayBeHalfWritten {
                try await interrupted(claim, "the write did not complete: \(error.reason)", cause: error)
            } else if error.code == .tagSizeTooSmall {
                // Nothing was written: the row goes to a larger tag, or fails when none can take it.
                let length = (try? message.message.encoded().count) ?? 0
                let failure = try await ledger.refusedAsTooLarge(
                    claim, uid: uid, length: length, reason: error.reason,
                    largestCapacity: job.settings.largestTagCapacity, refusalLimit: job.settings.sizeRefusalLimit)
                job.onEvent(.tagRefused(uid: uid, station: station, reason: error.reason, doneRow: nil))
                if let failure { job.onEvent(.rowFailed(row: row, station: station, reason: failure)) }
            } else {
                // Nothing was written: the row goes to another tag.
                try await ledger.refusedBeforeWrite(claim, uid: uid, reason: error.reason)
                job.onEvent(.tagRefused(uid: uid, station: station, reason: error.reason, doneRow: nil))
            }
            return false
        }
        return try await steps(claim, completed: [], recording: .written, resumed: false)
    }

    /// Finishes the row bound to this tag by an earlier attempt (`progress` says how far it
    /// came): compares the tag's message with the row's, then records it written or writes it
    /// again (``NFCMiFareTag/resumeWrite(_:)``), then takes the steps not yet taken.
    private func finish(
        _ claim: ProvisioningClaim, progress: ProvisioningState.RowStatus
    ) async throws(ProvisioningError) -> Bool {
        let row = claim.row
        job.onEvent(.stationState(station: station, .finishing(row: row)))
        guard let (message, digest) = try await build(claim) else { return false }
        guard progress.digest == nil || progress.digest == digest else {
            try await interrupted(claim, "the job's message for row \(row) is not the one started on this tag")
            return false
        }
        let current = progress.steps.contains(.written) ? nil : await currentDigest()
        switch progress.resumeAction(currentDigest: current) {
        case .markWritten:
            return try await steps(claim, completed: [], recording: .written, resumed: true)
        case .rewrite:
            try await ledger.bind(claim, uid: uid, digest: digest)
            do {
                try await write(message, resuming: true)
            } catch {
                try await interrupted(claim, "the write did not complete: \(error.reason)", cause: error)
                return false
            }
            return try await steps(claim, completed: [], recording: .written, resumed: true)
        case .continueSteps(let completed):
            // The tag was away meanwhile: it must still hold the row's message before the steps
            // that make it final. Before a lock, read back without fail; before a password step,
            // where a cut one may have left the pages read-protected, whenever it can be read (a
            // tag whose message was changed in between, or another tag with the same UID, is
            // never given the row's password as if it were done).
            let held = await heldMessage()
            let holdsRow: Bool? =
                switch held {
                case .read(let current): current == digest
                case .other: false
                case .unknown: nil
                }
            let mustRead = job.settings.locks && !completed.contains(.locked)
            if holdsRow == false || (mustRead && holdsRow != true) {
                try await interrupted(claim, "the tag no longer holds row \(row)'s message: not finished")
                return false
            }
            return try await steps(claim, completed: completed, recording: nil, resumed: true)
        }
    }

    /// Records `recording` (the step just verified, if any), then locks and sets the password as
    /// the settings ask (the ones not in `completed`), each announced to the ledger first, then
    /// records the row done: one ledger call per step boundary.
    private func steps(
        _ claim: ProvisioningClaim, completed: [ProvisioningState.Stage], recording: ProvisioningState.Stage?,
        resumed: Bool
    ) async throws(ProvisioningError) -> Bool {
        let row = claim.row
        let settings = job.settings
        var recording = recording
        if settings.locks && !completed.contains(.locked) {
            try await ledger.advance(claim, uid: uid, recording: recording, next: .lock)
            job.onEvent(.stationState(station: station, .locking(row: row)))
            do {
                try await lock()
            } catch {
                try await interrupted(claim, "written and verified, but not locked: \(error.reason)", cause: error)
                return false
            }
            job.count { $0.locked += 1 }
            recording = .locked
        }
        if let password = settings.password, !completed.contains(.password) {
            try await ledger.advance(claim, uid: uid, recording: recording, next: .password)
            job.onEvent(.stationState(station: station, .settingPassword(row: row)))
            do {
                try await setPassword(password, resumed: resumed)
            } catch let error as NFCReaderError {
                // Say exactly what happened: a cut password step leaves the tag unprotected or
                // protected by its own password (NFCMiFareTag.setPassword), never by another.
                let what =
                    error.mayBeHalfWritten
                    ? "written, but the password step did not complete (the tag is unprotected, or protected by "
                        + "its own password; bringing it back finishes it)"
                    : "written, but the password was not set (nothing of it was written)"
                try await interrupted(claim, "\(what): \(error.reason)", cause: error)
                return false
            } catch {
                try await interrupted(claim, "written, but the password was not set: \(error)")
                return false
            }
            job.count { $0.passwords += 1 }
            recording = .password
        }
        var outcome = [settings.sdm == nil ? "written" : "sdm"]
        if settings.locks { outcome.append("locked") }
        if settings.password != nil { outcome.append("password") }
        let text = outcome.joined(separator: "+")
        try await ledger.advance(claim, uid: uid, recording: recording, next: .done(outcome: text))
        job.count { $0.done += 1 }
        job.onEvent(.rowDone(row: row, uid: uid, station: station, outcome: text))
        return true
    }

    /// The row's message and digest, or nil after recording that it cannot be built.
    private func build(_ claim: ProvisioningClaim) async throws(ProvisioningError) -> (ProvisioningMessage, [UInt8])? {
        do {
            return try job.message(claim, uid: uid)
        } catch {
            if error.code == .crypto { throw error }
            try await ledger.cannotBuild(claim, reason: error.reason)
            job.onEvent(.rowFailed(row: claim.row, station: station, reason: error.reason))
            return nil
        }
    }

    /// Records `claim`'s row as interrupted on this tag and says so; `cause` tells whether
    /// bringing the tag back can finish it (it or the reader went away) or the tag refused.
    private func interrupted(
        _ claim: ProvisioningClaim, _ reason: String, cause: NFCReaderError? = nil
    ) async throws(ProvisioningError) {
        try await ledger.interrupted(claim, uid: uid, reason: reason)
        let transient: Set<NFCReaderError.Code> = [
            .tagConnectionLost, .readerUnavailable, .timeout, .cancelled, .tagResponseError,
        ]
        let canFinish = cause.map { transient.contains($0.code) } ?? false
        job.onEvent(
            .rowInterrupted(row: claim.row, uid: uid, station: station, reason: reason, canFinish: canFinish))
    }

    /// Why this tag cannot take a row at all, known without a command: a password the chip or
    /// the reader cannot set, a mirror the chip does not have.
    private func refusalBeforeWrite(mirror: Type2MirrorRequest?, secureMessage: Bool) -> String? {
        let type2 = tag as? NFCMiFareTag
        if secureMessage, ntag424 == nil {
            return "the job sets up NTAG 424 DNA secure messages, and this is \(tagName): it was not written"
        }
        if mirror != nil {
            guard let type2 else {
                return "the message sets up a UID or NFC counter mirror, which \(tagName) does not have: "
                    + "this tag was not written"
            }
            do {
                try type2.checkMirrorSupport()
            } catch {
                return "the message sets up a mirror: \(error.reason); this tag was not written"
            }
        }
        guard job.settings.password != nil else { return nil }
        guard let type2 else {
            return "the job sets a password, which \(tagName) does not have: this tag was not written"
        }
        do {
            try type2.checkPasswordSupport()
            return nil
        } catch {
            return "the job sets a password: \(error.reason); this tag was not written"
        }
    }

    /// The tag as named in refusals: `an NFC Forum Type 4 Tag`, `an NTAG 424 DNA`, `a Type 2 tag`.
    private var tagName: String {
        if tag is NFCMiFareTag { return "a Type 2 tag" }
        return tag.chipName.map { "an \($0)" } ?? "this tag"
    }

    /// The NTAG 424 DNA behind an ISO-DEP tag, for a job that sets up secure messages (its
    /// commands tell whether it is one); nil for other tags and jobs.
    private var ntag424: NFCNTAG424Tag? {
        guard job.settings.sdm != nil else { return nil }
        return NFCNTAG424Tag.commands(of: tag)
    }

    /// Why the tag is not taken as genuine (its originality signature, NTAG213/215/216 10.8,
    /// verifies under none of `keys`), or nil when it is: one READ_SIG, nothing written.
    private func genuineRefusal(_ keys: [NFCOriginalityKey]) async -> String? {
        let check: OriginalitySignatureCheck
        do {
            if let ntag = ntag424 {
                // An NTAG 424 DNA: Read_Sig (NT4H2421Gx 10.10.1) against the NXP NTAG 424 DNA key.
                try await ntag.selectApplication()
                check = try await ntag.checkOriginality(keys: keys + NFCOriginalityKey.nxpNTAG424Keys)
            } else if let type2 = tag as? NFCMiFareTag, type2.chip?.features.contains(.readSignature) == true {
                check = try await type2.checkOriginality(keys: keys)
            } else {
                return "the job takes only genuine tags, and this one has no originality signature to check: "
                    + "this tag was not written"
            }
        } catch {
            return "its originality signature could not be read (\(error.reason)): this tag was not written"
        }
        return check.isValid ? nil : "not genuine: originality signature \(check.summary); this tag was not written"
    }

    /// Writes `message` (and sets up its mirror); `resuming` reads the whole tag first and writes
    /// only what is missing.
    private func write(_ message: ProvisioningMessage, resuming: Bool) async throws(NFCReaderError) {
        if let url = message.secureMessageURL {
            try await setUpSecureMessages(url, fileData: message.secureMessageFileData)
            return
        }
        let formatted = try await formatClassicCard()
        guard let mirror = message.mirror else {
            do {
                if resuming {
                    try await tag.resumeWrite(message.message)
                } else {
                    try await tag.writeNDEF(message.message)
                }
            } catch {
                // A card formatted just now was changed, whatever the write did: the row stays
                // bound to it, and the next attempt finishes it.
                var changed = error
                changed.mayBeHalfWritten = changed.mayBeHalfWritten || formatted
                throw changed
            }
            return
        }
        guard let type2 = tag as? NFCMiFareTag else {
            throw NFCReaderError(.unsupportedFeature, "\(tagName) has no UID or NFC counter mirror")
        }
        if resuming {
            try await type2.resumeWrite(message.message, mirror: mirror)
        } else {
            try await type2.writeNDEF(message.message, mirror: mirror)
        }
    }

    /// A MIFARE Classic card in a job with keys: formatted for NDEF first when it is not
    /// (``NFCSession/NFCMiFareClassicTag/format(keys:confirmation:)``, the job being confirmed as
    /// a whole; a format cut part way leaves each sector with its old keys or the job's, and the
    /// next attempt finishes it). Other tags and jobs: nothing. Whether it formatted the card.
    private func formatClassicCard() async throws(NFCReaderError) -> Bool {
        guard let card = tag as? NFCMiFareClassicTag, let keys = job.settings.classicKeys else { return false }
        await card.useKeys(keys)
        guard try await card.ndefStatus().status == .notSupported else { return false }
        try await card.format(keys: keys, confirmation: try await card.prepareFormat(keys: keys))
        return true
    }

    /// Sets up NTAG 424 DNA secure messages with `url` and the tag's own keys, from the factory
    /// keys or the job's previous master key's
    /// (``NFCSession/NFCNTAG424Tag/setUpSDM(_:from:confirmation:progress:)``, which finishes an
    /// interrupted set-up; the job was confirmed as a whole). Past the application's selection any
    /// failure may leave the set-up part way: the error says the tag may be half-written.
    private func setUpSecureMessages(_ url: String, fileData: [UInt8]?) async throws(NFCReaderError) {
        guard let ntag = ntag424, let sdm = job.settings.sdm else {
            throw NFCReaderError(.tagNotSupported, "NTAG 424 DNA secure messages need an NTAG 424 DNA and a master key")
        }
        let plan = try sdm.plan(url: url, uid: uid, fileData: fileData)
        let from = try sdm.previousKeys(uid: uid)
        try await ntag.selectApplication()
        do {
            try await ntag.setUpSDM(plan, from: from, confirmation: try ntag.prepareSDMSetUp(plan, from: from))
        } catch {
            var partWay = error
            partWay.mayBeHalfWritten = true
            throw partWay
        }
    }

    /// The SHA-256 of the message the tag holds, or nil when it holds none or cannot be read; nil
    /// too for a job of secure messages, whose tags show another URL at every read: the set-up
    /// run again tells what is left.
    private func currentDigest() async -> [UInt8]? {
        guard case .read(let digest) = await heldMessage() else { return nil }
        return digest
    }

    /// What reading the tag's message told.
    private enum HeldMessage {
        /// The SHA-256 of the message, as written.
        case read([UInt8])
        /// The tag holds no message, or one that does not decode: not the row's.
        case other
        /// The tag could not tell: its pages are read-protected (a cut password step may have
        /// set PROT), the read failed, or the job's tags mirror SDM data.
        case unknown
    }

    /// Reads the tag's message as it was written (the text a UID or counter mirror shows put
    /// back to its placeholder).
    private func heldMessage() async -> HeldMessage {
        guard job.settings.sdm == nil else { return .unknown }
        do {
            let message = try await tag.readNDEFAsWritten()
            return .read(try ProvisioningDigest.sha256(try message.encoded()))
        } catch let error as NFCReaderError {
            switch error.code {
            case .zeroLengthMessage, .invalidMessage: return .other
            default: return .unknown
            }
        } catch {
            return .unknown
        }
    }

    /// Makes the tag read-only (NFC Forum Type 2 Tag 1.1, 6.4.4; Type 4 Tag 3.0, 5.5.9 write
    /// access FFh), under the confirmation the job was given. A tag found locked already (an
    /// earlier attempt locked it before the journal recorded it) counts as locked.
    private func lock() async throws(NFCReaderError) {
        if let card = tag as? NFCMiFareClassicTag, let keys = job.settings.classicKeys { await card.useKeys(keys) }
        do {
            try await tag.writeLock(try await tag.prepareLock())
        } catch {
            guard error.code == .tagNotWritable, !error.mayBeHalfWritten else { throw error }
            guard try await tag.ndefStatus().status == .readOnly else { throw error }
        }
    }

    /// Sets the tag's own password (``NFCSession/NFCMiFareTag/setPassword(_:progress:)``: protection starts
    /// only after the new password answered PWD_AUTH, so a cut leaves the tag unprotected or
    /// protected by its derived password). A tag found protected already is tried with one
    /// PWD_AUTH of its derived password, and only on a resume (an earlier attempt may have set it
    /// before the journal recorded it); a fresh tag protected by someone else is not tried. When
    /// that opens it but AUTH0, PROT or AUTHLIM differ from the job's, the password is set again.
    private func setPassword(_ plan: ProvisioningPasswordPlan, resumed: Bool) async throws {
        guard let type2 = tag as? NFCMiFareTag else {
            throw NFCReaderError(.unsupportedFeature, "\(tagName) has no NTAG password")
        }
        let settings = try plan.settings(for: uid)
        let status = try await type2.passwordStatus()
        guard status.isProtected else {
            try await type2.setPassword(settings)
            return
        }
        guard resumed else {
            throw NFCReaderError(
                .authenticationRequired, "the tag has a password already (\(status)): it was left as it is")
        }
        try await type2.authenticate(
            password: settings.password, expectedPasswordAcknowledge: settings.passwordAcknowledge)
        let wanted = NFCPasswordStatus.Protection.from(
            page: plan.firstProtectedPage ?? type2.chip?.userPages.lowerBound ?? 4, readProtected: plan.protectsReading)
        let now = try await type2.passwordStatus()
        if now.protection != wanted || now.authenticationLimit != plan.authenticationLimit {
            try await type2.setPassword(settings)
        }
    }
}

extension ProvisioningAssignment {
    /// The row assigned, if any.
    var row: Int? {
        switch self {
        case .provision(let claim), .finish(let claim, _): claim.row
        case .refuse: nil
        }
    }
}
