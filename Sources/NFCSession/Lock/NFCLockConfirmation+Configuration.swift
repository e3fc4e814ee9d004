import TagMemory

extension NFCLockConfirmation {
    /// The domain string that starts the digested bytes of a configuration lock (CFGLCK).
    static let configurationDomain = "ndeftool lock confirmation: Type 2 password configuration (CFGLCK), version 1"

    /// Creates the confirmation of setting CFGLCK (ACCESS bit 6, NTAG213/215/216 8.5.7 and 8.8,
    /// MF0ULX1 8.5.7): once set, CFG0 and CFG1 (AUTH0, PROT, AUTHLIM, the mirror) can never change
    /// again.
    ///
    /// The digest stands for the tag (`uid`, the chip's name) and the protection frozen: AUTH0, PROT
    /// and AUTHLIM. No password or PACK goes into it, so the code tells nothing about them. The
    /// plan is empty: the lock is one write of CFG1 with CFGLCK set, its other bytes as the tag
    /// holds them then (see ``NFCMiFareTag/lockConfiguration(_:)``).
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for an AUTH0 outside 0-255 or an AUTHLIM
    ///   outside 0-7.
    public init(
        configurationLockOf uid: [UInt8], chip: Type2Chip, firstProtectedPage: Int, protectsReading: Bool,
        authenticationLimit: Int
    ) throws(NFCReaderError) {
        guard let auth0 = UInt8(exactly: firstProtectedPage) else {
            throw NFCReaderError(.invalidParameter, "AUTH0 is a page number 0-255, not \(firstProtectedPage)")
        }
        guard (0...7).contains(authenticationLimit) else {
            throw NFCReaderError(.invalidParameter, "AUTHLIM is 0 to 7, not \(authenticationLimit)")
        }
        let settings: [UInt8] = [auth0, protectsReading ? 0x01 : 0x00, UInt8(truncatingIfNeeded: authenticationLimit)]
        let digest = try Self.digest(
            domain: Self.configurationDomain, fields: [uid, Array(chip.name.utf8), settings])
        self.init(
            uid: uid, digest: digest, options: Type2LockOptions(setsBlockLockBits: false, locksConfiguration: true),
            plan: TagWritePlan(steps: []), messageLength: 0)
    }
}
