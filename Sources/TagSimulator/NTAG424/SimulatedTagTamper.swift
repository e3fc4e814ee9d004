import NTAG424
import Synchronization

/// The TagTamper part of a simulated NTAG 424 DNA TT (NXP NT4H2421Tx): whether TagTamper is
/// enabled (SetConfiguration option 07h, for good), who may read the status (TTStatusKey), the
/// permanent status (latched open once the loop was seen open) and the physical tamper loop.
///
/// The loop is sampled when GetTTStatus is answered and when a read mirrors the status (SDM);
/// an open loop latches the permanent status open for good.
public struct SimulatedTagTamper: Sendable, Hashable {
    /// Whether TagTamper is enabled (disabled as delivered).
    public internal(set) var isEnabled = false
    /// TTStatusKey: GetTTStatus's access right (Eh free as delivered).
    public internal(set) var statusKey: NTAG424Access = .free
    /// The permanent status: closed until the loop is seen open.
    public internal(set) var permanent: NTAG424TagTamperStatus.State = .closed
    /// Whether the physical loop is open (a broken seal), unless ``SimulatedTagTamperControl``
    /// overrides it.
    public var isLoopOpen = false

    /// A TT chip as delivered, its loop closed or open.
    public init(loopOpen: Bool = false) {
        isLoopOpen = loopOpen
    }

    /// The status now: `II` while disabled; else the loop sampled (an open one latches the
    /// permanent status open).
    mutating func sample() -> NTAG424TagTamperStatus {
        guard isEnabled else { return .notEnabled }
        let open = SimulatedTagTamperControl.loopOverride ?? isLoopOpen
        if open { permanent = .open }
        return NTAG424TagTamperStatus(permanent: permanent, current: open ? .open : .closed)
    }

    /// The state as a tag file keeps it: enabled (00/01), TTStatusKey's nibble, the permanent
    /// status byte, the loop (`C`/`O`).
    var stateBytes: [UInt8] {
        [isEnabled ? 1 : 0, statusKey.nibble, permanent.rawValue, isLoopOpen ? 0x4F : 0x43]
    }

    /// The state in `bytes` (``stateBytes``); nil for bytes that are not one.
    init?(stateBytes bytes: [UInt8]) {
        guard bytes.count == 4, bytes[0] <= 1, let key = NTAG424Access(nibble: bytes[1]),
            let permanent = NTAG424TagTamperStatus.State(rawValue: bytes[2]), permanent != .invalid,
            bytes[3] == 0x43 || bytes[3] == 0x4F
        else { return nil }
        isEnabled = bytes[0] == 1
        statusKey = key
        self.permanent = permanent
        isLoopOpen = bytes[3] == 0x4F
    }
}

/// The tamper loop of every simulated NTAG 424 DNA TT in this process, as a served simulator's
/// control sets it (`ndeftool sim serve`: SIGUSR1 opens the loops, SIGUSR2 closes them): an
/// override of each tag's own loop. The store is a lock-free atomic, so a signal handler may
/// set it.
public enum SimulatedTagTamperControl {
    /// 0: no override, 1: open, 2: closed.
    private static let state = Atomic<Int8>(0)

    /// Opens (true) or closes (false) every tag's loop; nil gives each tag its own loop back.
    /// Async-signal-safe.
    public static func overrideLoop(open: Bool?) {
        state.store(open.map { $0 ? 1 : 2 } ?? 0, ordering: .sequentiallyConsistent)
    }

    /// The override: true open, false closed, nil none.
    public static var loopOverride: Bool? {
        switch state.load(ordering: .sequentiallyConsistent) {
        case 1: true
        case 2: false
        default: nil
        }
    }
}
