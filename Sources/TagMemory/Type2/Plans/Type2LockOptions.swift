/// What a Type 2 lock plan sets besides the CC and the lock bits of the data area.
///
/// See ``Type2Memory/lockPlan(options:)``.
public struct Type2LockOptions: Sendable, Hashable {
    /// Whether to set the block-lock bits too (static lock byte 0 bits 0-2, the dynamic
    /// block-lock bits). Default true.
    ///
    /// A block-lock bit freezes lock bits: once set, the lock bits it covers can no longer be
    /// changed (NTAG213/215/216 8.5.2 and 8.5.3). Lock bits can only go from 0 to 1, so once
    /// every lock bit is set the block-lock bits protect nothing more; setting them makes the
    /// lock configuration final, gives the static lock bytes `FF FF` that NFC Forum readers
    /// and Android's read-only procedure write, and costs no extra WRITE (they share the pages
    /// of the lock bits).
    public var setsBlockLockBits: Bool
    /// Whether to set CFGLCK (ACCESS bit 6) on chips with PWD_AUTH configuration pages, which
    /// freezes CFG0 and CFG1 (AUTH0, PROT, AUTHLIM, mirror) for good. Default false: a read-only
    /// tag may still want its password settings changed.
    public var locksConfiguration: Bool

    /// Creates options.
    public init(setsBlockLockBits: Bool = true, locksConfiguration: Bool = false) {
        self.setsBlockLockBits = setsBlockLockBits
        self.locksConfiguration = locksConfiguration
    }
}
