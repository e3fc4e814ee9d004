internal import CLibNFC
import NFCSession
import Synchronization
import SystemSupport

/// The process's one libnfc context, and the lock around every call that uses it.
///
/// libnfc keeps process-wide state that makes several contexts unsafe to use from several
/// threads: `nfc_init` registers the drivers in a global list that `nfc_exit` frees, and sets
/// `LIBNFC_LOG_LEVEL` in the environment (libnfc's `log_init`, which `log_put` reads back);
/// `nfc_list_devices` sets and restores that variable again while it probes optional devices.
/// So the context is created once, on first use, and never freed, and `nfc_open` and
/// `nfc_list_devices` run under one lock. The context reads `/etc/nfc/libnfc.conf`,
/// `/etc/nfc/devices.d/*.conf` and the `LIBNFC_*` environment variables when it is created.
///
/// The calls block (opening a serial PN532 waits for it to wake up): make them from a reader's
/// serial executor or a `SerialQueueExecutor` (SystemSupport), never from the cooperative pool.
enum LibNFCLibrary {
    /// The context, behind the lock (nil until first used).
    private static let state = Mutex<OpaquePointer?>(nil)

    /// Runs `body` with the context under the lock, creating the context first if needed.
    ///
    /// - Throws: `NFC_ESOFT` when libnfc cannot allocate its context.
    static func withContext<Value: Sendable>(
        _ body: (OpaquePointer) throws(LibNFCError) -> Value
    ) throws(LibNFCError) -> Value {
        try state.withLock { (context: inout OpaquePointer?) throws(LibNFCError) -> Value in
            if context == nil {
                var created: OpaquePointer?
                nfc_init(&created)
                context = created
            }
            guard let context else {
                throw LibNFCError(code: .software, operation: "nfc_init")
            }
            return try body(context)
        }
    }

    /// libnfc's version, `1.8.0`.
    static var version: String {
        guard let text = nfc_version() else { return "unknown" }
        return String(cString: text)
    }
}
