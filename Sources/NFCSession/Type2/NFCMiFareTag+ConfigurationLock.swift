import TagMemory

/// Locking the password configuration of NTAG21x and MIFARE Ultralight EV1 tags for good: CFGLCK,
/// ACCESS bit 6 (NTAG213/215/216 8.5.7 and 8.8, MF0ULX1 8.5.7). Once set, CFG0 and CFG1 (AUTH0,
/// PROT, AUTHLIM, the mirror, the NFC counter bits) can never be written again; PWD and PACK stay
/// writable.
extension NFCMiFareTag {
    /// Sets CFGLCK as `confirmation` (made with
    /// ``NFCLockConfirmation/init(configurationLockOf:chip:firstProtectedPage:protectsReading:authenticationLimit:)``)
    /// describes, after checking it still describes the tag.
    ///
    /// Checks, each failing before any write: the UID and the kind of confirmation
    /// (``NFCReaderError/Code/confirmationMismatch``, without a command); then, after reading CFG0
    /// and CFG1, whether CFGLCK is set already (``NFCReaderError/Code/tagNotWritable``) and whether
    /// AUTH0, PROT and AUTHLIM are the ones confirmed (``NFCReaderError/Code/confirmationMismatch``).
    /// Then one WRITE of CFG1, its other bytes and bits as read, and a read-back.
    ///
    /// - Throws: ``NFCReaderError/Code/unsupportedFeature`` for a chip without PWD_AUTH
    ///   configuration pages or a reader without raw commands;
    ///   ``NFCReaderError/Code/authenticationRequired`` when CFG1 is password-protected and the
    ///   tag is not authenticated; the errors above and the write errors.
    public func lockConfiguration(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try confirmation.checkTag(identifier)
        guard confirmation.locksConfiguration, !confirmation.setsBlockLockBits else {
            throw NFCReaderError(.confirmationMismatch, "the confirmation is not one of a configuration lock")
        }
        guard reader.capabilities.supportsRawCommands else {
            throw NFCReaderError(
                .unsupportedFeature, "the reader \(reader.name) cannot write the configuration (no raw commands)")
        }
        guard let chip, let pages = chip.configurationPages else {
            throw NFCReaderError(
                .unsupportedFeature, "\(chip?.name ?? "this unidentified chip") has no password configuration")
        }
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await load([pages.cfg0, pages.cfg1], into: &cache)
        let memory = Type2Memory(bytes: cache.fullImage, chip: chip)
        guard let configuration = memory.configuration else {
            throw NFCReaderError(.tagResponseError, "CFG0 and CFG1 of \(chip.name) did not read")
        }
        guard !configuration.isConfigurationLocked else {
            throw NFCReaderError(.tagNotWritable, "CFGLCK is set already: the configuration is locked for good")
        }
        let current = try NFCLockConfirmation(
            configurationLockOf: identifier, chip: chip, firstProtectedPage: Int(configuration.auth0),
            protectsReading: configuration.isReadProtected, authenticationLimit: configuration.authenticationLimit)
        try confirmation.checkUnchanged(current, content: "the password configuration (AUTH0, PROT, AUTHLIM)")
        var locked = configuration
        locked.isConfigurationLocked = true
        let steps = [
            PlanStep(
                address: pages.cfg1, data: locked.cfg1,
                reason:
                    "CFG1 ACCESS \(hexByte(locked.access).uppercased())h: CFGLCK set, the configuration is locked for good"
            )
        ]
        try checkAuthentication(steps, memory: memory, purpose: "locking the configuration")
        let expected = try expectedImage(memory, steps)
        try await execute(steps, purpose: "locking the configuration")
        try await verify(steps, expected: expected, purpose: "locking the configuration")
    }
}
