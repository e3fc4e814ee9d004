internal import CLibNFC

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
