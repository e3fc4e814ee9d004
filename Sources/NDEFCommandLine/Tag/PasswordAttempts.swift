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
        // A PACK other than the one expected follows an accepted password: no attempt was spent.
        guard error.code == .authenticationFailed, !error.reason.hasPrefix("the tag accepted the password") else {
            return error
        }
        return NFCReaderError(
            error.code, error.reason + ".\nNothing was written to the tag. " + note(limit: limit, used: used),
            mayBeHalfWritten: error.mayBeHalfWritten)
    }

    /// Opens a tag that `password set` finds protected: with the new password first when the tag
    /// shows the protection asked for (an earlier run may have finished, or been cut after its
    /// last write), then with the old one (given, or typed at a prompt); one PWD_AUTH per
    /// distinct candidate at most, none after the password is disabled (NAK 4h).
    ///
    /// A run cut anywhere leaves the tag protected by the old password, unprotected, or protected
    /// by the new one with the settings asked for (``NFCSession/NFCMiFareTag/setPassword(_:)``),
    /// so running the same command again finds its way in.
    static func openForChange(
        _ tag: NFCMiFareTag, status: NFCPasswordStatus, wanted: Type2PasswordSettings, givenOld: [UInt8]?,
        invocation: CommandInvocation
    ) async throws {
        var tried: [[UInt8]] = []
        let limit = status.authenticationLimit
        /// One PWD_AUTH with `password` unless it was tried: whether the tag accepted it.
        func opens(_ password: [UInt8]) async throws -> Bool {
            guard !tried.contains(password) else { return false }
            tried.append(password)
            do {
                // No PACK check: the PACK is written again and checked by the set that follows.
                try await tag.authenticate(password: password, expectedAcknowledge: nil)
                return true
            } catch {
                if error.code == .authenticationFailed { return false }
                throw error
            }
        }
        if showsProtection(wanted, status: status, chip: tag.chip) {
            if try await opens(wanted.password) { return }
            if givenOld == nil, !canAsk(invocation) {
                throw NFCReaderError(
                    .authenticationFailed,
                    "the tag shows the protection asked for, but the new password did not open it and no old "
                        + "password was given. Nothing was written to the tag. " + note(limit: limit))
            }
        }
        let old: [UInt8]
        if let givenOld { old = givenOld } else { old = try await PasswordInput.password(.old, invocation) }
        if try await opens(old) { return }
        let what =
            tried.count == 1
            ? "the tag refused the old password (not retried)"
            : tried.contains(old) && old != wanted.password
                ? "neither the new password nor the old one opened the tag (each tried once)"
                : "the old password is the new one, which the tag refused already (not retried)"
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
