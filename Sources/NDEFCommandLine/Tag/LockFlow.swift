import CommandLineKit
import HexText
import NDEF
import NFCSession
import TagMemory

/// The confirmation rules of making a tag read-only for good (NFC Forum Type 2 Tag 1.1, 6.4.4),
/// shared by `lock` and `write --lock`.
///
/// The session sums up the tag, its content and the lock plan in a 6-digit code
/// (``NFCSession/NFCLockConfirmation``). The lock goes ahead only when:
/// - `--confirm CODE` gives the code of this tag as it is now (checked by the session against a
///   fresh read), or
/// - a person at a terminal (standard input and standard error) types the code back.
///
/// Anything else refuses with ``ExitStatus/confirmationMismatch`` before any write.
enum LockFlow {
    static let confirm = OptionSpec.option(
        "confirm",
        value: "code",
        help: "Lock without asking when <code> is the lock code of this tag and its content (123-456)."
    )

    /// The code given with `--confirm`, checked for its form (six digits).
    static func code(_ values: ParsedValues) throws(CommandLineError) -> String? {
        guard let text = values.value(confirm.long) else { return nil }
        guard let code = NFCLockConfirmation.normalizedCode(text) else {
            throw .invalidValue(text, for: confirm, reason: "a lock code has six digits, as 123-456")
        }
        return code
    }

    /// Locks `tag` as `confirmation` describes, once confirmed.
    ///
    /// - Parameters:
    ///   - code: the code given with `--confirm`, if any.
    ///   - again: the command line that locks with the code, shown when the lock is refused.
    /// - Throws: ``CommandLineError`` with ``ExitStatus/confirmationMismatch`` when nobody
    ///   confirmed; the session's errors (a wrong `--confirm` code is
    ///   ``NFCSession/NFCReaderError/Code/confirmationMismatch``).
    static func lock(
        _ tag: any NFCNDEFTag, confirmation: NFCLockConfirmation, code: String?, console: TagConsole, again: String
    ) async throws {
        if let code {
            try await tag.writeLock(try confirmation.confirmed(byCode: code))
            return
        }
        let question =
            "Locking is irreversible: the tag becomes read-only for good.\n"
            + "Type the code \(confirmation.code) to lock tag \(UIDText.description(confirmation.uid)): "
        guard let answer = await console.ask(question) else {
            throw CommandLineError(
                .confirmationMismatch,
                "lock refused: locking is irreversible and needs a confirmation; no terminal to ask on. "
                    + "To lock this tag as it is now, run:\n  \(again)")
        }
        guard NFCLockConfirmation.normalizedCode(answer) == confirmation.code else {
            throw CommandLineError(
                .confirmationMismatch, "lock refused: the code typed is not \(confirmation.code); nothing was written")
        }
        try await tag.writeLock(confirmation)
    }

    /// The failure of a lock that did not complete, with the command that locks the tag next.
    ///
    /// When nothing was written (the tag left, or none came, before the first write) the code
    /// still stands for the tag: the command shown has `--confirm CODE` when `code` (given with
    /// `--confirm`, or prepared in this run) is known. Once part of the lock may be written, the
    /// code has changed with it (``NFCSession/NFCLockConfirmation``: the lock state is part of
    /// it, and preparing again plans only what is missing), so the command shown has no
    /// `--confirm`: run where nobody can type, it refuses with the new code's command.
    static func failure(_ error: NFCReaderError, arguments: [String], code: String?) -> CommandLineError {
        if error.mayBeHalfWritten || error.code == .tagUpdateFailure {
            let again =
                lockCommand(arguments, code: nil)
                + "\n(part of the lock may be written, which changes the lock code: without --confirm the command "
                + "shows the new code, or asks for it on a terminal)"
            return TagFailure.error(error, while: "locking the tag", resume: again, locking: true)
        }
        var failure = TagFailure.error(error, while: "locking the tag", locking: true)
        if let code, [.timeout, .tagConnectionLost, .multipleTagsFound].contains(error.code) {
            failure.message += "\nThe lock code still stands; to lock the tag:\n  " + lockCommand(arguments, code: code)
        }
        return failure
    }

    /// `ndeftool lock --reader URL --confirm 123-456`: the lock command for the reader and wait
    /// that `arguments` name, with the code when given.
    static func lockCommand(_ arguments: [String], code: String?) -> String {
        RepeatCommand.line(
            arguments, command: ["lock"], keeping: ["--reader", "--wait", "--keys-file"],
            adding: code.map { ["--confirm", $0] } ?? [])
    }
}

/// The confirmation of `password set --lock-config`: CFGLCK is permanent (NTAG213/215/216 8.5.7),
/// so it follows ``LockFlow``'s rules with the same `--confirm` option and code form. The code
/// is ``NFCSession/NFCLockConfirmation``'s, over the tag and the protection frozen (AUTH0, PROT,
/// AUTHLIM), made before anything is written; a refusal writes nothing.
enum ConfigurationLockFlow {
    /// Returns when `confirmation` is confirmed: `code` (from `--confirm`) is its code, or a person
    /// at a terminal typed it back.
    ///
    /// - Parameter again: the command line with `--confirm` and the code, shown when refused.
    /// - Throws: ``ExitStatus/confirmationMismatch`` otherwise.
    static func confirm(
        _ confirmation: NFCLockConfirmation, code: String?, console: TagConsole, again: String
    ) async throws(CommandLineError) {
        try await ConfirmationPrompt(
            refusal: "configuration lock refused", standsFor: "this tag and these settings",
            nothingDone: "nothing was written", whyAsked: "it is irreversible and needs a confirmation",
            warning: "Locking the configuration (CFGLCK) is irreversible: AUTH0, PROT and the attempt limit can never "
                + "change again, and the protection can never be removed.",
            action: "lock it on tag", rerun: "set the password and lock the configuration"
        ).confirm(confirmation, code: code, console: console, again: again)
    }
}

/// The words of one irreversible step's confirmation, and the rules: `--confirm CODE` must be
/// the confirmation's code, or a person at a terminal types it back; anything else is refused
/// with ``ExitStatus/confirmationMismatch`` before any change.
struct ConfirmationPrompt {
    /// `configuration lock refused`.
    var refusal: String
    /// What the code stands for: `this tag and these settings`.
    var standsFor: String
    /// `nothing was written`.
    var nothingDone: String
    /// Why a confirmation is needed: `it is irreversible and needs a confirmation`.
    var whyAsked: String
    /// The warning a person reads before typing the code.
    var warning: String
    /// `lock it on tag`: what typing the code does, before the UID.
    var action: String
    /// `set the password and lock the configuration`: what the command shown does.
    var rerun: String

    /// Returns when `confirmation` is confirmed by `code` (from `--confirm`) or by a person at
    /// a terminal; `again` is the command line with `--confirm` and the code, shown when refused.
    func confirm(
        _ confirmation: NFCLockConfirmation, code: String?, console: TagConsole, again: String
    ) async throws(CommandLineError) {
        let sentence = nothingDone.prefix(1).uppercased() + nothingDone.dropFirst()
        if let code {
            guard code == confirmation.code else {
                throw CommandLineError(
                    .confirmationMismatch,
                    "\(refusal): \(code) is not the code of \(standsFor); \(nothingDone). To \(rerun), run:\n  \(again)"
                )
            }
            return
        }
        let question =
            "\(warning)\nType the code \(confirmation.code) to \(action) \(UIDText.description(confirmation.uid)): "
        guard let answer = await console.ask(question) else {
            throw CommandLineError(
                .confirmationMismatch,
                "\(refusal): \(whyAsked); no terminal to ask on. \(sentence). To \(rerun), "
                    + "run:\n  \(again)")
        }
        guard NFCLockConfirmation.normalizedCode(answer) == confirmation.code else {
            throw CommandLineError(
                .confirmationMismatch, "\(refusal): the code typed is not \(confirmation.code); \(nothingDone)")
        }
    }
}
