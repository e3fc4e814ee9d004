import NFCSession
import TagMemory

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
        if let code {
            guard code == confirmation.code else {
                throw CommandLineError(
                    .confirmationMismatch,
                    "configuration lock refused: \(code) is not the code of this tag and these settings; "
                        + "nothing was written. To set them and lock the configuration, run:\n  \(again)")
            }
            return
        }
        let question =
            "Locking the configuration (CFGLCK) is irreversible: AUTH0, PROT and the attempt limit can never "
            + "change again, and the protection can never be removed.\n"
            + "Type the code \(confirmation.code) to lock it on tag \(LockFlow.hexUID(confirmation.uid)): "
        guard let answer = await console.ask(question) else {
            throw CommandLineError(
                .confirmationMismatch,
                "configuration lock refused: it is irreversible and needs a confirmation; no terminal to ask on. "
                    + "Nothing was written. To set the password and lock the configuration, run:\n  \(again)")
        }
        guard NFCLockConfirmation.normalizedCode(answer) == confirmation.code else {
            throw CommandLineError(
                .confirmationMismatch,
                "configuration lock refused: the code typed is not \(confirmation.code); nothing was written")
        }
    }
}
