import NFCWireFormat
import TagMemory

/// Password protection of NTAG21x and MIFARE Ultralight EV1 tags (NTAG213/215/216 8.8, MF0ULX1
/// 8.6): PWD_AUTH (1Bh) with a 4-byte password answered by a 2-byte PACK, AUTH0 the first
/// protected page, ACCESS with PROT, CFGLCK and AUTHLIM.
///
/// PWD_AUTH is never repeated by this library: with AUTHLIM set, each failed attempt counts, and at
/// the limit the password is disabled for good (8.8.2). Passwords and PACKs are never put in error
/// reasons or descriptions.
extension NFCMiFareTag {
    /// Sends PWD_AUTH once and, when it succeeds, keeps the tag authenticated until it is selected
    /// again (NTAG213/215/216 10.7).
    ///
    /// - Parameters:
    ///   - password: the 4 bytes, in the order PWD_AUTH sends them.
    ///   - expectedPasswordAcknowledge: the PACK a genuine tag answers; nil to accept any.
    /// - Returns: the PACK the tag answered.
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for a password that is not 4 bytes or a
    ///   PACK that is not 2, and ``NFCReaderError/Code/unsupportedFeature`` for a reader without raw
    ///   commands or a chip without PWD_AUTH, before any command;
    ///   ``NFCReaderError/Code/authenticationFailed`` for a refused password (NAK 0h; the attempt
    ///   counts against AUTHLIM); ``NFCReaderError/Code/passwordAcknowledgeMismatch`` for a PACK
    ///   other than `expectedPasswordAcknowledge` (the tag is then selected again: no authentication is
    ///   kept with a tag that may not be genuine);
    ///   ``NFCReaderError/Code/passwordDisabled`` for NAK 4h (AUTHLIM reached). After a NAK the tag
    ///   is IDLE; it is selected again before the next command, so the tag stays usable.
    @discardableResult
    public func authenticate(password: [UInt8], expectedPasswordAcknowledge: [UInt8]? = nil)
        async throws(NFCReaderError)
        -> [UInt8]
    {
        try checkPasswordArguments(password: password, acknowledge: expectedPasswordAcknowledge)
        try checkPasswordSupport()
        try await beginOperation()
        defer { endOperation() }
        return try await authenticateOnce(password: password, expectedPasswordAcknowledge: expectedPasswordAcknowledge)
    }

    /// Reads CFG0 and CFG1 (one command) and describes the protection; ``NFCPasswordStatus/Protection/unknown``
    /// when they are read-protected. On a MIFARE Ultralight C the AUTH0 and AUTH1 pages are read.
    public func passwordStatus() async throws(NFCReaderError) -> NFCPasswordStatus {
        try await beginOperation()
        defer { endOperation() }
        if let chip, let pages = chip.tripleDESPages {
            var cache = makeCache()
            try await load([pages.auth0, pages.auth1], into: &cache)
            let memory = Type2Memory(bytes: cache.fullImage, chip: chip)
            let readProtected = (cache.page(pages.auth1)?.first ?? 0) & 0x01 == 0
            return NFCPasswordStatus(
                mechanism: .tripleDES,
                protection: memory.firstWriteProtectedPage.map { .from(page: $0, readProtected: readProtected) }
                    ?? .off,
                authenticationLimit: nil, isConfigurationLocked: nil, isAuthenticated: false)
        }
        guard let chip, chip.configurationPages != nil else {
            return NFCPasswordStatus(
                mechanism: .none, protection: .off, authenticationLimit: nil, isConfigurationLocked: nil,
                isAuthenticated: false)
        }
        guard let configuration = try await readConfiguration(chip: chip) else {
            return NFCPasswordStatus(
                mechanism: .password, protection: .unknown, authenticationLimit: nil, isConfigurationLocked: nil,
                isAuthenticated: authenticated)
        }
        return NFCPasswordStatus(
            mechanism: .password,
            protection: configuration.firstProtectedPage.map {
                .from(page: $0, readProtected: configuration.isReadProtected)
            } ?? .off,
            authenticationLimit: configuration.authenticationLimit,
            isConfigurationLocked: configuration.isConfigurationLocked, isAuthenticated: authenticated)
    }

    /// Sets or changes a password with TagMemory's ``TagMemory/Type2Memory/passwordChangePlan(_:)``:
    /// AUTHLIM 0 first when it is not (no PWD_AUTH counts from then on), AUTH0 FFh on a protected
    /// tag (protection off), then PWD and PACK; then the tag is selected again and one PWD_AUTH
    /// with the new password must answer the new PACK; only then CFG1 with PROT and AUTHLIM as
    /// asked and CFG0 with the AUTH0 asked for, which turns protection on. CFG0 and CFG1 are read
    /// back. The CC is never written. The tag stays authenticated with the new password.
    ///
    /// Wherever the sequence is cut (the tag leaves the field, a write is torn or lost), the tag
    /// is left protected by the old password (with its old settings, or with AUTHLIM 0), not
    /// protected at all, or protected by the new password and PACK with the settings asked for,
    /// checked already. Setting the password again, with the old or the new password for a
    /// protected tag, completes it.
    ///
    /// - Parameters:
    ///   - settings: the password, the PACK, AUTH0, PROT and AUTHLIM to set.
    ///   - progress: told ``NFCPasswordChangeProgress/checked`` once the new password answered
    ///     its PACK and before the writes that turn protection on, so that a caller can record
    ///     that the tag holds the new password before it may be protected by it; a throw from it
    ///     stops the change there (the tag is then not protected).
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for a bad password, PACK, AUTHLIM or AUTH0;
    ///   ``NFCReaderError/Code/unsupportedFeature`` for a chip without PWD_AUTH or a reader without
    ///   raw commands; ``NFCReaderError/Code/authenticationRequired`` when the tag is already
    ///   protected and not authenticated (the old password first); ``NFCReaderError/Code/tagNotWritable``
    ///   when CFGLCK is set; ``NFCReaderError/Code/tagUpdateFailure`` when the check PWD_AUTH fails
    ///   (the tag is then left without protection, with AUTHLIM 0); the write errors of
    ///   ``writeNDEF(_:)``.
    public func setPassword(
        _ settings: Type2PasswordSettings,
        progress: (@Sendable (NFCPasswordChangeProgress) async throws(NFCReaderError) -> Void)? = nil
    ) async throws(NFCReaderError) {
        try checkPasswordArguments(password: settings.password, acknowledge: settings.passwordAcknowledge)
        guard (0...7).contains(settings.authenticationLimit) else {
            throw NFCReaderError(.invalidParameter, "AUTHLIM is 0 to 7, not \(settings.authenticationLimit)")
        }
        let chip = try checkPasswordSupport()
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        let memory = try await loadConfiguration(chip: chip, into: &cache)
        let plan: Type2PasswordChangePlan
        do {
            plan = try memory.passwordChangePlan(settings)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan the password")
        }
        let steps = plan.writePlan.steps
        try checkAuthentication(steps, memory: memory, purpose: "setting the password")
        let expected = try expectedImage(memory, steps)
        // The plan ends with the CFG0 write that turns protection on (Type2Memory.passwordChangePlan).
        guard plan.afterCheck.last?.address == chip.configurationPages?.cfg0 else {
            throw NFCReaderError(.invalidParameter, "the password plan does not end with CFG0")
        }
        try await execute(plan.beforeCheck, purpose: "setting the password")
        try await reselect()
        do {
            try await authenticateOnce(
                password: settings.password, expectedPasswordAcknowledge: settings.passwordAcknowledge)
        } catch {
            throw NFCReaderError(
                error.code == .tagConnectionLost ? .tagConnectionLost : .tagUpdateFailure,
                "PWD and PACK were written but the check PWD_AUTH failed, so protection was not turned on "
                    + "(AUTH0 FFh, AUTHLIM 0): \(error.reason)",
                mayBeHalfWritten: true)
        }
        if let progress { try await progress(.checked) }
        try await execute(plan.afterCheck, purpose: "setting the password", after: plan.beforeCheck)
        try await verify(steps, expected: expected, purpose: "setting the password")
    }

    /// Removes password protection with ``TagMemory/Type2Memory/passwordRemovalPlan(resetsAccess:resetsPassword:)``:
    /// AUTH0 FFh first, then PROT and AUTHLIM cleared, PWD back to FF FF FF FF and PACK to 00 00.
    ///
    /// When the configuration is protected and the tag is not authenticated, one PWD_AUTH is sent with
    /// `currentPassword` (checked against `expectedPasswordAcknowledge` when given), never more.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationRequired`` when authentication is needed and no
    ///   password is given; the errors of ``authenticate(password:expectedPasswordAcknowledge:)`` and the write
    ///   errors.
    public func removePassword(currentPassword: [UInt8]?, expectedPasswordAcknowledge: [UInt8]? = nil)
        async throws(NFCReaderError)
    {
        if let currentPassword {
            try checkPasswordArguments(password: currentPassword, acknowledge: expectedPasswordAcknowledge)
        }
        let chip = try checkPasswordSupport()
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        var memory: Type2Memory
        do {
            memory = try await loadConfiguration(chip: chip, into: &cache)
        } catch {
            guard error.code == .authenticationRequired, let currentPassword else { throw error }
            try await authenticateOnce(
                password: currentPassword, expectedPasswordAcknowledge: expectedPasswordAcknowledge)
            memory = try await loadConfiguration(chip: chip, into: &cache)
        }
        let plan: TagWritePlan
        do {
            plan = try memory.passwordRemovalPlan()
        } catch {
            throw NFCReaderError(planning: error, "cannot plan the password removal")
        }
        if plan.requiresAuthentication, !authenticated {
            guard let currentPassword else {
                throw NFCReaderError(
                    .authenticationRequired, "the configuration is password-protected: give the current password")
            }
            try await authenticateOnce(
                password: currentPassword, expectedPasswordAcknowledge: expectedPasswordAcknowledge)
        }
        let expected = try expectedImage(memory, plan.steps)
        // AUTH0 FFh is read back before PWD goes back to the factory value: were that write
        // lost, the tag would stay protected, by a password its owner never chose. With the
        // write checked, a cut leaves the old password or no protection.
        if let first = plan.steps.first, first.address == chip.configurationPages?.cfg0, plan.steps.count > 1 {
            try await execute([first], purpose: "removing the password")
            try await verify([first], expected: try expectedImage(memory, [first]), purpose: "removing the password")
            try await execute(Array(plan.steps.dropFirst()), purpose: "removing the password")
        } else {
            try await execute(plan.steps, purpose: "removing the password")
        }
        try await verify(plan.steps, expected: expected, purpose: "removing the password")
    }

    /// One PWD_AUTH; see ``authenticate(password:expectedPasswordAcknowledge:)``.
    @discardableResult
    func authenticateOnce(password: [UInt8], expectedPasswordAcknowledge: [UInt8]?) async throws(NFCReaderError)
        -> [UInt8]
    {
        let response: NFCRawResponse
        do {
            response = try await exchange(Type2Command.passwordAuthentication.frame(password))
        } catch {
            guard [.tagConnectionLost, .tagResponseError].contains(error.code) else { throw error }
            throw NFCReaderError(
                error.code,
                (error.code == .tagConnectionLost ? "no answer" : "a garbled answer") + " to PWD_AUTH "
                    + "(\(error.reason)); if the password was wrong, the attempt counted against AUTHLIM if set")
        }
        switch response {
        case .data(let acknowledge) where acknowledge.count == 2:
            if let expectedPasswordAcknowledge, expectedPasswordAcknowledge != acknowledge {
                authenticated = false
                needsReselect = true
                throw NFCReaderError(
                    .passwordAcknowledgeMismatch,
                    "the tag accepted the password but answered another PACK than expected: it may not be genuine")
            }
            authenticated = true
            return acknowledge
        case .nak(0x4):
            throw NFCReaderError(
                .passwordDisabled,
                "PWD_AUTH answered NAK 4h: the attempt limit (AUTHLIM) is reached and the password is disabled for good"
            )
        case .nak(let code):
            throw NFCReaderError(
                .authenticationFailed,
                "the tag refused the password (NAK \(code)h); the attempt counts against AUTHLIM if set. "
                    + "Not retried")
        case .data, .ack:
            needsReselect = true
            throw NFCReaderError(
                .tagResponseError,
                "PWD_AUTH got an answer that is not a 2-byte PACK; if the password was wrong, the attempt counted "
                    + "against AUTHLIM if set")
        }
    }

    /// CFG0 and CFG1 as read, or nil when they are read-protected.
    private func readConfiguration(chip: Type2Chip) async throws(NFCReaderError) -> Type2Configuration? {
        var cache = makeCache()
        do {
            return try await loadConfiguration(chip: chip, into: &cache).configuration
        } catch {
            guard error.code == .authenticationRequired else { throw error }
            return nil
        }
    }

    /// Reads CFG0 and CFG1 into `cache` and returns the memory (PWD and PACK as 00h).
    private func loadConfiguration(chip: Type2Chip, into cache: inout Type2PageCache) async throws(NFCReaderError)
        -> Type2Memory
    {
        guard let pages = chip.configurationPages else {
            throw NFCReaderError(.unsupportedFeature, "\(chip.name) has no password configuration")
        }
        try await load([pages.cfg0, pages.cfg1], into: &cache)
        return Type2Memory(bytes: cache.fullImage, chip: chip)
    }

    /// Throws ``NFCReaderError/Code/invalidParameter`` unless the password has 4 bytes and the PACK 2.
    private nonisolated func checkPasswordArguments(password: [UInt8], acknowledge: [UInt8]?) throws(NFCReaderError) {
        guard password.count == 4 else {
            throw NFCReaderError(.invalidParameter, "a password has 4 bytes, not \(password.count)")
        }
        if let acknowledge, acknowledge.count != 2 {
            throw NFCReaderError(.invalidParameter, "a PACK has 2 bytes, not \(acknowledge.count)")
        }
    }

    /// The chip, when it has PWD_AUTH (NTAG213/215/216 10.7, MF0ULX1 8.6) and the reader passes
    /// raw commands; checked without a command, so a caller can refuse a tag before writing it.
    ///
    /// - Throws: ``NFCReaderError/Code/unsupportedFeature`` naming what is missing.
    @discardableResult
    public nonisolated func checkPasswordSupport() throws(NFCReaderError) -> Type2Chip {
        guard reader.capabilities.supportsRawCommands else {
            throw NFCReaderError(
                .unsupportedFeature, "the reader \(reader.name) cannot send PWD_AUTH (no raw commands)")
        }
        guard let chip, chip.features.contains(.passwordAuthentication), chip.configurationPages != nil else {
            throw NFCReaderError(
                .unsupportedFeature, "\(chip?.name ?? "this unidentified chip") has no PWD_AUTH password protection")
        }
        return chip
    }
}
