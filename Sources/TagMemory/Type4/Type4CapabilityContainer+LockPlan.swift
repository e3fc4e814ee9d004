extension Type4CapabilityContainer {
    /// What a session must know about the lock plan: the tag may refuse it, so verify.
    public static let lockCaveat =
        "many Type 4 tags refuse an UPDATE BINARY on the CC file (NTAG 424 DNA, for example, changes access "
        + "rights only through ChangeFileSettings): read the CC back to check that the write access is FF"

    /// Plans making the NDEF file read-only, as CoreNFC's `writeLock` does (T4T 3.0, 5.5.8, state
    /// change from READ/WRITE to READ-ONLY).
    ///
    /// One UPDATE BINARY on the CC file (`E103`) writes `FF` (no write access, 5.1.2) at the
    /// NDEF file's write access byte: offset `0E` after an NDEF File Control TLV, `10` after an
    /// Extended one. The step's reason carries ``lockCaveat``: the plan cannot be trusted until
    /// the session has read the CC back. A CC whose write access is already `FF` gives an empty
    /// plan.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when the CC grants no NDEF access.
    public func lockPlan() throws(TagMemoryError) -> TagWritePlan {
        guard ndefStatus.status != .notSupported else {
            throw TagMemoryError(
                .notFormatted, at: writeAccessOffset - 1,
                "the CC grants no NDEF access (read \(ndefFile.readAccess), write \(ndefFile.writeAccess))")
        }
        if ndefFile.writeAccess.isNone { return TagWritePlan(steps: []) }
        let reason =
            "write access \(TagHex.byte(ndefFile.writeAccess.rawValue)) -> FF: the NDEF file becomes read-only "
            + "(T4T 3.0, 5.1.2 and 5.5.8); \(Self.lockCaveat)"
        return TagWritePlan(steps: [
            PlanStep(file: Self.fileIdentifier, address: writeAccessOffset, data: [0xFF], reason: reason)
        ])
    }
}
