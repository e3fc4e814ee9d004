import LibNFCReader
import NFCSession

/// How commands ask libnfc for its devices. ``system`` asks libnfc (`nfc_list_devices`); tests
/// running commands in process supply their own answer, so that the test process makes no libnfc
/// call (libnfc's scan touches USB, and its start-up changes the process environment).
struct LibNFCDirectory: Sendable {
    /// The connection strings of the devices libnfc knows, in its order.
    var connstrings: @Sendable () async throws(NFCReaderError) -> [String]
    /// Whether a tag is at the device with this connection string, found by opening it and polling
    /// once (`ndeftool readers --probe`); nil when the device cannot be asked.
    var probe: @Sendable (String) async -> Bool? = { _ in nil }
    /// Whether the device of a connection string libnfc's list left out is still attached (held
    /// by another program: ``LibNFCDeviceNode``), so that `readers --watch` does not report it
    /// removed.
    var isAttached: @Sendable (String) -> Bool = { _ in false }

    /// libnfc itself.
    static let system = LibNFCDirectory(
        connstrings: { () throws(NFCReaderError) in try await LibNFCDevices.connstrings() },
        probe: { connstring in
            guard let device = try? await LibNFCReaderDevice.open(connstring: connstring) else { return nil }
            let targets = try? await device.pollTargets()
            await device.close()
            return targets.map { !$0.isEmpty }
        },
        isAttached: { LibNFCDeviceNode.exists($0) })

    /// No device configured or found.
    static let none = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in [] })
}
