import TagMemory

/// The password protection of a Type 2 tag, as its configuration pages show it (NTAG213/215/216
/// 8.5.7 and 8.8, MF0ULX1 8.5.7 and 8.6; MIFARE Ultralight C AUTH0/AUTH1, MF0ICU2 7.5.8).
public struct NFCPasswordStatus: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How the chip protects pages.
    public enum Mechanism: String, Sendable, Hashable, Codable {
        /// PWD_AUTH with a 32-bit password and a 16-bit PACK (NTAG21x, MIFARE Ultralight EV1).
        case password
        /// 3DES AUTHENTICATE (MIFARE Ultralight C); not performed by this library.
        case tripleDES
        /// No protection (MIFARE Ultralight), or an unknown chip.
        case none
    }

    /// Which pages are protected.
    public enum Protection: Sendable, Hashable, Codable {
        /// No page is protected (AUTH0 past the last page).
        case off
        /// Pages from `page` on need authentication for writing, and for reading too when
        /// `readProtected` (PROT, or AUTH1 bit 0 clear on MIFARE Ultralight C).
        case from(page: Int, readProtected: Bool)
        /// The configuration pages did not read: they are read-protected (PROT set and AUTH0 at or
        /// before CFG0), so protection is on from some page up to CFG0.
        case unknown
    }

    /// How the chip protects pages.
    public var mechanism: Mechanism
    /// Which pages are protected.
    public var protection: Protection
    /// AUTHLIM: failed attempts allowed before the password is disabled for good, 0 for
    /// unlimited; nil when unknown or not applicable.
    public var authenticationLimit: Int?
    /// CFGLCK: whether CFG0 and CFG1 are locked for good; nil when unknown or not applicable.
    public var isConfigurationLocked: Bool?
    /// Whether PWD_AUTH succeeded since the tag was last selected.
    public var isAuthenticated: Bool

    /// Creates a status.
    public init(
        mechanism: Mechanism, protection: Protection, authenticationLimit: Int?, isConfigurationLocked: Bool?,
        isAuthenticated: Bool
    ) {
        self.mechanism = mechanism
        self.protection = protection
        self.authenticationLimit = authenticationLimit
        self.isConfigurationLocked = isConfigurationLocked
        self.isAuthenticated = isAuthenticated
    }

    /// Whether any page is (or may be) protected.
    public var isProtected: Bool { protection != .off }

    public var description: String {
        let pages: String
        switch protection {
        case .off: pages = "no password protection"
        case .from(let page, let readProtected):
            pages = "protected from page \(page) (" + (readProtected ? "reading and writing" : "writing") + ")"
        case .unknown: pages = "protected, configuration read-protected"
        }
        var parts = [pages]
        if let limit = authenticationLimit { parts.append(limit == 0 ? "unlimited attempts" : "\(limit) attempts") }
        if isConfigurationLocked == true { parts.append("configuration locked") }
        if isAuthenticated { parts.append("authenticated") }
        return parts.joined(separator: ", ")
    }
}
