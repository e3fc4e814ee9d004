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
            LibNFCLog.apply()
            if context == nil {
                var created: OpaquePointer?
                nfc_init(&created)
                context = created
            }
            guard let context else {
                throw LibNFCError(status: .software, operation: "nfc_init")
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

/// An open libnfc device (`nfc_device *`), closed when the object goes away (`nfc_close`, which
/// also releases the targets, turns the field off and, on a PN532, sends it to power-down).
///
/// Not `Sendable`: a device is used from one thread at a time, its reader's serial executor.
/// Every method blocks until the device answers.
final class LibNFCDeviceHandle {
    /// The libnfc device.
    let pointer: OpaquePointer
    /// The connection string it was opened with.
    let connstring: String
    /// libnfc's name for it, `pn532_uart:/dev/ttyUSB0` or `ACS / ACR122U PICC Interface`.
    let name: String

    private init(pointer: OpaquePointer, connstring: String) {
        self.pointer = pointer
        self.connstring = connstring
        self.name = nfc_device_get_name(pointer).map { String(cString: $0) } ?? connstring
    }

    deinit {
        nfc_close(pointer)
    }

    /// Opens the device `connstring` names (`nfc_open`, under the library lock); nil when libnfc
    /// cannot (it returns no reason: no such port, no permission, no PN53x answering).
    static func open(_ connstring: String) throws(LibNFCError) -> LibNFCDeviceHandle? {
        let pointer = try LibNFCLibrary.withContext { context in
            OpaquePointerBox(nfc_open(context, connstring))
        }
        guard let pointer = pointer.value else { return nil }
        return LibNFCDeviceHandle(pointer: pointer, connstring: connstring)
    }

    /// The result of `result`, a libnfc call on this device.
    @discardableResult
    func check(_ result: Int32, _ operation: String) throws(LibNFCError) -> Int {
        try LibNFCError.check(result, operation, device: connstring)
    }

    /// Sets a boolean property (`nfc_device_set_property_bool`).
    func set(_ property: nfc_property, _ value: Bool, _ name: String) throws(LibNFCError) {
        try check(nfc_device_set_property_bool(pointer, property, value), "nfc_device_set_property_bool(\(name))")
    }

    /// Sets an integer property (`nfc_device_set_property_int`).
    func set(_ property: nfc_property, _ value: Int32, _ name: String) throws(LibNFCError) {
        try check(nfc_device_set_property_int(pointer, property, value), "nfc_device_set_property_int(\(name))")
    }
}

/// Carries an `OpaquePointer` out of the library lock, which hands out `Sendable` values only:
/// the pointer is used by one thread afterwards.
struct OpaquePointerBox: @unchecked Sendable {
    let value: OpaquePointer?

    init(_ value: OpaquePointer?) {
        self.value = value
    }
}
