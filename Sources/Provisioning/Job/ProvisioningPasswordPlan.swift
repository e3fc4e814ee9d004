import NFCSession
import TagMemory

/// The password a job sets on each tag (NTAG21x and MIFARE Ultralight EV1: PWD, PACK, AUTH0,
/// PROT, AUTHLIM; NTAG213/215/216 datasheet 8.8): each tag's own, derived from a master secret
/// and its UID (``TagPasswordDerivation``), so one tag's password opens no other.
public struct ProvisioningPasswordPlan: Sendable, CustomStringConvertible {
    /// Derives each tag's password and PACK.
    public var derivation: TagPasswordDerivation
    /// AUTH0: the first protected page; nil for the chip's first user page (4).
    public var firstProtectedPage: Int?
    /// PROT: whether reading the protected pages needs the password too.
    public var protectsReading: Bool
    /// AUTHLIM: wrong passwords allowed before the password is disabled for good (1-7), or 0.
    public var authenticationLimit: Int

    /// A plan deriving passwords with `derivation`, protecting as the other values say.
    public init(
        derivation: TagPasswordDerivation, firstProtectedPage: Int? = nil, protectsReading: Bool = false,
        authenticationLimit: Int = 0
    ) {
        self.derivation = derivation
        self.firstProtectedPage = firstProtectedPage
        self.protectsReading = protectsReading
        self.authenticationLimit = authenticationLimit
    }

    /// The settings for the tag `uid`: its derived password and PACK.
    public func settings(for uid: [UInt8]) throws(ProvisioningError) -> Type2PasswordSettings {
        let derived = try derivation.derive(uid: uid)
        return Type2PasswordSettings(
            password: derived.password, passwordAcknowledge: derived.passwordAcknowledge,
            firstProtectedPage: firstProtectedPage,
            protectsReading: protectsReading, authenticationLimit: authenticationLimit)
    }

    /// The options a journal header records for the plan: the mode, the protection and
    /// ``secretCheckOption`` (the master secret's check value, ``TagPasswordDerivation/secretCheck()``),
    /// never the secret.
    public var journalOptions: [String: String] {
        var options = [
            "password": "derived",
            "password-from-page": firstProtectedPage.map(String.init) ?? "first-user-page",
            "password-read-protect": protectsReading ? "yes" : "no",
            "password-attempt-limit": String(authenticationLimit),
        ]
        // libcrypto failing here fails every derivation of the job too.
        if let check = try? derivation.secretCheck() { options[Self.secretCheckOption] = check }
        return options
    }

    /// The journal option that holds the master secret's check value: a resume with another
    /// secret differs in it, and is refused before any tag is touched.
    public static let secretCheckOption = "password-secret-check"

    public var description: String {
        "derived per tag (HMAC-SHA256 of the UID), protected from "
            + (firstProtectedPage.map { "page \($0)" } ?? "the first user page") + ", "
            + (protectsReading ? "reading and writing" : "writing") + ", "
            + (authenticationLimit == 0 ? "unlimited attempts" : "\(authenticationLimit) attempts")
    }
}
