import HexText

extension Type2Memory {
    /// Plans setting or changing a password on an NTAG21x or MIFARE Ultralight EV1 (datasheet
    /// NTAG213/215/216 8.8 and 8.5.7, MF0ULX1 8.6): the writes of
    /// ``passwordChangePlan(_:)`` in one plan, in the order they are sent.
    ///
    /// - Throws: as ``passwordChangePlan(_:)``.
    public func passwordPlan(_ settings: Type2PasswordSettings) throws(TagMemoryError) -> TagWritePlan {
        try passwordChangePlan(settings).writePlan
    }

    /// Plans setting or changing a password on an NTAG21x or MIFARE Ultralight EV1 (datasheet
    /// NTAG213/215/216 8.8 and 8.5.7, MF0ULX1 8.6), in two parts with a check of the new password
    /// between them.
    ///
    /// PWD and PACK are ordinary EEPROM pages: a write cut short leaves a page half old and half
    /// new (NTAG213/215/216 10.4 names no tearing protection for them). While AUTH0 protects the
    /// configuration, such a PWD would be neither the old password nor the new one, and nothing
    /// could open the tag again. And while AUTHLIM counts, every PWD_AUTH that guesses wrong
    /// (the check of a torn PWD, a rerun that tries the password the tag no longer holds) brings
    /// the tag nearer to losing its password for good (8.8.2). So the steps come in this order:
    /// 1. when AUTHLIM is not 0: CFG1 with AUTHLIM 0, PROT and the other bits as they are: from
    ///    here on no PWD_AUTH is counted;
    /// 2. when the tag is protected: CFG0 with AUTH0 FFh (nothing protected), the MIRROR, RFUI
    ///    and MIRROR_PAGE bytes as they are; a torn write keeps the old AUTH0, which CFG0's last
    ///    byte holds;
    /// 3. PWD (always written: the image cannot show it, it reads back as 00h);
    /// 4. PACK, with the two RFUI bytes 00h (always written, likewise);
    ///
    /// then, once a session has checked the new password with PWD_AUTH and its PACK
    /// (``Type2PasswordChangePlan/afterCheck``):
    /// 5. CFG1 with PROT and AUTHLIM as asked (left out when step 1 left it so);
    /// 6. CFG0 with the AUTH0 asked for, always the last step: it turns protection on.
    ///
    /// Cut anywhere, the tag is protected by the old password with its old settings (before
    /// step 1), protected by the old password with AUTHLIM 0 (after it: guesses are free),
    /// not protected at all (steps 2-5), or protected by the new password with the settings
    /// asked for, checked already (step 6). Only the first and the last can look alike, when the
    /// settings do not change: telling them apart is the caller's part (a record of the change,
    /// or the operator's word), never a guess sent to the tag.
    ///
    /// The first steps need the old password when the tag is protected
    /// (``TagWritePlan/requiresAuthentication``). The CC is never written: setting a proprietary
    /// access nibble (as some tools do) is one-time programmable and makes the tag unreadable
    /// to phones. PWD and PACK steps are ``PlanStep/isSecret`` and no reason names them.
    ///
    /// With CFGLCK set, CFG0 and CFG1 cannot change, so AUTH0 cannot be lifted while PWD is
    /// written: the plan is refused (a torn PWD write would lock the tag out for good).
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` for a chip without PWD_AUTH pages
    ///   (or an unknown chip); ``TagMemoryError/Code/truncatedImage`` when the image does not
    ///   hold them; ``TagMemoryError/Code/invalidArgument`` for a password that is not 4 bytes,
    ///   a PACK that is not 2, an AUTHLIM outside 0-7 or an AUTH0 outside the chip's pages;
    ///   ``TagMemoryError/Code/conflictingState`` when CFGLCK is set.
    public func passwordChangePlan(_ settings: Type2PasswordSettings) throws(TagMemoryError)
        -> Type2PasswordChangePlan
    {
        let (chip, pages, configuration) = try passwordConfiguration()
        guard settings.password.count == 4 else {
            throw TagMemoryError(.invalidArgument, "a password has 4 bytes, not \(settings.password.count)")
        }
        guard settings.passwordAcknowledge.count == 2 else {
            throw TagMemoryError(.invalidArgument, "a PACK has 2 bytes, not \(settings.passwordAcknowledge.count)")
        }
        guard (0...7).contains(settings.authenticationLimit) else {
            throw TagMemoryError(.invalidArgument, "AUTHLIM is 0 to 7, not \(settings.authenticationLimit)")
        }
        let auth0 = settings.firstProtectedPage ?? chip.userPages.lowerBound
        guard (0..<chip.pageCount).contains(auth0) else {
            throw TagMemoryError(
                .invalidArgument,
                "AUTH0 \(auth0) protects nothing on \(chip.name) (pages 0-\(chip.pageCount - 1)); "
                    + "to turn protection off use the removal plan")
        }
        var wanted = configuration
        wanted.isReadProtected = settings.protectsReading
        wanted.authenticationLimit = settings.authenticationLimit
        wanted.auth0 = UInt8(truncatingIfNeeded: auth0)
        try checkConfigurationUnlocked(configuration, wanted: wanted)
        if configuration.isConfigurationLocked {
            throw TagMemoryError(
                .conflictingState, at: Type2Page.firstByte(of: pages.cfg1),
                "CFGLCK is set: AUTH0 cannot be lifted while PWD is written, and a torn PWD write would lock the tag "
                    + "out for good, so the password cannot be changed safely")
        }

        var builder = Type2PlanBuilder(memory: self)
        var open = configuration
        if configuration.authenticationLimit != 0 {
            open.authenticationLimit = 0
            builder.write(
                page: pages.cfg1, data: open.cfg1,
                reason: "CFG1 AUTHLIM 0 first: no PWD_AUTH counts while the password changes, so neither the check "
                    + "nor a rerun can use up the last attempt")
        }
        if configuration.firstProtectedPage != nil {
            open.auth0 = 0xFF
            builder.write(
                page: pages.cfg0, data: open.cfg0,
                reason: "CFG0 AUTH0 FF: protection off while PWD and PACK change, so a cut write cannot lock the "
                    + "tag out")
        }
        builder.write(page: pages.password, data: settings.password, reason: "PWD: the new password", isSecret: true)
        builder.write(
            page: pages.passwordAcknowledge, data: settings.passwordAcknowledge + [0x00, 0x00],
            reason: "PACK: what the tag answers a correct PWD_AUTH with", isSecret: true)
        let checked = builder.steps.count
        var final = open
        final.isReadProtected = wanted.isReadProtected
        final.authenticationLimit = wanted.authenticationLimit
        builder.write(
            page: pages.cfg1, data: final.cfg1,
            reason: "CFG1 ACCESS \(Hex.byte(final.access)), after the check: "
                + (settings.protectsReading ? "reading and writing" : "writing") + " protected, "
                + (settings.authenticationLimit == 0
                    ? "unlimited attempts" : "at most \(settings.authenticationLimit) failed attempts"))
        final.auth0 = wanted.auth0
        builder.write(
            page: pages.cfg0, data: final.cfg0,
            reason: "CFG0 AUTH0 \(Hex.byte(final.auth0)) last: protection starts at page \(auth0)")
        return Type2PasswordChangePlan(
            beforeCheck: Array(builder.steps[..<checked]), afterCheck: Array(builder.steps[checked...]),
            requiresAuthentication: builder.requiresAuthentication)
    }

    /// Plans removing password protection (datasheet NTAG213/215/216 8.8, MF0ULX1 8.6).
    ///
    /// Steps: CFG0 with AUTH0 FFh first (the write needs the current password when CFG0 is
    /// protected: ``TagWritePlan/requiresAuthentication`` says so), then, as asked, CFG1 with
    /// PROT and AUTHLIM cleared (other bits kept), PWD back to FF FF FF FF and PACK to 00 00
    /// (the factory values, secret steps like any PWD or PACK write). Unchanged CFG pages are
    /// left out.
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` for a chip without PWD_AUTH pages;
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold them;
    ///   ``TagMemoryError/Code/conflictingState`` when CFGLCK keeps CFG0 or CFG1 from changing.
    public func passwordRemovalPlan(
        resetsAccess: Bool = true, resetsPassword: Bool = true
    ) throws(TagMemoryError) -> TagWritePlan {
        let (_, pages, configuration) = try passwordConfiguration()
        var wanted = configuration
        wanted.auth0 = 0xFF
        if resetsAccess {
            wanted.isReadProtected = false
            wanted.authenticationLimit = 0
        }
        try checkConfigurationUnlocked(configuration, wanted: wanted)
        var builder = Type2PlanBuilder(memory: self)
        builder.write(page: pages.cfg0, data: wanted.cfg0, reason: "CFG0 AUTH0 FF first: protection off")
        builder.write(
            page: pages.cfg1, data: wanted.cfg1,
            reason: "CFG1 ACCESS \(Hex.byte(wanted.access)): PROT and AUTHLIM cleared")
        if resetsPassword {
            builder.write(
                page: pages.password, data: [0xFF, 0xFF, 0xFF, 0xFF], reason: "PWD back to the factory value",
                isSecret: true)
            builder.write(
                page: pages.passwordAcknowledge, data: [0x00, 0x00, 0x00, 0x00],
                reason: "PACK back to the factory value", isSecret: true)
        }
        return builder.plan
    }

    /// The chip, its configuration pages and their content, or why a password plan cannot be made.
    private func passwordConfiguration() throws(TagMemoryError) -> (
        Type2Chip, Type2Chip.ConfigurationPages, Type2Configuration
    ) {
        guard let chip, let pages = chip.configurationPages else {
            throw TagMemoryError(
                .unsupportedChip, "\(chip?.name ?? "an unknown chip") has no PWD_AUTH configuration pages")
        }
        let configuration = try Type2Configuration(chip: chip, memory: bytes)
        return (chip, pages, configuration)
    }

    /// Throws ``TagMemoryError/Code/conflictingState`` when CFGLCK is set and CFG0 or CFG1
    /// would have to change.
    private func checkConfigurationUnlocked(
        _ configuration: Type2Configuration, wanted: Type2Configuration
    ) throws(TagMemoryError) {
        guard configuration.isConfigurationLocked,
            configuration.cfg0 != wanted.cfg0 || configuration.cfg1 != wanted.cfg1
        else { return }
        throw TagMemoryError(
            .conflictingState,
            at: Type2Page.firstByte(of: configuration.chip.configurationPages?.cfg1 ?? 0),
            "CFGLCK is set: CFG0 and CFG1 are locked for good and cannot take the new AUTH0 or ACCESS")
    }
}

extension Type2Memory {
    /// The first page whose WRITE needs authentication, or nil when no page does (or the
    /// image does not show the setting).
    ///
    /// - NTAG21x and MIFARE Ultralight EV1: AUTH0 (CFG0 byte 3) when below the page count;
    ///   PWD_AUTH opens the pages (datasheet NTAG213/215/216 8.8.1, MF0ULX1 8.6).
    /// - MIFARE Ultralight C: AUTH0 (page 2Ah byte 0) when below 30h; 3DES AUTHENTICATE
    ///   opens them, for writing whatever AUTH1 says (MF0ICU2 7.5.8).
    public var firstWriteProtectedPage: Int? {
        if let configuration { return configuration.firstProtectedPage }
        guard let chip, let pages = chip.tripleDESPages, let auth0 = page(pages.auth0)?.first else { return nil }
        return Int(auth0) < chip.pageCount ? Int(auth0) : nil
    }
}

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

/// A password change in two parts (``Type2Memory/passwordChangePlan(_:)``): the writes that lift
/// the protection and the attempt limit and write PWD and PACK, then, once PWD_AUTH with the new
/// password has answered the new PACK, the writes that set AUTHLIM, PROT and AUTH0 as asked.
public struct Type2PasswordChangePlan: Sendable, Hashable {
    /// CFG1 with AUTHLIM 0 (when it was not), CFG0 with AUTH0 FFh (when the tag was protected),
    /// PWD and PACK.
    public var beforeCheck: [PlanStep]
    /// CFG1 as asked (when it differs), then CFG0 with the AUTH0 asked for: sent only after the
    /// new password was checked.
    public var afterCheck: [PlanStep]
    /// Whether the first step needs the tag authenticated (the tag is protected).
    public var requiresAuthentication: Bool

    /// Creates a plan.
    public init(beforeCheck: [PlanStep], afterCheck: [PlanStep], requiresAuthentication: Bool) {
        self.beforeCheck = beforeCheck
        self.afterCheck = afterCheck
        self.requiresAuthentication = requiresAuthentication
    }

    /// Both parts in one plan, in the order they are sent.
    public var writePlan: TagWritePlan {
        TagWritePlan(steps: beforeCheck + afterCheck, requiresAuthentication: requiresAuthentication)
    }
}
