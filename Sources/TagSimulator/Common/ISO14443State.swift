/// The ISO/IEC 14443-3 state of a simulated Type A tag (section 6.3, figure 7: IDLE, READY,
/// ACTIVE, HALT), shared by every simulated chip (``SimulatedType2Tag/State``,
/// ``SimulatedType4Tag/State``). The READY* and ACTIVE* states of a tag woken from HALT are not
/// told apart: a halted tag is woken by WUPA only, and then behaves as one woken by REQA.
public enum ISO14443State: Sendable, Hashable, CaseIterable {
    /// Powered, waiting for REQA or WUPA.
    case idle
    /// Woken, in anticollision.
    case ready
    /// Selected: commands are answered.
    case active
    /// Halted: only WUPA wakes it.
    case halt
}
