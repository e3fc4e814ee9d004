import Provisioning

/// The one confirmation a batch that locks needs, given up front for the whole job
/// (``Provisioning/ProvisioningLockConfirmation``): `--confirm CODE` with the job's code, or a
/// person at a terminal typing it back. Anything else refuses with exit status 79 before any
/// reader is opened.
enum BatchLockConsent {
    /// Checks the consent to lock every tag of the job `header` describes (`rows` rows).
    ///
    /// - Parameter given: the code from `--confirm`, if any.
    /// - Throws: ``ExitStatus/confirmationMismatch`` for a wrong or missing code (the message
    ///   shows the job's code and the command that gives it).
    static func check(
        header: JournalHeader, rows: Int, given: String?, io: any CommandIO, arguments: [String]
    ) async throws(CommandLineError) {
        let code: String
        do {
            code = try ProvisioningLockConfirmation.code(for: header)
        } catch {
            throw CommandLineError(.internalError, "The job code: \(error.reason)")
        }
        if let given {
            guard (try? ProvisioningLockConfirmation.matches(given, header: header)) == true else {
                throw CommandLineError(
                    .confirmationMismatch,
                    "--confirm \(given) is not this job's code: nothing was written. The code depends on the "
                        + "plan, the template and the options; 'ndeftool batch ... --dry-run' shows it")
            }
            return
        }
        let again = RepeatCommand.line(arguments, dropping: ["--confirm"], adding: ["--confirm", code])
        guard io.isTerminal(.input), io.isTerminal(.error) else {
            throw CommandLineError(
                .confirmationMismatch,
                "this job locks every tag it writes (\(rows) tags become read-only for good) and nobody "
                    + "confirmed it: nothing was written. To go on, run:\n  \(again)")
        }
        io.writeError(
            "This job locks every tag it writes: \(rows) tags become read-only for good.\n"
                + "Type the job code \(code) to go on: ")
        let answer = await io.typedLine() ?? ""
        guard (try? ProvisioningLockConfirmation.matches(answer, header: header)) == true else {
            throw CommandLineError(.confirmationMismatch, "the code typed is not \(code): nothing was written")
        }
    }
}
