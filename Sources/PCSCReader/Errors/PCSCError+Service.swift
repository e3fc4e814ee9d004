/// Telling a stopped pcscd from other failures.
extension PCSCError {
    /// Codes that speak for themselves: the card or reader went away, the reader is busy, the
    /// wait was cancelled or timed out, pcscd is not running.
    private static let selfExplaining: Set<PCSCStatusCode> =
        PCSCStatusCode.cardGone.union([
            PCSCStatusCode.sharingViolation, PCSCStatusCode.cancelled, PCSCStatusCode.timeout, PCSCStatusCode.noService,
            PCSCStatusCode.noReadersAvailable,
        ])

    /// This error, or `SCARD_E_NO_SERVICE` when pcscd turns out not to be running.
    ///
    /// A call in progress when pcscd stops can return odd codes (a wait of pcsc-lite 1.9 has
    /// returned `SCARD_W_SECURITY_VIOLATION`, and `SCARD_F_COMM_ERROR` is common): for any code
    /// that does not explain itself, a new context is tried, and if pcscd is not there that is
    /// the error reported, with its hint. Blocks: call it where PC/SC calls may block.
    ///
    /// The new context can itself fail with an odd code while the old daemon's socket is still
    /// being torn down (pcsc-lite reports a connection closed before its handshake as
    /// `SCARD_W_SECURITY_VIOLATION`, as for a polkit refusal); then the daemon's socket is
    /// asked directly (``PCSCDaemonSocket/isAccepting()``): nothing listening is a stopped pcscd.
    func confirmingService() -> PCSCError {
        guard !Self.selfExplaining.contains(code) else { return self }
        let noService = PCSCError(code: .noService, operation: operation, readerName: readerName)
        do {
            _ = try PCSCContext()
            return self
        } catch {
            if error.code == PCSCStatusCode.noService { return noService }
            return PCSCDaemonSocket.isAccepting() ? self : noService
        }
    }
}
