import HexText
import NFCSession

/// The code a person types (or a script passes) once to let a job lock every tag it writes:
/// locking cannot be undone, so a job that locks runs only with the code of THIS job.
///
/// The code is six digits (`123-456`, as a single tag's lock code) from the SHA-256 of the
/// job's identity: the plan's digest, the template and the options (``JournalHeader``). A
/// different plan, template or option gives a different code, so a code copied from another
/// job, or from the same job before its plan was edited, is refused.
public enum ProvisioningLockConfirmation {
    /// The job code for `header`.
    public static func code(for header: JournalHeader) throws(ProvisioningError) -> String {
        var text = "ndeftool batch lock\n" + Hex.encode(header.planDigest, uppercase: false) + "\n"
        text += String(header.planRowCount) + "\n" + header.template + "\n"
        for (key, value) in header.options.sorted(by: { $0.key < $1.key }) {
            text += key + "=" + value + "\n"
        }
        return NFCLockConfirmation.code(for: try ProvisioningDigest.sha256(Array(text.utf8)))
    }

    /// Whether `typed` is the job's code, ignoring spaces and dashes.
    public static func matches(_ typed: String, header: JournalHeader) throws(ProvisioningError) -> Bool {
        NFCLockConfirmation.normalizedCode(typed) == (try code(for: header))
    }
}
