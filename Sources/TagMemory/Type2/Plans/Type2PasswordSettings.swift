/// The password protection a Type 2 password plan sets on an NTAG21x or MIFARE Ultralight
/// EV1 (datasheet NTAG213/215/216 8.8, MF0ULX1 8.6).
///
/// The password and the PACK are secrets: ``description`` and ``debugDescription`` never show
/// them.
public struct Type2PasswordSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// PWD: the 4 bytes PWD_AUTH must send, in the order it sends them.
    public var password: [UInt8]
    /// PACK: the 2 bytes a genuine tag answers PWD_AUTH with.
    public var passwordAcknowledge: [UInt8]
    /// AUTH0: the first protected page; nil for the chip's first user page (page 4).
    ///
    /// Page 4 protects the whole user memory, the dynamic lock bytes and the configuration
    /// pages, which is what "protect the tag with a password" means to most users. The CC
    /// (page 3) and the static lock bytes (page 2) stay writable by anyone: they are one-time
    /// programmable, so nobody can change the content, but anyone can still make the tag
    /// read-only (CC write access Fh, static lock bits for pages 4-15). AUTH0 = 2 closes that
    /// too; with ``protectsReading`` it also hides the CC, so phones no longer see an NDEF tag.
    public var firstProtectedPage: Int?
    /// PROT: whether reading the protected pages needs the password too (default: writing only).
    public var protectsReading: Bool
    /// AUTHLIM: failed PWD_AUTH attempts allowed before the protected pages are lost for good,
    /// 1-7, or 0 for unlimited (the default).
    public var authenticationLimit: Int

    /// Creates settings.
    public init(
        password: [UInt8],
        passwordAcknowledge: [UInt8],
        firstProtectedPage: Int? = nil,
        protectsReading: Bool = false,
        authenticationLimit: Int = 0
    ) {
        self.password = password
        self.passwordAcknowledge = passwordAcknowledge
        self.firstProtectedPage = firstProtectedPage
        self.protectsReading = protectsReading
        self.authenticationLimit = authenticationLimit
    }

    public var description: String {
        let page = firstProtectedPage.map { "page \($0)" } ?? "the first user page"
        return "password ** ** ** **, PACK ** **, protected from \(page), "
            + (protectsReading ? "reading and writing" : "writing") + ", "
            + (authenticationLimit == 0 ? "unlimited attempts" : "\(authenticationLimit) attempts")
    }

    public var debugDescription: String { "Type2PasswordSettings(\(description))" }
}
