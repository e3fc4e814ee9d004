import Synchronization
import SystemSupport

/// How much libnfc itself writes to standard error.
///
/// libnfc prints its own log lines there (at level 1, errors such as `Unable to find USB
/// busses`, which ``LibNFCDevices/connstrings()`` triggers on a machine without USB), whatever
/// the caller does with the errors it returns. This package reports libnfc's failures itself,
/// with advice, so by default the log is off: the level is `LIBNFC_LOG_LEVEL` when the
/// environment sets it, else ``Level/off``. ``setLevel(_:)`` chooses another for the process.
///
/// libnfc reads the level from the environment variable each time it logs, and its lines go
/// to standard error only: they cannot be routed elsewhere from here. Set the level before the
/// first libnfc call (opening or listing devices), when no other thread is calling libnfc: the
/// variable is written then, under the lock every `nfc_open` and `nfc_list_devices` holds.
public enum LibNFCLog {
    /// libnfc's log levels (`LIBNFC_LOG_LEVEL`, libnfc 1.8.0 `log.h`).
    public enum Level: Int32, Sendable, Hashable, CaseIterable {
        /// Nothing.
        case off = 0
        /// Errors.
        case errors = 1
        /// Errors and information on what libnfc does.
        case information = 2
        /// Everything, every frame included.
        case debug = 3
    }

    /// The level chosen with ``setLevel(_:)``; nil: the environment's, else off.
    private static let chosen = Mutex<Level?>(nil)

    /// Makes libnfc log at `level` from its next call on; nil goes back to the default
    /// (`LIBNFC_LOG_LEVEL` when set, else ``Level/off``).
    public static func setLevel(_ level: Level?) {
        chosen.withLock { $0 = level }
    }

    /// Writes the level to the environment for libnfc: the chosen one, or `0` unless the
    /// environment has one. Called under ``LibNFCLibrary``'s lock before each `nfc_init`,
    /// `nfc_open` and `nfc_list_devices`; writes only when the value changes.
    static func apply() {
        guard let level = chosen.withLock({ $0 }) else {
            setenv("LIBNFC_LOG_LEVEL", "0", 0)
            return
        }
        let value = String(level.rawValue)
        if let current = getenv("LIBNFC_LOG_LEVEL"), String(cString: current) == value { return }
        setenv("LIBNFC_LOG_LEVEL", value, 1)
    }
}
