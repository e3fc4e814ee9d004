import NFCSession
import TagMemory

/// Spending PWD_AUTH attempts, and saying so.
///
/// With AUTHLIM set, every refused PWD_AUTH counts, and at the limit the password is disabled for
/// good (NTAG213/215/216 8.8.2, MF0ULX1 8.6.2); a correct one starts the count afresh. The chip
/// does not tell how many attempts failed so far, so a message can say only how many remain at
/// most. Every message about a refused password says that the attempt was used.
enum PasswordAttempts {
    /// What `used` refused PWD_AUTH attempts did to the counter, as far as CFG1 tells (`limit`:
    /// AUTHLIM as read, nil when the configuration is read-protected).
    static func note(limit: Int?, used: Int = 1) -> String {
        let these = used == 1 ? "this attempt" : "these \(used) attempts"
        guard let limit else {
            return "The attempt limit is unknown (the configuration is read-protected): if one is set, "
                + "\(these) counted."
        }
        if limit == 0 { return "No attempt limit is set (AUTHLIM 0): failed attempts are not counted." }
        let left = max(0, limit - used)
        return "The attempt limit is \(limit) (AUTHLIM): \(these) counted, so at most \(left) "
            + (left == 1 ? "remains" : "remain")
            + " (the chip does not tell how many failed before); when they are used up the password is "
            + "disabled for good."
    }

    /// `error`, its reason followed by ``note(limit:used:)`` when the tag refused a password
    /// (``NFCSession/NFCReaderError/Code/authenticationFailed`` other than for a PACK that
    /// differs); other errors as they are (a lost
    /// or garbled answer to PWD_AUTH says itself that the attempt may have counted).
    static func counted(_ error: NFCReaderError, limit: Int?, used: Int = 1) -> NFCReaderError {
        // A PACK other than the one expected (password-acknowledge-mismatch) follows an accepted
        // password: no attempt was spent.
        guard error.code == .authenticationFailed else {
            return error
        }
        return NFCReaderError(
            error.code, error.reason + ".\nNothing was written to the tag. " + note(limit: limit, used: used),
            mayBeHalfWritten: error.mayBeHalfWritten)
    }

    /// Which password the operator says a protected tag holds (`--tag-holds old|new`).
    enum TagHolds: String, Sendable {
        case old
        case new
    }

    /// The password that opened a tag, and the PACK it answered.
    struct Opened: Sendable {
        var password: [UInt8]
        var acknowledge: [UInt8]
    }

    /// Refuses to send `password` in a PWD_AUTH when this machine's record of the tag's last
    /// password change says the tag holds another one (its check value differs from every
    /// password the tag may hold), unless the tag shows unlimited attempts (AUTHLIM 0): a wrong
    /// password would count toward losing the password for good, so nothing is sent.
    ///
    /// - Throws: ``ExitStatus/authenticationFailed`` naming the record's file.
    static func checkAgainstRecord(
        _ password: [UInt8], uid: [UInt8], status: NFCPasswordStatus, invocation: CommandInvocation
    ) throws(CommandLineError) {
        guard status.authenticationLimit != 0 else { return }
        let records = PasswordChangeRecords(io: invocation.io)
        guard let record = records.load(uid: uid), record.agrees(with: status) else { return }
        let holds = record.stage == .started ? [record.from, record.to] : [record.to]
        guard !holds.contains(where: { record.matches(password, $0) }) else { return }
        let file = records.path(uid: uid) ?? "the record"
        throw CommandLineError(
            .authenticationFailed,
            "this machine's record of the tag's last password change says the tag holds another password than the "
                + "one given (their check values differ), and with "
                + (status.authenticationLimit.map { "an attempt limit of \($0)" }
                    ?? "an attempt limit that cannot be read") + " a wrong one counts toward losing the password for "
                + "good. Nothing was sent to the tag. Give the password of that change; if the tag was changed "
                + "elsewhere since, remove the record (\(file))")
    }

    /// Opens a tag that `password set` finds protected, sending PWD_AUTH only with a password
    /// known to be the one the tag holds, unless failed attempts are not counted (AUTHLIM 0
    /// as read): then each of the two passwords may be tried, once.
    ///
    /// Known is: what the operator says (`--tag-holds`); else what this machine's record of the
    /// last change says (``PasswordChangeRecord``: the old password until the new one was
    /// checked, the new one after); else, with no record, the old password when the tag shows
    /// other settings than asked for (a change sets them only after the new password was
    /// checked, so a tag with other settings was not changed). Otherwise (the tag shows the
    /// settings asked for, or hides them) either password could be the one, and a wrong guess
    /// counts toward losing the password for good: nothing is sent, and the error names the
    /// option that settles it.
    static func openForChange(
        _ tag: NFCMiFareTag, status: NFCPasswordStatus, wanted: Type2PasswordSettings, givenOld: [UInt8]?,
        tagHolds: TagHolds?, record: PasswordChangeRecord?, invocation: CommandInvocation
    ) async throws -> Opened {
        let new = wanted.password
        let limit = status.authenticationLimit
        let settles =
            "Run again with --tag-holds old (the password was never changed) or --tag-holds new (an earlier "
            + "run changed it). Nothing was sent to the tag."
        var old = givenOld
        /// The old password: given, or typed at a prompt.
        func oldPassword() async throws -> [UInt8] {
            if let old { return old }
            let typed = try await PasswordInput.password(.old, invocation)
            old = typed
            return typed
        }
        // A record that disagrees with the tag (another settings than it set, on a tag that shows
        // them) is out of date: the tag was changed elsewhere since.
        let record = record.flatMap { record in record.agrees(with: status) ? record : nil }
        var candidates: [[UInt8]]
        if let tagHolds {
            candidates = [tagHolds == .new ? new : try await oldPassword()]
        } else if let record, let holds = record.stage == .started ? record.from : record.to,
            record.matches(new, holds), old == nil
        {
            candidates = [new]
        } else if let record, let holds = record.stage == .started ? record.from : record.to {
            let oldCandidate = try await oldPassword()
            let isNew = record.matches(new, holds)
            let isOld = record.matches(oldCandidate, holds)
            switch (isOld, isNew) {
            case (true, false): candidates = [oldCandidate]
            case (false, true): candidates = [new]
            case (true, true) where oldCandidate == new: candidates = [new]
            case (true, true):
                throw CommandLineError.usage(
                    "this machine's record of the tag's last password change cannot tell the old password from "
                        + "the new one (their check values are alike). " + settles)
            case (false, false):
                guard limit == 0 else {
                    throw CommandLineError(
                        .authenticationFailed,
                        "this machine's record of the tag's last password change (\(record.stage.rawValue)) says "
                            + "the tag holds neither the old password given nor the new one, and with "
                            + (limit.map { "an attempt limit of \($0)" } ?? "an attempt limit that cannot be read")
                            + " a wrong one counts. Nothing was sent to the tag. Give the password it holds, or "
                            + "--tag-holds old|new if the record is out of date (it was changed elsewhere)")
                }
                candidates = [oldCandidate, new]
            }
        } else if limit == 0 {
            // AUTHLIM 0: no attempt counts; each password once, the likelier first.
            candidates =
                showsProtection(wanted, status: status, chip: tag.chip)
                ? [new, try await oldPassword()] : [try await oldPassword(), new]
        } else if !showsProtection(wanted, status: status, chip: tag.chip), status.protection != .unknown {
            candidates = [try await oldPassword()]
        } else {
            throw CommandLineError.usage(
                "the tag shows the protection asked for already"
                    + (status.protection == .unknown ? " (or hides its settings)" : "")
                    + ", and this machine keeps no record of a change of its password: it may hold the old "
                    + "password (never changed) or the new one (an earlier run changed it), and with "
                    + (limit.map { "an attempt limit of \($0)" } ?? "an attempt limit that cannot be read")
                    + " a wrong one counts toward losing the password for good. " + settles)
        }
        var tried: [[UInt8]] = []
        for candidate in candidates where !tried.contains(candidate) {
            tried.append(candidate)
            do {
                // No PACK check: the PACK is written again and checked by the set that follows.
                let acknowledge = try await tag.authenticate(password: candidate, expectedPasswordAcknowledge: nil)
                return Opened(password: candidate, acknowledge: acknowledge)
            } catch {
                if error.code != .authenticationFailed { throw error }
            }
        }
        let what =
            tried.count == 1
            ? (tried.first == new ? "the tag refused the new password" : "the tag refused the old password")
                + " (not retried)"
            : "neither the old password nor the new one opened the tag (each tried once)"
        throw NFCReaderError(
            .authenticationFailed, what + ". Nothing was written to the tag. " + note(limit: limit, used: tried.count))
    }

    /// Whether the tag shows the protection `wanted` asks for: AUTH0, PROT and AUTHLIM as read;
    /// or, read-protected from a page at or before CFG0 so that they cannot be read, while
    /// `wanted` protects reading from such a page.
    static func showsProtection(_ wanted: Type2PasswordSettings, status: NFCPasswordStatus, chip: Type2Chip?)
        -> Bool
    {
        guard let chip, let pages = chip.configurationPages else { return false }
        let page = wanted.firstProtectedPage ?? chip.userPages.lowerBound
        switch status.protection {
        case .off: return false
        case .unknown: return wanted.protectsReading && page <= pages.cfg0
        case .from(let start, let readProtected):
            return start == page && readProtected == wanted.protectsReading
                && status.authenticationLimit == wanted.authenticationLimit
        }
    }

    /// Whether a password can be typed at a prompt.
    private static func canAsk(_ invocation: CommandInvocation) -> Bool {
        invocation.io.isTerminal(.input) && invocation.io.isTerminal(.error)
    }
}

extension NFCPasswordStatus {
    /// AUTH0, the first protected page, when the status shows it.
    var protectedPage: Int? {
        if case .from(let page, _) = protection { return page }
        return nil
    }

    /// PROT, when the status shows it.
    var readProtected: Bool? {
        if case .from(_, let readProtected) = protection { return readProtected }
        return nil
    }
}
