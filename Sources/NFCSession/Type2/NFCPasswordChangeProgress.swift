/// How far a password change has come (``NFCMiFareTag/setPassword(_:progress:)``), for callers
/// that keep a record of it.
///
/// Cut before ``checked``, the tag holds its old password or no protection; from ``checked``
/// on it holds the new password (verified by PWD_AUTH and its PACK), with or without protection.
/// A record written at ``checked`` tells a later run which password to try, where the tag's
/// settings alone cannot (NTAG213/215/216 8.8: a change that keeps AUTH0, PROT and AUTHLIM ends
/// where it started, but for the password).
public struct NFCPasswordChangeProgress: Sendable, Hashable, CustomStringConvertible {
    private enum Stage: Sendable, Hashable {
        case checked
    }

    private let stage: Stage

    /// The new password answered PWD_AUTH with the new PACK; protection is not on yet.
    public static let checked = NFCPasswordChangeProgress(stage: .checked)

    public var description: String {
        switch stage {
        case .checked: "checked"
        }
    }
}
