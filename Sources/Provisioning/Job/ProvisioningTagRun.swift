import NDEF
import NFCSession
import TagMemory

/// What a job does with one tag at one station: gives it a fresh row (write, verify, lock,
/// password), or finishes the row it holds, recording each step in the journal around the tag
/// commands (write-ahead: `writing` before the first write, each step after it is verified).
struct ProvisioningTagRun: Sendable {
    /// The job.
    let job: ProvisioningJob
    /// The station's name.
    let station: String
    /// The tag, selected and identified.
    let tag: NFCTag

    /// The tag's UID.
    var uid: [UInt8] { tag.identifier }

    /// Gives the tag its row; true when a row was finished on it.
    func run() async -> Bool {
        let assignment: ProvisioningJob.Assignment
        do {
            assignment = try await job.assign(uid: uid, station: station)
        } catch {
            return false
        }
        do {
            switch assignment {
            case .refuse(let reason, let doneRow):
                job.onEvent(.tagRefused(uid: uid, station: station, reason: reason, doneRow: doneRow))
                return false
            case .provision(let row):
                return try await provision(row)
            case .finish(let row):
                return try await finish(row)
            }
        } catch {
            // The journal failed: the job stops, and the tag is not touched again.
            return false
        }
    }

    /// Writes a fresh `row` to the tag, then the steps after the write.
    private func provision(_ row: Int) async throws(ProvisioningError) -> Bool {
        job.onEvent(.stationState(station: station, .writing(row: row)))
        guard let (message, digest) = try await build(row) else { return false }
        if let refusal = refusalBeforeWrite() {
            try await job.giveBack(row: row, station: station)
            job.onEvent(.tagRefused(uid: uid, station: station, reason: refusal, doneRow: nil))
            return false
        }
        try await job.willWrite(row: row, uid: uid, digest: digest)
        do {
            try await write(message, resuming: false)
        } catch {
            if error.mayBeHalfWritten {
                try await interrupted(row, "the write did not complete: \(error.reason)", cause: error)
            } else if error.code == .tagSizeTooSmall {
                // Nothing was written: the row goes to a larger tag, or fails when none can take it.
                let length = (try? message.encoded().count) ?? 0
                let failure = try await job.refusedAsTooLarge(
                    row: row, uid: uid, length: length, reason: error.reason, station: station)
                job.onEvent(.tagRefused(uid: uid, station: station, reason: error.reason, doneRow: nil))
                if let failure { job.onEvent(.rowFailed(row: row, station: station, reason: failure)) }
            } else {
                // Nothing was written: the row goes to another tag.
                try await job.refusedBeforeWrite(row: row, uid: uid, reason: error.reason, station: station)
                job.onEvent(.tagRefused(uid: uid, station: station, reason: error.reason, doneRow: nil))
            }
            return false
        }
        try await job.completed(.written, row: row, uid: uid)
        return try await steps(row, completed: [.written], resumed: false)
    }

    /// Finishes `row`, bound to this tag by an earlier attempt: compares the tag's message with
    /// the row's, then records it written or writes it again (``NFCMiFareTag/resumeWrite(_:)``),
    /// then takes the steps not yet taken.
    private func finish(_ row: Int) async throws(ProvisioningError) -> Bool {
        job.onEvent(.stationState(station: station, .finishing(row: row)))
        guard let (message, digest) = try await build(row) else { return false }
        let status = await job.status(of: row)
        guard status.digest == nil || status.digest == digest else {
            try await interrupted(row, "the job's message for row \(row) is not the one started on this tag")
            return false
        }
        let current = status.steps.contains(.written) ? nil : await currentDigest()
        switch job.journal.state.resumeAction(row: row, currentDigest: current) {
        case .markWritten:
            try await job.completed(.written, row: row, uid: uid)
            return try await steps(row, completed: [.written], resumed: true)
        case .rewrite:
            try await job.willWrite(row: row, uid: uid, digest: digest)
            do {
                try await write(message, resuming: true)
            } catch {
                try await interrupted(row, "the write did not complete: \(error.reason)", cause: error)
                return false
            }
            try await job.completed(.written, row: row, uid: uid)
            return try await steps(row, completed: [.written], resumed: true)
        case .continueSteps(let completed):
            // Before a lock, the tag must still hold the row's message (it was away meanwhile).
            let verifies = job.settings.locks && !completed.contains(.locked)
            if verifies, await currentDigest() != digest {
                try await interrupted(row, "the tag no longer holds row \(row)'s message: not finished")
                return false
            }
            return try await steps(row, completed: completed, resumed: true)
        }
    }

    /// Locks and sets the password as the settings ask (the ones not in `completed`), then
    /// records the row done.
    private func steps(
        _ row: Int, completed: [ProvisioningState.Stage], resumed: Bool
    ) async throws(ProvisioningError) -> Bool {
        let settings = job.settings
        if settings.locks && !completed.contains(.locked) {
            job.onEvent(.stationState(station: station, .locking(row: row)))
            do {
                try await lock()
            } catch {
                try await interrupted(row, "written and verified, but not locked: \(error.reason)", cause: error)
                return false
            }
            try await job.completed(.locked, row: row, uid: uid)
        }
        if let password = settings.password, !completed.contains(.password) {
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
                try await interrupted(row, "\(what): \(error.reason)", cause: error)
                return false
            } catch {
                try await interrupted(row, "written, but the password was not set: \(error)")
                return false
            }
            try await job.completed(.password, row: row, uid: uid)
        }
        var outcome = ["written"]
        if settings.locks { outcome.append("locked") }
        if settings.password != nil { outcome.append("password") }
        let text = outcome.joined(separator: "+")
        try await job.finished(row: row, uid: uid, outcome: text, station: station)
        job.onEvent(.rowDone(row: row, uid: uid, station: station, outcome: text))
        return true
    }

    /// The row's message and digest, or nil after recording that it cannot be built.
    private func build(_ row: Int) async throws(ProvisioningError) -> (NFCNDEFMessage, [UInt8])? {
        do {
            let (message, digest) = try await job.message(row: row, uid: uid)
            return (message, digest)
        } catch {
            if error.code == .crypto { throw error }
            try await job.cannotBuild(row: row, reason: error.reason, station: station)
            job.onEvent(.rowFailed(row: row, station: station, reason: error.reason))
            return nil
        }
    }

    /// Records `row` as interrupted on this tag and says so; `cause` tells whether bringing the
    /// tag back can finish it (it or the reader went away) or the tag refused.
    private func interrupted(_ row: Int, _ reason: String, cause: NFCReaderError? = nil) async throws(ProvisioningError)
    {
        try await job.interrupted(row: row, uid: uid, reason: reason, station: station)
        let transient: Set<NFCReaderError.Code> = [
            .tagConnectionLost, .readerUnavailable, .timeout, .cancelled, .tagResponseError,
        ]
        let canFinish = cause.map { transient.contains($0.code) } ?? false
        job.onEvent(.rowInterrupted(row: row, uid: uid, station: station, reason: reason, canFinish: canFinish))
    }

    /// Why this tag cannot take a row at all, known without a command: a password the chip or
    /// the reader cannot set.
    private func refusalBeforeWrite() -> String? {
        guard job.settings.password != nil else { return nil }
        switch tag {
        case .iso7816:
            return "the job sets a password, which Type 4 tags do not have: this tag was not written"
        case .miFare(let type2):
            do {
                try type2.checkPasswordSupport()
                return nil
            } catch {
                return "the job sets a password: \(error.reason); this tag was not written"
            }
        }
    }

    /// Writes `message`; `resuming` reads the whole tag first and writes only what is missing.
    private func write(_ message: NFCNDEFMessage, resuming: Bool) async throws(NFCReaderError) {
        switch tag {
        case .miFare(let type2):
            if resuming { try await type2.resumeWrite(message) } else { try await type2.writeNDEF(message) }
        case .iso7816(let type4):
            if resuming { try await type4.resumeWrite(message) } else { try await type4.writeNDEF(message) }
        }
    }

    /// The SHA-256 of the message the tag holds, or nil when it holds none or cannot be read.
    private func currentDigest() async -> [UInt8]? {
        let message: NFCNDEFMessage
        do {
            switch tag {
            case .miFare(let type2): message = try await type2.readNDEF()
            case .iso7816(let type4): message = try await type4.readNDEF()
            }
            return try ProvisioningDigest.sha256(try message.encoded())
        } catch {
            return nil
        }
    }

    /// Makes the tag read-only (NFC Forum Type 2 Tag 1.1, 6.4.4; Type 4 Tag 3.0, 5.5.9 write
    /// access FFh), under the confirmation the job was given. A tag found locked already (an
    /// earlier attempt locked it before the journal recorded it) counts as locked.
    private func lock() async throws(NFCReaderError) {
        do {
            switch tag {
            case .miFare(let type2): try await type2.writeLock(try await type2.prepareLock())
            case .iso7816(let type4): try await type4.writeLock(try await type4.prepareLock())
            }
        } catch {
            guard error.code == .tagNotWritable, !error.mayBeHalfWritten else { throw error }
            let status: NDEFTagStatus
            switch tag {
            case .miFare(let type2): status = try await type2.ndefStatus()
            case .iso7816(let type4): status = try await type4.ndefStatus()
            }
            guard status.status == .readOnly else { throw error }
        }
    }

    /// Sets the tag's own password (``NFCSession/NFCMiFareTag/setPassword(_:)``: protection starts
    /// only after the new password answered PWD_AUTH, so a cut leaves the tag unprotected or
    /// protected by its derived password). A tag found protected already is tried with one
    /// PWD_AUTH of its derived password, and only on a resume (an earlier attempt may have set it
    /// before the journal recorded it); a fresh tag protected by someone else is not tried. When
    /// that opens it but AUTH0, PROT or AUTHLIM differ from the job's, the password is set again.
    private func setPassword(_ plan: ProvisioningPasswordPlan, resumed: Bool) async throws {
        guard case .miFare(let type2) = tag else {
            throw NFCReaderError(.unsupportedFeature, "Type 4 tags have no NTAG password")
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
        try await type2.authenticate(password: settings.password, expectedAcknowledge: settings.passwordAcknowledge)
        let wanted = NFCPasswordStatus.Protection.from(
            page: plan.firstProtectedPage ?? type2.chip?.userPages.lowerBound ?? 4, readProtected: plan.protectsReading)
        let now = try await type2.passwordStatus()
        if now.protection != wanted || now.authenticationLimit != plan.authenticationLimit {
            try await type2.setPassword(settings)
        }
    }
}
